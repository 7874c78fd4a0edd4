import fp from 'fastify-plugin';
import { z } from 'zod';
import type { SessionUser } from '../identity/sessions';

/** One GET of the account API a signed-in page may be rendered with: its route and how it reads its answer. */
export interface AccountRead<Params = unknown, Query = unknown, Answer = unknown> {
  /** The route's path as registered (`/api/account/orders/:orderId`). */
  url: string;
  params?: z.core.$ZodType<Params>;
  querystring?: z.core.$ZodType<Query>;
  /** The answer's schema: the API's 200 and a page's answer are encoded by it alike. */
  response: z.core.$ZodType<Answer>;
  /** The answer for the signed-in `user`; throws an HttpError for a refusal (404 for another user's record). */
  read(user: SessionUser, input: { params: Params; query: Query }): Promise<Answer>;
}

export interface AccountAnswers {
  /** Makes a GET route's reading available to the page render (routes/api/account/readable.ts registers both). */
  add(read: AccountRead<never, never, unknown>): void;
  /**
   * The answer of GET `path` (path and query, as `renderableAnswerPath` gives it) for `user`, as the
   * API would send it to them (validated params and query, encoded by the route's schema, as JSON
   * would carry it); undefined when no readable route has that path, its params or query are
   * refused, or it refuses (4xx): the browser then asks itself. Any other failure is thrown.
   */
  answer(path: string, user: SessionUser): Promise<unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountAnswers: AccountAnswers;
  }
}

const NOWHERE = 'http://bff.invalid';

/** `url`'s path parameters, by name, when its segments match `pattern`'s (`:name` takes one whole, non-empty segment). */
function matchPath(pattern: readonly string[], segments: readonly string[]): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of pattern.entries()) {
    const segment = segments[index] as string;
    if (!part.startsWith(':')) {
      if (part !== segment) return undefined;
      continue;
    }
    if (segment === '') return undefined;
    try {
      params[part.slice(1)] = decodeURIComponent(segment);
    } catch {
      return undefined;
    }
  }
  return params;
}

/** A query as Fastify's parser gives it: a name once is a string, a repeated name an array. */
function queryOf(search: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    query[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return query;
}

const isRefusal = (error: unknown) => {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
};

/**
 * The account API's readings, for the page render (routes/pages.ts): a signed-in visitor's account
 * page is rendered with the answers the page's parts read, asked of the same plugins the API's
 * routes ask, for the visitor, without a request of its own.
 */
export default fp(
  async function accountAnswers(fastify) {
    // Static routes before routes with parameters, as Fastify's router prefers them.
    const reads: { pattern: string[]; params: number; read: AccountRead<never, never, unknown> }[] = [];
    fastify.decorate('accountAnswers', {
      add(read) {
        const pattern = read.url.split('/');
        reads.push({ pattern, params: pattern.filter((part) => part.startsWith(':')).length, read });
        reads.sort((a, b) => a.params - b.params);
      },
      async answer(path, user) {
        const url = new URL(path, NOWHERE);
        const segments = url.pathname.split('/');
        for (const { pattern, read } of reads) {
          const rawParams = matchPath(pattern, segments);
          if (!rawParams) continue;
          const params = read.params ? z.core.safeParse(read.params, rawParams) : { success: true as const, data: {} };
          const query = read.querystring ? z.core.safeParse(read.querystring, queryOf(url.searchParams)) : { success: true as const, data: {} };
          if (!params.success || !query.success) return undefined;
          let value: unknown;
          try {
            value = await read.read(user, { params: params.data as never, query: query.data as never });
          } catch (error) {
            if (isRefusal(error)) return undefined;
            throw error;
          }
          const encoded = z.core.safeEncode(read.response, value);
          if (!encoded.success) throw new Error(`${read.url}: the answer does not fit its schema: ${encoded.error.message}`);
          return JSON.parse(JSON.stringify(encoded.data)) as unknown;
        }
        return undefined;
      },
    } satisfies AccountAnswers);
  },
  { name: 'account-answers' },
);
