import Chip from '@mui/material/Chip';
import { ORDER_STATE_LABELS, type OrderState } from '@bimi/contracts/order-lifecycle';
import type { OrderStatus } from '@bimi/contracts/orders';
import { STATUS_LABELS } from '../lib/order-format';

/** The order's lifecycle state in words (ORDER_STATE_LABELS), coloured by its list filter. */
export function OrderStatusChip({ status, state }: { status: OrderStatus; state: OrderState }) {
  const { color, background } = STATUS_LABELS[status];
  return (
    <Chip
      size="small"
      label={ORDER_STATE_LABELS[state]}
      color={color}
      variant={color === 'default' && !background ? 'outlined' : 'filled'}
      sx={background ? { bgcolor: background, color: '#ffffff' } : undefined}
      data-testid="order-status"
      data-status={status}
      data-state={state}
    />
  );
}
