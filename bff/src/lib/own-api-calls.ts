import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * A request the bff makes of its own API for a page it renders (`askOwnApi` in routes/pages.ts)
 * carries this header with a secret of the process: it is part of the page's request, which is
 * logged, so it is not logged again (a signed-in dashboard made nine log lines instead of one).
 * No visitor can send the secret, so none can keep their requests out of the log.
 */
export const OWN_API_CALL_HEADER = 'x-bimi-own-api-call';
const OWN_API_CALL_SECRET = randomBytes(16).toString('hex');

/** The headers that mark a request as the bff's own call. */
export const ownApiCallHeaders = (): Record<string, string> => ({ [OWN_API_CALL_HEADER]: OWN_API_CALL_SECRET });

/** Fastify's `disableRequestLogging`: true for the bff's own calls only. */
export function isOwnApiCall(request: { headers: IncomingHttpHeaders }): boolean {
  return request.headers[OWN_API_CALL_HEADER] === OWN_API_CALL_SECRET;
}
