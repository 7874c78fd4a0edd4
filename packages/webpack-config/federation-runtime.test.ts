import { createInstance, satisfy } from '@module-federation/enhanced/runtime';

/**
 * The federation runtime is patched (patches/@module-federation__runtime-core@2.9.2.patch): unpatched,
 * every loadShare and loadShareSync registered the host's whole share table again, so a page's
 * start-up cost grew with the square of its shared modules, and every version check parsed its range
 * again. These fail if an upgrade drops the fixes.
 */
describe('the federation runtime', () => {
  it('registers each shared module once, however many of them a page loads', async () => {
    const names = Array.from({ length: 40 }, (_, index) => `library-${index}`);
    let registrations = 0;
    const instance = createInstance({
      name: 'host',
      remotes: [],
      shareStrategy: 'loaded-first',
      shared: Object.fromEntries(names.map((name) => [name, { version: '1.0.0', lib: () => ({ name }), shareConfig: { singleton: true, requiredVersion: '^1.0.0' } }])),
      plugins: [{ name: 'count-registrations', afterRegisterShare: () => void registrations++ }],
    });
    for (const name of names.slice(0, 20)) expect((instance.loadShareSync(name) as () => unknown)()).toEqual({ name });
    for (const name of names.slice(20)) expect(((await instance.loadShare(name)) as () => unknown)()).toEqual({ name });
    // Once when the instance is made and once when it starts sharing; unpatched, again on every load (1,640).
    expect(registrations).toBeLessThanOrEqual(2 * names.length);
  });

  it('parses each version range once, and answers as before', () => {
    let parses = 0;
    // A range that counts how often the runtime splits it (its first step in parsing one).
    const counted = (text: string) =>
      Object.assign(new String(text), {
        split(this: string, separator: string) {
          parses++;
          return String.prototype.split.call(this, separator);
        },
      }) as unknown as string;
    expect(satisfy('1.4.0', counted('^1.2.0'))).toBe(true);
    expect(satisfy('1.4.0', counted('^1.2.0'))).toBe(true);
    expect(parses).toBe(1);
    expect(satisfy('1.1.0', '^1.2.0')).toBe(false);
    expect(satisfy('2.0.0', '^1.2.0')).toBe(false);
    expect(satisfy('1.2.3', '>=1.0.0 <1.2.3 || 1.2.3')).toBe(true);
    expect(satisfy('', '*')).toBe(false);
  });
});
