import type { Check } from '@bimi/contracts/tools';
import { sortChecks } from './status';

const check = (id: string, status: Check['status']): Check => ({ id, status, title: id, detail: id });

describe('sortChecks', () => {
  it('puts fails first, then warnings, passes and notes, keeping the order within each', () => {
    const checks = [check('a', 'pass'), check('b', 'info'), check('c', 'fail'), check('d', 'warn'), check('e', 'fail'), check('f', 'pass')];
    expect(sortChecks(checks).map((c) => c.id)).toEqual(['c', 'e', 'd', 'a', 'f', 'b']);
    expect(checks.map((c) => c.id)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });
});
