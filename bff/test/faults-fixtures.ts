import type { FastifyInstance } from 'fastify';
import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { CartQuote } from '@bimi/contracts/cart-quote';
import { HealthResponse } from '@bimi/contracts/health';
import { PublicConfig } from '@bimi/contracts/public-config';
import { ToolAnswer } from '@bimi/contracts/tools';
import { startStoreOn, type IdentityStore } from './identity-fixtures';
import { wallMsOf } from './timing';

/**
 * The bff of a fault test (test/faults-*.test.ts) on the settings given (DATABASE_URL, REDIS_URL of
 * the test's own servers, test/own-services.ts): a fake build root and data folder of its own, and
 * a clock that follows the real one (pg-boss and Redis expire by it) and can be moved forward.
 */
export async function startFaultStore(env: NodeJS.ProcessEnv): Promise<IdentityStore> {
  let offset = 0;
  return startStoreOn(
    { SIGNUP_RATE_LIMIT_PER_HOUR: '1000', ...env },
    {
      clock: {
        get now() {
          return Date.now() + offset;
        },
      },
      advance(ms) {
        offset += ms;
      },
    },
  );
}

/** What a fault must not break: a tool lookup, a cart quote, the public config, a page, liveness. */
export async function expectServedWithout(app: FastifyInstance, what: string): Promise<void> {
  const answers = {
    tool: await wallMsOf(() => app.inject({ url: '/api/tools/dmarc?domain=good.example' })),
    quote: await wallMsOf(() =>
      app.inject({
        method: 'POST',
        url: SITE_API_PATHS.cartQuote,
        headers: { origin: 'http://store.test' },
        payload: { items: [{ productId: 'verified-mark-certificate', domains: 1, years: 1 }] },
      }),
    ),
    config: await wallMsOf(() => app.inject({ url: SITE_API_PATHS.publicConfig })),
    page: await wallMsOf(() => app.inject({ url: '/faq' })),
    health: await wallMsOf(() => app.inject({ url: SITE_API_PATHS.health })),
  };
  const statuses = Object.fromEntries(Object.entries(answers).map(([name, { result }]) => [name, result.statusCode]));
  expect({ without: what, statuses }).toEqual({ without: what, statuses: { tool: 200, quote: 200, config: 200, page: 200, health: 200 } });
  ToolAnswer.parse(answers.tool.result.json());
  expect(CartQuote.parse(answers.quote.result.json()).total).toBeGreaterThan(0);
  PublicConfig.parse(answers.config.result.json());
  expect(answers.page.result.body).toContain('<html');
  HealthResponse.parse(answers.health.result.json());
  for (const [name, { ms }] of Object.entries(answers)) expect({ [name]: ms < 1500 }).toEqual({ [name]: true });
}
