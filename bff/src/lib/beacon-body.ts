import type { FastifyInstance } from 'fastify';
import { jsonBodyProblem } from './json-body';

/**
 * navigator.sendBeacon sends a string body as `text/plain;charset=UTF-8` (a JSON content type
 * would need a CORS preflight it cannot make), so beacon routes read text bodies as JSON.
 */
export function acceptBeaconBodies(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    const tooLarge = jsonBodyProblem(body as string);
    if (tooLarge) return done(tooLarge, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('Body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
}

/** The largest beacon body accepted: a client error with its longest stack fits well within it. */
export const BEACON_BODY_LIMIT = 32 * 1024;
