import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AccountRead } from '../../../plugins/app/pages/account-answers';
import { currentUser } from './current-user';

/**
 * A GET route of the account API whose answer a signed-in page may be rendered with: the route
 * answers `read` for the signed-in user, and the page render asks the same `read`
 * (`fastify.accountAnswers`), so the two never differ. `errors`: the route's other answers' schemas.
 */
export function readableGet<Params, Query, Answer>(fastify: FastifyInstance, read: AccountRead<Params, Query, Answer>, errors: Record<number, z.core.$ZodType> = {}): void {
  fastify.accountAnswers.add(read as unknown as AccountRead<never, never, unknown>);
  fastify.get(
    read.url,
    { schema: { ...(read.params ? { params: read.params } : {}), ...(read.querystring ? { querystring: read.querystring } : {}), response: { 200: read.response, ...errors } } },
    async (request) => read.read(currentUser(request), { params: request.params as Params, query: request.query as Query }),
  );
}
