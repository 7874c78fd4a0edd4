import type { FastifyInstance } from 'fastify';

/**
 * Request bodies are JSON of a few levels (the deepest contract, a checkout, has five): a body nested
 * deeper is refused before it is parsed. JSON.parse of 1 MB nested 400,000 levels deep costs the
 * event loop about 175 ms (issue 31, finding 6); counting the nesting costs about a millisecond a
 * megabyte, one pass over the text.
 */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`;

/** Whether `text` nests arrays and objects more than `limit` levels deep (strings are skipped). Linear; stops at the first level past `limit`. */
export function jsonNestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return false;
}

const tooDeep = () => Object.assign(new Error(TOO_DEEP_MESSAGE), { statusCode: 400 });

/**
 * The app's JSON body parser: Fastify's own (prototype poisoning refused as configured), after the
 * nesting check. A scope that reads JSON bodies itself (the Stripe webhook, beacons) replaces it.
 */
export function acceptJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser(fastify.initialConfig.onProtoPoisoning ?? 'error', fastify.initialConfig.onConstructorPoisoning ?? 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeperThan(body as string)) return done(tooDeep(), undefined);
    return parse(request, body as string, done);
  });
}

/** For parsers of their own (beacons): the same check, as an error to answer 400 with, or undefined. */
export function jsonTooDeep(text: string): Error | undefined {
  return jsonNestsDeeperThan(text) ? tooDeep() : undefined;
}
