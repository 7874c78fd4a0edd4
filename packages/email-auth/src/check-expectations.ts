import { Check } from '@bimi/contracts/tools';

/** Test helpers shared by the protocol suites: every inspection answers with a list of checks. */

export const ids = (checks: Check[]) => checks.map((check) => check.id);

export const byId = (checks: Check[], id: string) => checks.find((check) => check.id === id);

/** Every check fits the shared contract, and every warning or failure tells the user how to fix it. */
export function expectFixes(checks: Check[]) {
  for (const check of checks) {
    expect(Check.safeParse(check).success).toBe(true);
    if (check.status === 'warn' || check.status === 'fail') expect(check.fix).toEqual(expect.any(String));
  }
}
