import type { CheckStatus } from '@bimi/contracts/tools';

/** How each check status reads and looks; fails come first in every list. */
export const STATUS_ORDER: Record<CheckStatus, number> = { fail: 0, warn: 1, pass: 2, info: 3 };

export const STATUS_LABEL: Record<CheckStatus, string> = { pass: 'Pass', warn: 'Warning', fail: 'Fail', info: 'Info' };

/** Theme palette keys, so colours follow the one site theme. */
export const STATUS_COLOR: Record<CheckStatus, 'success' | 'warning' | 'error' | 'info'> = {
  pass: 'success',
  warn: 'warning',
  fail: 'error',
  info: 'info',
};
