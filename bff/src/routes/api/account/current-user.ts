import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../lib/http-error';

/** The signed-in user; the sessions plugin already answered 401 for /api/account/* without one. */
export function currentUser(request: FastifyRequest): { id: string; email: string; name: string } {
  if (!request.sessionUser) throw new HttpError(401, 'Sign in to continue');
  return request.sessionUser;
}
