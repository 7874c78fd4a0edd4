import { longDate } from '@bimi/contracts/dates';
import type { BillingPeriod, OrderDetail, OrderFilter, OrderStatus, ValidationStep } from '@bimi/contracts/orders';

export const FILTER_LABELS: Record<OrderFilter, string> = {
  all: 'All',
  active: 'Active',
  pending: 'Pending',
  incomplete: 'Incomplete',
  expiring: 'Expiring',
};

/** What each filter shows, for the empty state of that filter. */
export const FILTER_EMPTY: Record<OrderFilter, string> = {
  all: 'You have no orders yet.',
  active: 'No active certificates or plans.',
  pending: 'No orders are waiting for validation.',
  incomplete: 'Nothing needs your action.',
  expiring: 'Nothing ends in the next 60 days.',
};

/**
 * How each status reads. Colours are chosen for 4.5:1 text contrast (MUI's default info and
 * warning fills do not reach it with white text): pending in the brand blue, expiring in a dark amber.
 */
export const STATUS_LABELS: Record<OrderStatus, { label: string; color: 'default' | 'success' | 'error' | 'primary'; background?: string }> = {
  incomplete: { label: 'Incomplete', color: 'error' },
  pending: { label: 'Pending validation', color: 'primary' },
  active: { label: 'Active', color: 'success' },
  expiring: { label: 'Expiring', color: 'default', background: '#8a4b00' },
  cancelled: { label: 'Cancelled', color: 'default' },
  expired: { label: 'Expired', color: 'default' },
};

export const STEP_LABELS: Record<ValidationStep, string> = {
  organization: 'Organization',
  'domain-control': 'Domain control',
  trademark: 'Trademark',
  logo: 'Logo',
  issued: 'Issued',
};

/** "per month", "per year", "per 2 years". */
export function perPeriod({ interval, count }: BillingPeriod): string {
  return count === 1 ? `per ${interval}` : `per ${count} ${interval}s`;
}

/** "Monthly", "Yearly", "Every 2 years". */
export function billedEvery({ interval, count }: BillingPeriod): string {
  if (count === 1) return interval === 'month' ? 'Monthly' : 'Yearly';
  return `Every ${count} ${interval}s`;
}

/** What happens at the end of the paid period, in words. */
export function periodEndText(order: { renews: boolean; currentPeriodEnd: string | null; status: OrderStatus }): string {
  if (!order.currentPeriodEnd) return order.status === 'incomplete' ? 'Starts once paid' : '—';
  if (order.status === 'cancelled' || order.status === 'expired') return `Ended ${longDate(order.currentPeriodEnd)}`;
  return `${order.renews ? 'Renews' : 'Ends'} ${longDate(order.currentPeriodEnd)}`;
}

export function isOrderFilter(value: string | null): value is OrderFilter {
  return value === 'all' || value === 'active' || value === 'pending' || value === 'incomplete' || value === 'expiring';
}

/**
 * How many domains a certificate order is for: the details given, else the order's description
 * ("3 domains · 2 years"). The contract has no count of its own yet (asked of the orders API).
 */
export function domainCountOf(order: Pick<OrderDetail, 'details' | 'description'>): number {
  if (order.details) return order.details.domains.length;
  const match = /(\d+)\s+domains?/.exec(order.description);
  return match ? Math.min(250, Math.max(1, Number(match[1]))) : 1;
}
