/**
 * The operator's command for manual fulfilment: list orders, show one, record a validation step,
 * record issuance. It opens the same database as the server, from the same settings (DATA_DIR or
 * DATABASE_URL), so run it on the server's machine with the server's environment:
 *
 *   pnpm --filter bff orders list [--status all|active|pending|incomplete|expiring]
 *   pnpm --filter bff orders show <order>
 *   pnpm --filter bff orders step <order> <organization|domain-control|trademark|logo> <waiting|in-progress|done|failed> [--note "…"]
 *   pnpm --filter bff orders issue <order> [--expires YYYY-MM-DD]
 *
 * <order> is the number the buyer sees (O-000123, or 123) or the order's id.
 */
import { ORDER_FILTERS, VALIDATION_STEP_STATES } from '@bimi/contracts/orders';
import { formatUsd } from '@bimi/catalog/prices';
import { Kysely } from 'kysely';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config';
import type { StoreDatabase } from '../db/schema';
import { iso, isoDay } from '../lib/iso';
import { createDialect, migrateToLatest } from '../plugins/app/platform/db';
import { createEmailTokens } from '../plugins/app/identity/email-tokens';
import { createOrders, type Orders } from '../plugins/app/orders/orders';
import { orderNumber, productName } from '../services/orders/order-rows';
import { createOrganizations, type Organizations } from '../plugins/app/identity/organizations';
import { createUsers, type Users } from '../plugins/app/identity/users';
import { manualFulfilment } from '../plugins/app/orders/fulfilment';
import { isCertificateOrder } from '../services/orders/order-status';

const USAGE = `usage:
  orders list [--status all|active|pending|incomplete|expiring]
  orders show <order>
  orders step <order> <organization|domain-control|trademark|logo> <waiting|in-progress|done|failed> [--note "…"]
  orders issue <order> [--expires YYYY-MM-DD]
<order> is the order number (O-000123 or 123) or the order's id.`;

/** A mistake in the command line: said with the usage, exit code 2. */
class UsageError extends Error {}
/** A command the data refuses (unknown order, not ready to issue): exit code 1. */
class RefusedError extends Error {}

const OrderRef = z.string({ error: 'give the order: its number (O-000123) or id' }).min(1, 'give the order: its number (O-000123) or id').max(64);
const OPERATOR_STEPS = ['organization', 'domain-control', 'trademark', 'logo'] as const;

const Command = z.discriminatedUnion('command', [
  z.object({ command: z.literal('list'), status: z.enum(ORDER_FILTERS, { error: `--status is one of ${ORDER_FILTERS.join(', ')}` }).default('all') }).strict(),
  z.object({ command: z.literal('show'), order: OrderRef }).strict(),
  z
    .object({
      command: z.literal('step'),
      order: OrderRef,
      step: z.enum(OPERATOR_STEPS, { error: `the step is one of ${OPERATOR_STEPS.join(', ')} (record issuance with \`orders issue\`)` }),
      state: z.enum(VALIDATION_STEP_STATES, { error: `the state is one of ${VALIDATION_STEP_STATES.join(', ')}` }),
      note: z.string().trim().min(1, '--note needs a text').max(1000, '--note is at most 1000 characters').optional(),
    })
    .strict(),
  z
    .object({
      command: z.literal('issue'),
      order: OrderRef,
      expires: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, '--expires is a date, YYYY-MM-DD')
        .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && isoDay(Date.parse(`${value}T00:00:00Z`)) === value, '--expires is not a real date')
        .optional(),
    })
    .strict(),
]);
type Command = z.infer<typeof Command>;

const POSITIONAL: Record<string, string[]> = { list: [], show: ['order'], step: ['order', 'step', 'state'], issue: ['order'] };
const OPTIONS: Record<string, string[]> = { list: ['status'], show: [], step: ['note'], issue: ['expires'] };

/** argv → a checked command; throws UsageError naming what is wrong. */
function parseCommand(argv: string[]): Command {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') throw new UsageError('');
  const positional = POSITIONAL[command];
  if (!positional) throw new UsageError(`unknown command "${command}"`);
  const fields: Record<string, string> = { command };
  const values: string[] = [];
  for (let index = 0; index < rest.length; index += 1) {
    const argument = rest[index] as string;
    const option = /^--([a-z]+)(?:=(.*))?$/.exec(argument);
    if (!option) {
      values.push(argument);
      continue;
    }
    const name = option[1] as string;
    if (!OPTIONS[command]?.includes(name)) throw new UsageError(`"${command}" takes no --${name}`);
    const value = option[2] ?? rest[(index += 1)];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    fields[name] = value;
  }
  if (values.length > positional.length)
    throw new UsageError(
      `"${command}" takes ${positional.length === 0 ? 'no' : positional.length} argument${positional.length === 1 ? '' : 's'} (${positional.join(', ') || 'only options'}); extra: ${values.slice(positional.length).join(' ')}`,
    );
  positional.forEach((name, index) => {
    if (values[index] !== undefined) fields[name] = values[index] as string;
  });
  const parsed = Command.safeParse(fields);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}

function date(iso: string | null): string {
  return iso ? iso.slice(0, 10) : '-';
}

