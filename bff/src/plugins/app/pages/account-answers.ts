import fp from 'fastify-plugin';
import FindMyWay from 'find-my-way';
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
    // Fastify's own router (find-my-way), holding the readable GET routes: the same matching,
    // decoding and preference of static segments over parameters as the API's routes have.
    const router = FindMyWay({ ignoreTrailingSlash: false });
    fastify.decorate('accountAnswers', {
      add(read) {
        router.on('GET', read.url, () => undefined, { read });
      },
      async answer(path, user) {
        const found = router.find('GET', path);
        if (!found) return undefined;
        const { read } = found.store as { read: AccountRead<never, never, unknown> };
        const params = read.params ? z.core.safeParse(read.params, found.params) : { success: true as const, data: {} };
        const query = read.querystring ? z.core.safeParse(read.querystring, found.searchParams) : { success: true as const, data: {} };
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
      },
    } satisfies AccountAnswers);
  },
  { name: 'account-answers' },
);
