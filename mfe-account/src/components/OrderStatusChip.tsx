import Chip from '@mui/material/Chip';
import type { OrderStatus } from '@bimi/contracts/orders';
import { STATUS_LABELS } from '../lib/order-format';

export function OrderStatusChip({ status }: { status: OrderStatus }) {
  const { label, color, background } = STATUS_LABELS[status];
  return (
    <Chip
      size="small"
      label={label}
      color={color}
      variant={color === 'default' && !background ? 'outlined' : 'filled'}
      sx={background ? { bgcolor: background, color: '#ffffff' } : undefined}
      data-testid="order-status"
      data-status={status}
    />
  );
}
