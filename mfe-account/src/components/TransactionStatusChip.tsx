import Chip from '@mui/material/Chip';
import type { Transaction } from '@bimi/contracts/orders';

/** Outlined: the label is the theme colour on white, which keeps 4.5:1 for these (not for MUI's default info blue). */
const LABELS: Record<Transaction['status'], { label: string; color: 'success' | 'error' | 'default' }> = {
  paid: { label: 'Paid', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
  refunded: { label: 'Refunded', color: 'default' },
  pending: { label: 'Pending', color: 'default' },
};

export function TransactionStatusChip({ status }: { status: Transaction['status'] }) {
  const { label, color } = LABELS[status];
  return <Chip size="small" label={label} color={color} variant="outlined" />;
}

/** A refund reads as money back (negative), whichever sign the record carries. */
export function signedAmount(t: Pick<Transaction, 'kind' | 'amount'>): number {
  return t.kind === 'refund' ? -Math.abs(t.amount) : t.amount;
}
