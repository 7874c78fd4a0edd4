import type { FastifyInstance } from 'fastify';

/**
 * Request bodies are JSON of a few levels (the deepest contract, a checkout, has five) and a few
 * thousand values (the largest, a checkout of 50 lines of 250 domains, about 13,500): a body nested
 * deeper or holding more is refused before it is parsed. JSON.parse of 1 MB nested 400,000 levels
 * deep costs the event loop about 175 ms (issue 31, finding 6), and 1 MB of 80,000 keys about as
 * much again to parse and walk (a refused sign-out held the loop 350 ms); counting both costs about a
 * millisecond a megabyte, one pass over the text.
 */
export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_VALUES = 16_384;

export const TOO_DEEP_MESSAGE = `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`;
export const TOO_MANY_VALUES_MESSAGE = `The JSON body holds more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values`;

/**
 * What makes `text` too large a JSON body to parse (nesting past MAX_JSON_DEPTH, values past
 * MAX_JSON_VALUES; strings are skipped), or undefined. Linear; stops at the first limit passed.
 */
export function jsonShapeProblem(text: string): string | undefined {
  let depth = 0;
  // Each value past the first of an array or object follows a comma; the first is counted with its container.
  let values = 1;
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
      values += 1;
      if (depth > MAX_JSON_DEPTH) return TOO_DEEP_MESSAGE;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    } else if (code === 0x2c) {
      values += 1;
      if (values > MAX_JSON_VALUES) return TOO_MANY_VALUES_MESSAGE;
    }
  }
  return undefined;
}

const badRequest = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/**
 * Why valid-looking JSON was refused, in words: JSON.parse reads it (so it is JSON, refused for a
 * `__proto__` or `constructor` key, which the app's parser rejects against prototype poisoning), or
 * says where it is not JSON.
 */
function refusalOf(text: string): Error {
  try {
    JSON.parse(text);
    return badRequest('The JSON body has a "__proto__" or "constructor" key, which no field accepts');
  } catch (error) {
    return badRequest(`The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The app's JSON body parser: Fastify's own (prototype poisoning refused as configured), after the
 * size check, with the reason of a refusal said. A scope that reads JSON bodies itself (the Stripe
 * webhook, beacons) replaces it.
 */
export function acceptJsonBodies(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser(fastify.initialConfig.onProtoPoisoning ?? 'error', fastify.initialConfig.onConstructorPoisoning ?? 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    const problem = jsonShapeProblem(text);
    if (problem) return done(badRequest(problem), undefined);
    return parse(request, text, (error, parsed) => (error && text !== '' ? done(refusalOf(text), undefined) : done(error, parsed)));
  });
}

/** For parsers of their own (beacons): the same check, as an error to answer 400 with, or undefined. */
export function jsonBodyProblem(text: string): Error | undefined {
  const problem = jsonShapeProblem(text);
  return problem ? badRequest(problem) : undefined;
}