async function findOrder(orders: Orders, reference: string) {
  const row = await orders.findByNumber(reference);
  if (!row) throw new RefusedError(`no order ${reference}`);
  return row;
}

/** The repositories the command reads and writes, built as the server's plugins build them. */
interface Repositories {
  orders: Orders;
  users: Pick<Users, 'namesAndEmails'>;
  organizations: Pick<Organizations, 'nameOf'>;
}

async function runCommand(command: Command, { orders, users, organizations }: Repositories, print: (line: string) => void): Promise<void> {
  const fulfilment = manualFulfilment(orders, { info: () => undefined });
  switch (command.command) {
    case 'list': {
      const rows = await orders.operatorList(command.status);
      if (rows.length === 0) {
        print(`no ${command.status === 'all' ? '' : `${command.status} `}orders`);
        return;
      }
      const buyers = await users.namesAndEmails(rows.map(({ row }) => row.user_id));
      for (const { row, status } of rows) {
        print([orderNumber(row.number), status.padEnd(10), `${productName(row.product_id)}, ${row.description}`, buyers.get(row.user_id)?.email ?? '?', date(row.created_at)].join('  '));
      }
      return;
    }
    case 'show': {
      const row = await findOrder(orders, command.order);
      const detail = await orders.operatorGet(row.id);
      if (!detail) throw new RefusedError(`no order ${command.order}`);
      const buyer = (await users.namesAndEmails([row.user_id])).get(row.user_id);
      print(`${detail.number}  ${detail.status}  (id ${detail.id})`);
      print(`${detail.productName}, ${detail.description}: ${formatUsd(detail.amount)} every ${detail.billingPeriod.count} ${detail.billingPeriod.interval}(s)`);
      print(
        `buyer: ${buyer ? `${buyer.name} <${buyer.email}>` : '?'}; ordered ${date(detail.createdAt)}; paid until ${date(detail.currentPeriodEnd)}; ${detail.renews ? 'renews' : 'does not renew'}`,
      );
      if (detail.needsAction.length > 0) print(`buyer must: ${detail.needsAction.join(' ')}`);
      if (detail.details) {
        print(`organization: ${(await organizations.nameOf(detail.details.organizationId)) ?? detail.details.organizationId}`);
        print(`domains: ${detail.details.domains.join(', ')}`);
        if (detail.details.trademarkStatus) print(`trademark: ${detail.details.trademarkStatus}`);
        if (detail.details.agencyLevel) print(`agency level: ${detail.details.agencyLevel}`);
        print(`logo: ${detail.details.logoSvg.length} bytes of SVG`);
      }
      for (const step of detail.validationSteps) print(`  ${step.step.padEnd(15)} ${step.state.padEnd(12)} ${date(step.updatedAt)}${step.note ? `  ${step.note}` : ''}`);
      return;
    }
    case 'step': {
      const row = await findOrder(orders, command.order);
      if (!isCertificateOrder(row.product_id)) throw new RefusedError(`${orderNumber(row.number)} is a ${productName(row.product_id)} order: only certificates are validated`);
      if (row.payment_status !== 'paid' || row.details === null) throw new RefusedError(`${orderNumber(row.number)} is not ready for validation: it must be paid and have its details`);
      if (row.issued_at !== null) throw new RefusedError(`${orderNumber(row.number)} is already issued`);
      await fulfilment.recordStep(row.id, command.step, command.state, command.note ?? null);
      print(`${orderNumber(row.number)}: ${command.step} is ${command.state}${command.note ? ` (${command.note})` : ''}`);
      return;
    }
    case 'issue': {
      const row = await findOrder(orders, command.order);
      if (!isCertificateOrder(row.product_id)) throw new RefusedError(`${orderNumber(row.number)} is a ${productName(row.product_id)} order: only certificates are issued`);
      if (row.payment_status !== 'paid' || row.details === null) throw new RefusedError(`${orderNumber(row.number)} cannot be issued yet: it must be paid and have its details`);
      if (row.issued_at !== null) throw new RefusedError(`${orderNumber(row.number)} is already issued (${date(row.issued_at)})`);
      await fulfilment.issue(row.id, command.expires ? iso(Date.parse(`${command.expires}T00:00:00Z`)) : null);
      const detail = await orders.operatorGet(row.id);
      print(`${orderNumber(row.number)}: issued; the order is ${detail?.status ?? 'active'}`);
      return;
    }
  }
}

async function main(): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message ? `orders: ${error.message}\n` : ''}${USAGE}\n`);
    return error.message ? 2 : 0;
  }
  const config = loadConfig();
  const db = new Kysely<StoreDatabase>({ dialect: createDialect(config) });
  try {
    // The server migrates at start; a command run before the first start finds the same schema.
    await migrateToLatest(db);
    const now = () => Date.now();
    const repositories = {
      orders: createOrders(db, { now }),
      users: createUsers(db, { now, emailTokens: createEmailTokens(db, now) }),
      organizations: createOrganizations(db, now),
    };
    await runCommand(command, repositories, (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (error) {
    if (error instanceof RefusedError) {
      process.stderr.write(`orders: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`orders failed: ${message}\n`);
    process.exit(1);
  },
);
