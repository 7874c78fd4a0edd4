import fc from 'fast-check';

/**
 * fast-check arbitraries read from a route's zod schema (zod 4 and zod/mini share the `_zod.def`
 * read here), so the fuzzer sends values that get past the outer checks and reach the handler, not
 * only values every schema refuses at once. Close enough is the aim: refinements the definition
 * does not describe (a password rule, a cross-field check) are left to chance and to `words`.
 */

interface Def {
  type: string;
  [key: string]: unknown;
}
interface SchemaLike {
  _zod: { def: Def };
}

/** Strings worth trying as they are: ids, emails and tokens the store knows, fixture domains. */
export type Words = fc.Arbitrary<string>;

const defOf = (schema: unknown): Def => (schema as SchemaLike)._zod.def;
const checksOf = (def: Def): Def[] => ((def.checks as SchemaLike[] | undefined) ?? []).map((check) => check._zod.def);

/** Whether `value` is a zod schema (anything else found in a route's schema is not fuzzed from). */
export function isZodSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

const MAX_DEPTH = 6;

function stringArbitrary(def: Def, words: Words): fc.Arbitrary<string> {
  let minLength = 0;
  let maxLength: number | undefined;
  const formats: fc.Arbitrary<string>[] = [];
  const affixes: ((text: string) => string)[] = [];
  const describe = (check: Def) => {
    if (check.check === 'min_length') minLength = Math.max(minLength, Number(check.minimum));
    if (check.check === 'max_length') maxLength = Math.min(maxLength ?? Infinity, Number(check.maximum));
    if (check.check === 'length_equals') minLength = maxLength = Number(check.length);
    if (check.check === 'string_format' || check.format !== undefined) {
      if (check.format === 'email') formats.push(fc.emailAddress());
      else if (check.format === 'uuid' || check.format === 'guid') formats.push(fc.uuid());
      else if (check.format === 'url') formats.push(fc.webUrl({ validSchemes: ['https'] }));
      else if (check.format === 'starts_with') affixes.push((text) => `${String(check.prefix)}${text}`);
      else if (check.format === 'ends_with') affixes.push((text) => `${text}${String(check.suffix)}`);
      else if (check.format === 'includes') affixes.push((text) => `${text}${String(check.includes)}`);
      else if (check.pattern instanceof RegExp) {
        try {
          // What matches the case-sensitive pattern matches it with the i flag too (which fast-check refuses).
          formats.push(fc.stringMatching(new RegExp(check.pattern.source, check.pattern.flags.replace(/[igy]/g, ''))));
        } catch {
          // A pattern fast-check cannot generate from: the other arbitraries still apply.
        }
      }
    }
  };
  describe(def);
  checksOf(def).forEach(describe);
  const longest = Math.max(minLength, Math.min(maxLength ?? 120, 400));
  const free = fc.oneof(fc.string({ minLength, maxLength: longest, unit: 'grapheme' }), fc.string({ minLength, maxLength: longest, unit: 'binary' }));
  const shaped = (formats.length > 0 ? fc.oneof(...formats) : free).map((text) => affixes.reduce((value, affix) => affix(value), text));
  // A well-formed value with one awkward character in it: what a database or a mail header chokes on.
  // NUL most often: PostgreSQL refuses it in text where SQLite stores it.
  const odd = fc.oneof({ weight: 3, arbitrary: fc.constant('\u0000') }, { weight: 4, arbitrary: fc.constantFrom('\ud800', '\u202e', '\r\n', '\ufeff', '\u2028', '%00', '\\') });
  const spiced = fc.tuple(shaped, fc.nat(), odd).map(([text, at, character]) => {
    const index = text.length === 0 ? 0 : 1 + (at % text.length);
    return `${text.slice(0, index)}${character}${text.slice(index)}`;
  });
  return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: free }, { weight: 2, arbitrary: spiced }, { weight: 2, arbitrary: words });
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  let min = -1_000_000;
  let max = 1_000_000;
  let integer = false;
  for (const check of [def, ...checksOf(def)]) {
    if (check.check === 'greater_than') min = Number(check.value) + (check.inclusive ? 0 : 1);
    if (check.check === 'less_than') max = Number(check.value) - (check.inclusive ? 0 : 1);
    if (check.format === 'safeint' || check.format === 'int32' || check.check === 'number_format') integer = true;
  }
  if (min > max) [min, max] = [max, min];
  // fast-check favours small numbers: the edges and a few round sizes are offered as often.
  const edges = [min, max, 0, 1, -1, 2, 10, 101, 1000, 65_536, 2 ** 31, 999_999].filter((value) => value >= min && value <= max);
  const whole = fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.constantFrom(...edges.map(Math.round)));
  return integer ? whole : fc.oneof(whole, fc.double({ min, max, noNaN: true }));
}

/** An arbitrary of values close to what `schema` accepts. */
export function arbitraryFor(schema: unknown, words: Words, depth = 0): fc.Arbitrary<unknown> {
  if (!isZodSchema(schema) || depth > MAX_DEPTH) return fc.jsonValue({ maxDepth: 2 });
  const def = defOf(schema);
  const inner = (next: unknown) => arbitraryFor(next, words, depth + 1);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def, words);
    case 'number':
    case 'int':
      return numberArbitrary(def);
    case 'bigint':
      return fc.bigInt().map(String);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'undefined':
    case 'void':
      return fc.constant(undefined);
    case 'date':
      return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'optional':
      return fc.option(inner(def.innerType), { nil: undefined });
    case 'nullable':
      return fc.option(inner(def.innerType), { nil: null });
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
    case 'success':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return inner((def.getter as () => unknown)());
    case 'array':
      return fc.array(inner(def.element), { maxLength: 4 });
    case 'set':
      return fc.array(inner(def.valueType), { maxLength: 4 });
    case 'tuple':
      return fc.tuple(...(def.items as unknown[]).map(inner));
    case 'union':
      return fc.oneof(...(def.options as unknown[]).map(inner));
    case 'intersection':
      return fc
        .tuple(inner(def.left), inner(def.right))
        .map(([left, right]) => (typeof left === 'object' && left !== null && typeof right === 'object' && right !== null ? { ...left, ...right } : right));
    case 'record':
      return fc.dictionary(
        inner(def.keyType).filter((key): key is string => typeof key === 'string'),
        inner(def.valueType),
        { maxKeys: 4 },
      );
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      const required = Object.keys(shape).filter((key) => !['optional', 'default', 'prefault'].includes(defOf(shape[key]).type));
      return fc.record(Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, inner(value)])), { requiredKeys: required });
    }
    default:
      // any, unknown, transform, custom…: anything JSON can carry.
      return fc.jsonValue({ maxDepth: 2 });
  }
}
