import { isAnswerOf, type ToolAnswer, type ToolFindings, type ToolName } from '@bimi/contracts/tools';
import fp from 'fastify-plugin';
import { LRUCache } from 'lru-cache';
import { FetchRefusedError, type SafeFetch, type ToolIo, type ToolResolver } from '../../../services/tools/ports';

// "No such record" is an answer worth caching; a timeout or SERVFAIL is not.
const ANSWER_CODES = new Set(['ENOTFOUND', 'ENODATA']);
const PASSING_FETCH_FAILURES = new Set(['timeout', 'network', 'dns']);

function trackedIo(resolver: ToolResolver, safeFetch: SafeFetch): { io: ToolIo; transientFailure: () => boolean } {
  let failed = false;
  const track =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (!ANSWER_CODES.has((error as { code?: string }).code ?? '')) failed = true;
        throw error;
      }
    };
  const dnsIo: ToolResolver = {
    resolveTxt: track((name: string) => resolver.resolveTxt(name)),
    resolveMx: track((name: string) => resolver.resolveMx(name)),
    resolve4: track((name: string) => resolver.resolve4(name)) as ToolResolver['resolve4'],
    resolve6: track((name: string) => resolver.resolve6(name)) as ToolResolver['resolve6'],
    resolveCname: track((name: string) => resolver.resolveCname(name)),
    resolveNs: track((name: string) => resolver.resolveNs(name)),
    resolvePtr: track((name: string) => resolver.resolvePtr(name)),
    resolveSoa: track((name: string) => resolver.resolveSoa(name)),
    resolveCaa: track((name: string) => resolver.resolveCaa(name)),
  };
  const fetchIo: SafeFetch = async (url, limits) => {
    try {
      return await safeFetch(url, limits);
    } catch (error) {
      if (!(error instanceof FetchRefusedError) || PASSING_FETCH_FAILURES.has(error.reason)) failed = true;
      throw error;
    }
  };
  return { io: { dns: dnsIo, fetch: fetchIo }, transientFailure: () => failed };
}

export interface ToolAnswers {
  /**
   * The answer for `tool` and its normalized `query`: from the cache when a recent identical one
   * succeeded, otherwise computed. Answers hit by a DNS or network failure are not cached, so the
   * next try asks again.
   */
  answer<Tool extends ToolName>(
    tool: Tool,
    query: Record<string, string>,
    compute: (io: ToolIo) => Promise<ToolFindings<NoInfer<Tool>>>,
  ): Promise<{ answer: ToolAnswer<Tool>; cached: boolean }>;
}

declare module 'fastify' {
  interface FastifyInstance {
    toolAnswers: ToolAnswers;
  }
}

/** What the answers kept take at most, in characters of their JSON (about as many bytes). */
const CACHE_MAX_CHARACTERS = 32 * 1024 * 1024;

export function createToolAnswers(options: { resolver: ToolResolver; safeFetch: SafeFetch; ttlSeconds: number }): ToolAnswers {
  // Answers of every tool, kept in this process only; a hit is read back as the asked tool's answer
  // through isAnswerOf (its key starts with the tool's name, so it always is). Bounded in bytes too:
  // an answer shows the records it read, and a crafted domain's can be hundreds of KB.
  const cache =
    options.ttlSeconds > 0
      ? new LRUCache<string, Pick<ToolAnswer, 'tool'>>({
          max: 1000,
          maxSize: CACHE_MAX_CHARACTERS,
          sizeCalculation: (answer) => JSON.stringify(answer).length,
          ttl: options.ttlSeconds * 1000,
        })
      : undefined;
  return {
    async answer<Tool extends ToolName>(tool: Tool, query: Record<string, string>, compute: (io: ToolIo) => Promise<ToolFindings<Tool>>) {
      const key = `${tool}?${new URLSearchParams(Object.entries(query).sort(([a], [b]) => a.localeCompare(b))).toString()}`;
      const hit = cache?.get(key);
      if (hit && isAnswerOf(hit, tool)) return { answer: hit, cached: true };
      const { io, transientFailure } = trackedIo(options.resolver, options.safeFetch);
      const answer: ToolAnswer<Tool> = { tool, query, ...(await compute(io)) };
      if (cache && !transientFailure()) cache.set(key, answer);
      return { answer, cached: false };
    },
  };
}

export default fp(
  async function toolAnswers(fastify) {
    fastify.decorate('toolAnswers', createToolAnswers({ resolver: fastify.dnsResolver, safeFetch: fastify.safeFetch, ttlSeconds: fastify.config.tools.cacheTtlSeconds }));
  },
  { name: 'tool-answers', dependencies: ['dns-resolver', 'safe-fetch'] },
);
