import Chip from '@mui/material/Chip';
import type { CheckStatus } from '@bimi/contracts/checks';

const LABELS: Record<CheckStatus, { label: string; bg: string; fg: string }> = {
  pass: { label: 'Pass', bg: '#e6f4ea', fg: '#1e6b34' },
  warn: { label: 'Warning', bg: '#fff4e5', fg: '#8a4b00' },
  fail: { label: 'Fail', bg: '#fdecea', fg: '#a4221b' },
  info: { label: 'Info', bg: '#e8f0fe', fg: '#174ea6' },
  absent: { label: 'Missing', bg: '#fdecea', fg: '#a4221b' },
  unreachable: { label: 'Not reached', bg: '#f1f3f4', fg: '#3c4043' },
};

/** A check's or a group's status in words and colour (the colour is never the only sign). */
export function StatusChip({ status, compact = false }: { status: CheckStatus; compact?: boolean }) {
  // A status added to the contract after this build still shows, in neutral words.
  const { label, bg, fg } = LABELS[status] ?? { label: status, bg: '#f1f3f4', fg: '#3c4043' };
  return <Chip size="small" label={label} data-status={status} sx={{ bgcolor: bg, color: fg, fontWeight: 700, minWidth: compact ? 72 : undefined }} />;
}
