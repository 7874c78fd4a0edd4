import { PRICE_SETTING_NAMES } from '@bimi/catalog/price-ids';
import { describeDefaults } from '../src/config';
import { startTestStore, type TestStore } from './fixtures';

// What the bff says at start about settings left unset: describeDefaults (logged by server.ts)
// and the payments plugin's description of the payment settings. Each missing setting is named
// once, not once by each.
const SETTINGS = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', ...PRICE_SETTING_NAMES.filter((name) => name.endsWith('_PRICE'))];

/** Every line the bff says at start: the build's log, then what server.ts logs after it. */
function startUpLines(store: TestStore): string[] {
  return [...store.logs.messages(), ...describeDefaults(store.app.config)];
}

/** How many start-up lines name each setting (a name inside another, `…_PRICE` in `…_PRICE_X`, is not counted). */
function mentions(lines: string[]): Record<string, number> {
  return Object.fromEntries(SETTINGS.map((name) => [name, lines.filter((line) => new RegExp(`\\b${name}\\b`).test(line)).length]));
}

describe('the start-up description of missing settings', () => {
  it.each([
    ['the built-in test payments', {}, ['STRIPE_SECRET_KEY', ...SETTINGS.slice(2)]],
    // A key that no server answers: nothing asks Stripe while the bff starts.
    ['Stripe without a webhook secret or prices', { STRIPE_SECRET_KEY: 'sk_test_unreachable', STRIPE_API_BASE_URL: 'http://127.0.0.1:9' }, SETTINGS.slice(1)],
  ])('names each missing payment setting once, with %s', async (_mode, env, missing) => {
    const store = await startTestStore(env);
    try {
      const counted = mentions(startUpLines(store));
      for (const name of SETTINGS) expect([name, counted[name]]).toEqual([name, missing.includes(name) ? 1 : 0]);
    } finally {
      await store.cleanUp();
    }
  });
});
