import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import type { PaymentEvent } from '../../../services/payments/provider';
import { compareKeys, lockKeyOf, type Trx } from '../../../services/orders/order-rows';
import { EventWork, type ApplierContext } from './payment-event-work';
import { applyEvent } from './payment-events';
import { iso } from '../../../lib/iso';

/**
 * Applies a provider event exactly once: its id is stored in the same transaction as the change
 * it causes ('duplicate' when it was stored before: nothing changes). Events that name their
 * checkout are applied in batches (group commit, below); the others alone.
 */
export function createPaymentEventApplier(db: Kysely<StoreDatabase>, ctx: ApplierContext, onEffectsRecorded?: () => void): (event: PaymentEvent) => Promise<'applied' | 'duplicate'> {
  const { sqlite } = ctx;

  /** Claims event ids (sorted, so two transactions claiming the same ids never wait on each other in a cycle): the ids claimed now. */
  async function claimEvents(trx: Trx, events: PaymentEvent[]): Promise<Set<string>> {
    const byId = new Map(events.map((event) => [event.eventId, event.kind]));
    const at = iso(ctx.now());
    const rows = await trx
      .insertInto('processed_payment_events')
      .values([...byId].sort(([a], [b]) => compareKeys(a, b)).map(([eventId, kind]) => ({ event_id: eventId, kind, applied_at: at })))
      .onConflict((conflict) => conflict.column('event_id').doNothing())
      .returning('event_id')
      .execute();
    return new Set(rows.map((row) => row.event_id));
  }

  /**
   * Event ids this process saw committed (applied, or found applied): a stored id stays stored, so a
   * later delivery of one is a duplicate without a transaction. The newest 10,000; older ids are
   * asked of the database as before.
   */
  const storedEvents = new (class RecentIds {
    readonly #ids = new Set<string>();
    has(id: string) {
      return this.#ids.has(id);
    }
    add(id: string) {
      if (this.#ids.has(id)) return;
      this.#ids.add(id);
      if (this.#ids.size > 10_000) this.#ids.delete(this.#ids.values().next().value as string);
    }
  })();

  /**
   * One event in its own transaction. Its id is claimed first: a second delivery (even one running
   * at this moment in another process) waits for the first to commit, then finds the id and
   * changes nothing.
   */
  async function applyAlone(event: PaymentEvent): Promise<'applied' | 'duplicate'> {
    let recorded = false;
    const outcome = await db.transaction().execute(async (trx) => {
      if ((await claimEvents(trx, [event])).size === 0) return 'duplicate' as const;
      const work = new EventWork(trx, ctx);
      await work.preload([event]);
      await applyEvent(work, event);
      await work.finish();
      recorded = work.effects.length > 0;
      return 'applied' as const;
    });
    storedEvents.add(event.eventId);
    // Mail and fulfilment never sit in the webhook's path: the sender carries them out after the answer.
    if (recorded) onEffectsRecorded?.();
    return outcome;
  }

  /**
   * Group commit. The events that arrive while batches run are applied together, in one
   * transaction: their ids claimed in one statement, each event's changes in the same transaction
   * as its id, one commit for all, and every waiting webhook answered once it is stored. A round
   * trip to the database is most of what an event costs, and an idle bff applies an event at once
   * (a batch of one). Events are applied in the order of the checkout they lock, as every
   * transaction locks checkouts (then their orders) in id order, so concurrent batches never wait
   * on each other in a cycle. Should a batch fail (an event that throws, a database error), each of
   * its events is applied again alone, so only the failing one fails.
   */
  const waiting: { event: PaymentEvent; resolve: (outcome: 'applied' | 'duplicate') => void; reject: (error: unknown) => void }[] = [];
  let batchesRunning = 0;
  // SQLite runs one transaction at a time. On PostgreSQL two batches overlap (one waiting for a row
  // a buyer's request holds does not stop the other), leaving the pool's other connections to the
  // rest of the site; measured with bench:payments, a third made batches smaller and each event
  // dearer (1.1 ms of bff CPU an event instead of 1.0).
  const MAX_BATCHES = sqlite ? 1 : 2;
  const MAX_BATCH = 64;
  // A second batch starts beside a running one only for this many events; fewer wait for the
  // running one to end (a few milliseconds, unless it waits for a lock) and go with what arrives
  // meanwhile: a batch of one or two events costs nearly as many statements as one of thirty.
  // bench:payments (32 deliveries at a time): 8 gave 910–947 events/s, 16 gave 1,032–1,098, 24 998–1,019.
  const MIN_OVERLAPPING_BATCH = 16;

  function startBatches() {
    while (batchesRunning < MAX_BATCHES && waiting.length > 0 && (batchesRunning === 0 || waiting.length >= MIN_OVERLAPPING_BATCH)) {
      const batch = waiting.splice(0, MAX_BATCH);
      batchesRunning += 1;
      void applyBatch(batch).finally(() => {
        batchesRunning -= 1;
        startBatches();
      });
    }
  }

  async function applyBatch(batch: typeof waiting) {
    let claimed: Set<string>;
    let recorded = false;
    try {
      claimed = await db.transaction().execute(async (trx) => {
        const events = batch.map((item) => item.event);
        const ids = await claimEvents(trx, events);
        const firsts = [...new Map(events.filter((event) => ids.has(event.eventId)).map((event) => [event.eventId, event])).values()];
        firsts.sort((a, b) => compareKeys(lockKeyOf(a) ?? '', lockKeyOf(b) ?? ''));
        const work = new EventWork(trx, ctx);
        await work.preload(firsts);
        for (const event of firsts) await applyEvent(work, event);
        await work.finish();
        recorded = work.effects.length > 0;
        return ids;
      });
    } catch {
      await Promise.all(batch.map((item) => applyAlone(item.event).then(item.resolve, item.reject)));
      return;
    }
    if (recorded) onEffectsRecorded?.();
    const answered = new Set<string>();
    for (const item of batch) {
      storedEvents.add(item.event.eventId);
      const first = claimed.has(item.event.eventId) && !answered.has(item.event.eventId);
      answered.add(item.event.eventId);
      item.resolve(first ? 'applied' : 'duplicate');
    }
  }

  return (event) => {
    // Stored by this process already (a retry, a second delivery): nothing to ask the database.
    if (storedEvents.has(event.eventId)) return Promise.resolve('duplicate' as const);
    // An event that names its checkout joins the next batch (one transaction for every event that
    // arrived meanwhile); renewals and subscription changes, which find their orders by reference,
    // run alone.
    if (!lockKeyOf(event)) return applyAlone(event);
    return new Promise((resolve, reject) => {
      waiting.push({ event, resolve, reject });
      startBatches();
    });
  };
}
