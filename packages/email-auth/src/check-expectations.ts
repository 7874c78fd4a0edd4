import type { Check } from './types';

/** Test helpers shared by the protocol suites: every inspection answers with a list of checks. */

export const ids = (checks: Check[]) => checks.map((check) => check.id);

export const byId = (checks: Check[], id: string) => checks.find((check) => check.id === id);

const STATUSES = new Set(['pass', 'warn', 'fail', 'info', 'unreachable', 'absent']);

/** Whether a value has the shape of a Check (types.ts), as the API contract will read it. */
export function isCheck(value: unknown): value is Check {
  if (!value || typeof value !== 'object') return false;
  const check = value as Record<string, unknown>;
  return (
    typeof check.id === 'string' &&
    /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(check.id) &&
    typeof check.status === 'string' &&
    STATUSES.has(check.status) &&
    typeof check.title === 'string' &&
    typeof check.detail === 'string' &&
    (check.fix === undefined || typeof check.fix === 'string')
  );
}

/** Every check has the shared shape, and every warning or failure tells the user how to fix it. */
export function expectFixes(checks: Check[]) {
  for (const check of checks) {
    expect(isCheck(check)).toBe(true);
    if (check.status !== 'pass' && check.status !== 'info') expect(check.fix).toEqual(expect.any(String));
  }
}
