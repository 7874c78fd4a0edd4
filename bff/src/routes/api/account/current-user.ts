import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../lib/http-error';
import { SIGN_IN_REQUIRED } from '../../../plugins/app/identity/sessions';

/** The signed-in user; the sessions plugin already answered 401 for /api/account/* without one. */
export function currentUser(request: FastifyRequest): { id: string; email: string; name: string } {
  if (!request.sessionUser) throw new HttpError(401, SIGN_IN_REQUIRED);
  return request.sessionUser;
}
