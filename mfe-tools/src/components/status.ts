import { CHECK_SEVERITY, type Check, type CheckStatus } from '@bimi/contracts/tools';

/** Fails first, then warnings, passes and notes; the server's order within each status is kept. */
export function sortChecks(checks: readonly Check[]): Check[] {
  return checks
    .map((check, index) => ({ check, index }))
    .sort((a, b) => CHECK_SEVERITY[a.check.status] - CHECK_SEVERITY[b.check.status] || a.index - b.index)
    .map(({ check }) => check);
}

export const STATUS_LABEL: Record<CheckStatus, string> = { pass: 'Pass', warn: 'Warning', fail: 'Fail', info: 'Info', absent: 'Not found', unreachable: 'Could not check' };

/** Theme palette keys, so colours follow the one site theme. */
export const STATUS_COLOR: Record<CheckStatus, 'success' | 'warning' | 'error' | 'info'> = {
  pass: 'success',
  warn: 'warning',
  fail: 'error',
  info: 'info',
  // Missing is wrong for the question asked (red); "could not check" is not a verdict on the record (neutral blue).
  absent: 'error',
  unreachable: 'info',
};
