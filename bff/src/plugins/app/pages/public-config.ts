import type { PublicConfig } from '@bimi/contracts/public-config';
import fp from 'fastify-plugin';
import { OWN_NEWSLETTER_PATH, type Config } from '../../../config';

export function publicConfigFrom(config: Config): PublicConfig {
  return {
    newsletterUrl: config.newsletterUrl ?? OWN_NEWSLETTER_PATH,
    tagManagerId: config.tagManagerId ?? null,
    priceSettings: config.priceSettings,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    publicConfig: PublicConfig;
  }
}

export default fp(
  async function publicConfig(fastify) {
    fastify.decorate('publicConfig', publicConfigFrom(fastify.config));
  },
  { name: 'public-config', decorators: { fastify: ['config'] } },
);
