import { promises as dns } from 'node:dns';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The tools' DNS: Node's resolver, pointed at DNS_SERVERS when set, each query with a timeout. */
    dnsResolver: dns.Resolver;
  }
}

/**
 * Two tries of `timeoutMs` each unless told otherwise: a server that drops one UDP packet still
 * answers, and one that never answers costs the user a few seconds rather than c-ares' default of
 * four tries. (The monitors, which nobody waits for, ask with three: monitor-engine.ts.)
 */
export function createResolver(options: { servers?: readonly string[]; timeoutMs: number; tries?: number }): dns.Resolver {
  const resolver = new dns.Resolver({ timeout: options.timeoutMs, tries: options.tries ?? 2 });
  if (options.servers?.length) resolver.setServers([...options.servers]);
  return resolver;
}

export default fp(
  async function dnsResolver(fastify) {
    const resolver = createResolver({ servers: fastify.config.dnsServers, timeoutMs: fastify.config.tools.dnsTimeoutMs });
    fastify.decorate('dnsResolver', resolver);
    // Queries still waiting when the server stops end with ECANCELLED instead of holding it open.
    fastify.addHook('onClose', async () => resolver.cancel());
  },
  { name: 'dns-resolver' },
);
