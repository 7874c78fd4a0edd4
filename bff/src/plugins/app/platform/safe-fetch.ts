import type { promises as dns } from 'node:dns';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import { isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import fp from 'fastify-plugin';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';
import { FetchRefusedError, type FetchLimits, type SafeFetch } from '../../../services/tools/ports';

declare module 'fastify' {
  interface FastifyInstance {
    safeFetch: SafeFetch;
  }
}

/**
 * Fetching what a domain owner points the tools at (the BIMI logo at l=, the certificate at a=)
 * without letting a record turn the bff into a proxy into its own network: https only, every
 * address checked after resolution and the connection pinned to that checked address (so a second,
 * different DNS answer cannot slip in between check and connect), few redirects (each checked
 * again), a size cap and one deadline for the whole fetch.
 */

// Cloud metadata services that sit on ordinary-looking addresses; the others (169.254.169.254,
// fd00:ec2::254, 100.100.100.200) are already refused by their range.
const METADATA_ADDRESSES = new Set(['168.63.129.16', '192.0.0.192']);
/** Where public IPv6 unicast addresses are assigned from; the rest of ::/0 is special or unassigned. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

type PinnedAddress = { address: string; family: 4 | 6 };

/**
 * The address as it will be connected to, or undefined when it must not be. Judged by ipaddr.js's
 * ranges; only public unicast space passes, and loopback when the test setting allows it.
 * - An IPv4-mapped address (::ffff:a.b.c.d) is judged, and connected to, as the IPv4 address it
 *   reaches.
 * - Other IPv6 forms that lead to an IPv4 address through a gateway or tunnel (NAT64 64:ff9b::/96
 *   and 64:ff9b:1::/48, 6to4 2002::/16, Teredo 2001::/32, IPv4-translated ::ffff:0:a.b.c.d) have
 *   ranges of their own and are refused: no public web server needs them, and the IPv4 address
 *   behind one may be internal.
 * - ipaddr.js counts every address outside its special ranges as "unicast", the deprecated
 *   IPv4-compatible ::a.b.c.d (::7f00:1, ::a9fe:a9fe) included, so IPv6 must also lie in 2000::/3.
 * IPv6 is put in canonical form first (through the URL parser): ipaddr.js reads "::127.0.0.1" as
 * IPv4-mapped, which it is not.
 */
function checkedAddress(address: string, allowLoopback: boolean): PinnedAddress | undefined {
  if (isIPv4(address)) {
    const range = ipaddr.IPv4.parse(address).range();
    const allowed = !METADATA_ADDRESSES.has(address) && (range === 'unicast' || (allowLoopback && range === 'loopback'));
    return allowed ? { address, family: 4 } : undefined;
  }
  if (!isIPv6(address)) return undefined;
  let parsed: ipaddr.IPv6;
  try {
    parsed = ipaddr.IPv6.parse(new URL(`https://[${address}]/`).hostname.slice(1, -1));
  } catch {
    // A zone index (fe80::1%eth0) is no public address either.
    return undefined;
  }
  if (parsed.isIPv4MappedAddress()) return checkedAddress(parsed.toIPv4Address().toString(), allowLoopback);
  const range = parsed.range();
  const allowed = (range === 'unicast' && parsed.match(GLOBAL_UNICAST)) || (allowLoopback && range === 'loopback');
  return allowed ? { address: parsed.toString(), family: 6 } : undefined;
}

/** Only public unicast addresses are fetched from; loopback too when the test setting allows it. */
export function isAllowedAddress(address: string, allowLoopback: boolean): boolean {
  return checkedAddress(address, allowLoopback) !== undefined;
}

export interface SafeFetchSettings {
  resolver: Pick<dns.Resolver, 'resolve4' | 'resolve6'>;
  allowLoopback: boolean;
  /** A PEM bundle trusted in addition to the public roots (the fixture server's test CA). */
  extraCa?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

function parseHttpsUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefusedError('invalid-url', `${raw} is not a valid URL.`);
  }
  if (url.protocol !== 'https:') throw new FetchRefusedError('not-https', `${raw} does not use https://; only https addresses are fetched.`);
  if (url.username || url.password) throw new FetchRefusedError('invalid-url', `${url.host} is given with a user name or password; remove them.`);
  return url;
}

async function resolveAllowedAddress(settings: SafeFetchSettings, url: URL): Promise<PinnedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const pinned = checkedAddress(host, settings.allowLoopback);
    if (!pinned) throw new FetchRefusedError('blocked-address', `${url.host} is a private, local or reserved address; the tools only fetch from public addresses.`);
    return pinned;
  }
  const [v4, v6] = await Promise.allSettled([settings.resolver.resolve4(host), settings.resolver.resolve6(host)]);
  const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
  if (addresses.length === 0) {
    const failure = [v4, v6].find((result) => result.status === 'rejected') as PromiseRejectedResult | undefined;
    const code = (failure?.reason as { code?: string } | undefined)?.code ?? 'ENODATA';
    throw new FetchRefusedError('dns', `${host} has no address in DNS (${code}).`);
  }
  // One private answer among public ones is refused too: the host is pointing somewhere it should not.
  const checked = addresses.map((address) => ({ address, pinned: checkedAddress(address, settings.allowLoopback) }));
  const blocked = checked.find((answer) => !answer.pinned);
  if (blocked) {
    throw new FetchRefusedError('blocked-address', `${host} resolves to ${blocked.address}, a private, local or reserved address; the tools only fetch from public addresses.`);
  }
  return checked[0]!.pinned!;
}

