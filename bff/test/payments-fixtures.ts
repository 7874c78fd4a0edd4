import type { LightMyRequestResponse } from 'fastify';
import { type Browser, type IdentityStore, type StorageEngine, signedInUser, startIdentityStore } from './identity-fixtures';
import { StripeDouble, catalogPrices } from './fixtures/stripe/server';

/** The done-means cart: a 2-year VMC for 3 domains and a monthly DMARC Plus plan for 1,000,000 emails. */
export const MIXED_CART = [
  { productId: 'verified-mark-certificate', domains: 3, years: 2 },
  { productId: 'dmarc-plus', emailVolume: 1_000_000, billingPeriod: 'monthly' as const },
];

export const SITE = 'http://store.test';

/**
 * Reads until `done` holds, every 50 ms for up to 5 s, and answers the last value read (the test's
 * assertion on it says what was missing): for what a webhook sent after an answer changes.
 */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    const value = await read();
    if (done(value) || attempt >= 100) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The hidden form token of a test payment page. */
export function formTokenOf(html: string): string {
  const match = /name="formToken" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no form token on the page');
  return match[1];
}

/** The path of an absolute URL on the site (what the browser would request). */
export function pathOf(url: string): string {
  const parsed = new URL(url, SITE);
  return `${parsed.pathname}${parsed.search}`;
}

export async function startCheckout(browser: Browser, items: unknown[] = MIXED_CART): Promise<LightMyRequestResponse> {
  return browser.write('POST', '/api/account/checkout', { items, acceptTerms: true });
}

/** Fills the test payment page at `url` with `cardNumber` and submits it, as a browser would. */
export async function payOnTestPage(browser: Browser, url: string, cardNumber: string, fields: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const page = await browser.request({ url: pathOf(url) });
  if (page.statusCode !== 200) throw new Error(`test page answered ${page.statusCode}`);
  return browser.request({
    method: 'POST',
    url: pathOf(url),
    form: { formToken: formTokenOf(page.body), cardNumber, expiry: '12/34', cvc: '123', name: 'Ada Buyer', ...fields },
    headers: { origin: SITE },
  });
}

export interface StripeStore {
  store: IdentityStore;
  double: StripeDouble;
}

/** The bff on `engine` with Stripe pointed at a fresh double whose prices match the catalog; webhooks go through inject. */
export async function startStripeStore(engine: StorageEngine, options: { prices?: ReturnType<typeof catalogPrices>['prices']; env?: NodeJS.ProcessEnv } = {}): Promise<StripeStore> {
  const { prices, settings } = catalogPrices();
  let store: IdentityStore | undefined;
  const double = new StripeDouble({
    prices: options.prices ?? prices,
    now: () => store?.clock.now ?? Date.now(),
    webhookTransport: async (payload, headers) => {
      if (!store) throw new Error('no bff yet');
      const response = await store.app.inject({ method: 'POST', url: '/api/payments/webhook', headers, payload });
      return { status: response.statusCode, body: response.body };
    },
  });
  const { url } = await double.start();
  store = await startIdentityStore(engine, {
    SIGNUP_RATE_LIMIT_PER_HOUR: '1000',
    STRIPE_SECRET_KEY: 'sk_test_double',
    STRIPE_WEBHOOK_SECRET: double.webhookSecret,
    STRIPE_API_BASE_URL: url,
    ...settings,
    ...options.env,
  });
  return { store, double };
}

export async function buyer(store: IdentityStore, name = 'Ada Buyer', email = `ada-${Math.random().toString(36).slice(2, 8)}@example.com`): Promise<Browser> {
  // Each buyer signs up from an address of its own, under the sign-up limit per address.
  return signedInUser(store, name, email, `198.51.100.${Math.floor(Math.random() * 250) + 1}`);
}
