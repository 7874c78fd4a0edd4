import { VALIDATION_STEPS, type ValidationStep } from '@bimi/contracts/orders';
import type { Kysely } from 'kysely';
import type { StoreDatabase } from '../../../db/schema';
import type { DueReminder } from '../../../services/orders/order-rows';
import { orderStatus } from '../../../services/orders/order-status';
import { iso } from '../../../lib/iso';

const DAY = 24 * 60 * 60 * 1000;
/** Renewal reminders go 30 and 7 days before a yearly period ends. */
export const REMINDER_DAYS = [30, 7] as const;

/** The operator's fulfilment (validation steps, issuance) and the renewal reminders: their rows. */
export function createFulfilmentRows(db: Kysely<StoreDatabase>, now: () => number) {
  return {
    async setValidationStep(orderId: string, step: ValidationStep, state: 'waiting' | 'in-progress' | 'done' | 'failed', note: string | null) {
      const at = iso(now());
      await db
        .insertInto('order_validation_steps')
        .values({ order_id: orderId, step, state, note, updated_at: at })
        .onConflict((conflict) => conflict.columns(['order_id', 'step']).doUpdateSet({ state, note, updated_at: at }))
        .execute();
      await db.updateTable('orders').set({ updated_at: at }).where('id', '=', orderId).execute();
    },

    async startValidation(orderId: string) {
      const at = iso(now());
      for (const step of VALIDATION_STEPS) {
        await db
          .insertInto('order_validation_steps')
          .values({ order_id: orderId, step, state: 'waiting', note: null, updated_at: at })
          .onConflict((conflict) => conflict.columns(['order_id', 'step']).doNothing())
          .execute();
      }
    },

    async markIssued(orderId: string, certificateExpiresAt: string | null) {
      const at = iso(now());
      await db.transaction().execute(async (trx) => {
        for (const step of VALIDATION_STEPS) {
          await trx
            .insertInto('order_validation_steps')
            .values({ order_id: orderId, step, state: 'done', note: null, updated_at: at })
            .onConflict((conflict) => conflict.columns(['order_id', 'step']).doUpdateSet({ state: 'done', updated_at: at }))
            .execute();
        }
        await trx.updateTable('orders').set({ issued_at: at, certificate_expires_at: certificateExpiresAt, updated_at: at }).where('id', '=', orderId).execute();
      });
    },

    async dueRenewalReminders() {
      const at = now();
      const horizon = iso(at + Math.max(...REMINDER_DAYS) * DAY);
      const rows = await db
        .selectFrom('orders')
        .selectAll()
        .where('current_period_end', '>', iso(at))
        .where('current_period_end', '<=', horizon)
        .where('billing_interval', '=', 'year')
        .where('ended_at', 'is', null)
        .execute();
      const due: DueReminder[] = [];
      for (const row of rows) {
        const status = orderStatus(row, at);
        if (status !== 'active' && status !== 'expiring') continue;
        const periodEnd = row.current_period_end as string;
        const left = Date.parse(periodEnd) - at;
        // The nearest reminder whose day has come: 7 days ahead replaces a 30-day one never sent.
        const daysAhead = [...REMINDER_DAYS].sort((a, b) => a - b).find((days) => left <= days * DAY);
        if (daysAhead === undefined) continue;
        const sent = await db
          .selectFrom('renewal_reminders')
          .select('order_id')
          .where('order_id', '=', row.id)
          .where('days_ahead', '=', daysAhead)
          .where('period_end', '=', periodEnd)
          .executeTakeFirst();
        if (!sent) due.push({ orderId: row.id, userId: row.user_id, daysAhead, periodEnd });
      }
      return due;
    },

    async claimReminder(reminder: DueReminder) {
      const claimed = await db
        .insertInto('renewal_reminders')
        .values({ order_id: reminder.orderId, days_ahead: reminder.daysAhead, period_end: reminder.periodEnd, sent_at: iso(now()) })
        .onConflict((conflict) => conflict.columns(['order_id', 'days_ahead', 'period_end']).doNothing())
        .returning('order_id')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    async releaseReminder(reminder: DueReminder) {
      await db.deleteFrom('renewal_reminders').where('order_id', '=', reminder.orderId).where('days_ahead', '=', reminder.daysAhead).where('period_end', '=', reminder.periodEnd).execute();
    },
  };
}