/** A lookup that answers with the one address already checked, whatever the socket asks. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

// Idle connections close before common servers close theirs (Node and Apache after 5 s), so a
// reused one is seldom already closed by the server.
const IDLE_CONNECTION_MS = 4000;

/**
 * Kept-alive connections, one pool per checked address: the TLS handshake (a round trip and a few
 * milliseconds of CPU on both ends) is paid once per host and address, not on every fetch. Every
 * fetch still resolves and checks the address first; the pool's lookup answers only that address,
 * so a pooled connection is reused only when the fresh answer was checked and pinned to the very
 * address it is connected to.
 */
function pinnedAgents(secureContext: SecureContext | undefined): (pinned: PinnedAddress) => https.Agent {
  // No dispose: an evicted pool's idle connections close on their own timeout, and its fetches under way finish.
  const agents = new LRUCache<string, https.Agent>({ max: 64 });
  return (pinned) => {
    const key = `${pinned.family}/${pinned.address}`;
    let agent = agents.get(key);
    if (!agent) {
      // Agent options reach tls.connect, secureContext included, though @types/node leaves it out of AgentOptions.
      const options: https.AgentOptions & { secureContext?: SecureContext } = {
        keepAlive: true,
        timeout: IDLE_CONNECTION_MS,
        // Enough idle connections for the monitors' fetches to one host at once (two per check): with
        // 4, most connections were closed after one fetch and the next paid a new TLS handshake
        // (a quarter of the monitor engine's main thread in bench:monitors).
        maxFreeSockets: 16,
        lookup: pinnedLookup(pinned.address, pinned.family),
        secureContext,
      };
      agent = new https.Agent(options);
      agents.set(key, agent);
    }
    return agent;
  };
}

function request(url: URL, agent: https.Agent, limits: FetchLimits, signal: AbortSignal, retryClosedConnection = true): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoing = https.request(url, { method: 'GET', agent, headers: { accept: limits.accept, 'user-agent': 'BIMI-store-tools/1.0 (+BIMI checker)' }, signal });
    outgoing.once('response', resolve);
    outgoing.once('error', (error: Error & { code?: string }) => {
      // The server closed a kept-alive connection just as it was reused: ask once more, on a new one.
      if (retryClosedConnection && outgoing.reusedSocket && error.code === 'ECONNRESET' && !signal.aborted) resolve(request(url, agent, limits, signal, false));
      else reject(error);
    });
    outgoing.end();
  });
}

async function readLimited(response: IncomingMessage, url: URL, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  const tooLarge = () => new FetchRefusedError('too-large', `${url.href} is larger than ${Math.round(maxBytes / 1024)} KB, the most the tool accepts.`);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function describeNetworkError(error: unknown, url: URL, timeoutMs: number): FetchRefusedError {
  if (error instanceof FetchRefusedError) return error;
  const named = error as { name?: string; code?: string; message?: string };
  if (named.name === 'AbortError' || named.name === 'TimeoutError' || named.code === 'ABORT_ERR') {
    return new FetchRefusedError('timeout', `${url.href} did not answer within ${timeoutMs / 1000} seconds.`);
  }
  return new FetchRefusedError('network', `${url.href} could not be fetched: ${named.message ?? String(error)}${named.code ? ` (${named.code})` : ''}.`);
}

export function createSafeFetch(settings: SafeFetchSettings): SafeFetch {
  // Built once: a context holding the public roots costs tens of milliseconds to make.
  const secureContext = settings.extraCa ? createSecureContext({ ca: [...rootCertificates, settings.extraCa] }) : undefined;
  const agentFor = pinnedAgents(secureContext);
  return async function safeFetch(rawUrl, limits) {
    const signal = AbortSignal.timeout(limits.timeoutMs);
    const redirects: string[] = [];
    let url = parseHttpsUrl(rawUrl);
    for (;;) {
      let response: IncomingMessage;
      let pinned: PinnedAddress;
      try {
        pinned = await resolveAllowedAddress(settings, url);
        response = await request(url, agentFor(pinned), limits, signal);
      } catch (error) {
        throw describeNetworkError(error, url, limits.timeoutMs);
      }
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status) && response.headers.location) {
        response.destroy();
        if (redirects.length >= limits.maxRedirects) {
          throw new FetchRefusedError('too-many-redirects', `${rawUrl} redirects more than ${limits.maxRedirects} times; point the record at the final address.`);
        }
        const next = new URL(response.headers.location, url).href;
        redirects.push(next);
        url = parseHttpsUrl(next);
        continue;
      }
      if (status < 200 || status > 299) {
        response.destroy();
        throw new FetchRefusedError('http-status', `${url.href} answered HTTP ${status}; it must answer 200 with the file.`);
      }
      try {
        const body = await readLimited(response, url, limits.maxBytes);
        return { url: rawUrl, finalUrl: url.href, redirects, address: pinned.address, contentType: response.headers['content-type'], body };
      } catch (error) {
        throw describeNetworkError(error, url, limits.timeoutMs);
      }
    }
  };
}

export default fp(
  async function safeFetchPlugin(fastify) {
    const { allowLoopback, extraCaFile } = fastify.config.tools;
    fastify.decorate('safeFetch', createSafeFetch({ resolver: fastify.dnsResolver, allowLoopback, extraCa: extraCaFile ? readFileSync(extraCaFile, 'utf8') : undefined }));
  },
  { name: 'safe-fetch', dependencies: ['dns-resolver'] },
);
