/**
 * The largest values a route's zod schema allows (issue 31's event-loop budget): every string at
 * its maximum length, filled by `fill` (a repeated token that makes a backtracking parser go
 * quadratic, or a hostile DNS name), every array at its maximum length, every optional field
 * present, every number at its maximum. Or, with `manySmall`, arrays at their maximum length of the
 * smallest items. Read from `_zod.def` as zod-arbitrary.ts reads it; deterministic.
 */

interface Def {
  type: string;
  [key: string]: unknown;
}
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def): Def[] => ((def.checks as { _zod: { def: Def } }[] | undefined) ?? []).map((check) => check._zod.def);
const isSchema = (value: unknown) => typeof value === 'object' && value !== null && '_zod' in value;

/** A string's limits and format, from its checks. */
export interface StringShape {
  minLength: number;
  maxLength: number;
  format?: string;
  /** The path of the value in the input (`domains.3`, `details.logoSvg`), for fills that choose by name. */
  path: string;
}

export interface LargestOptions {
  /** The text of a string of this shape. */
  fill: (shape: StringShape) => string;
  /** Arrays of the smallest items instead of the largest. */
  manySmall?: boolean;
  /**
   * The most characters the whole value may take as JSON: what can reach the server at all (a
   * body past the route's limit, 1 MB at most, is refused by its length before it is read; a URL
   * past Node's 16 KB of headers never arrives). Strings and arrays stop there.
   */
  budget: number;
  /**
   * Strings past their maximum length (forty times it, 4 KB at least, within the budget): what a
   * schema refuses, but only after any check that does not stop at the failed limit has read it.
   */
  overLimits?: boolean;
}

/** Characters of a string past its limit (`overLimits`). */
const overLimit = (maxLength: number) => Math.max(4096, Math.min(maxLength, UNBOUNDED_STRING) * 40);

/** Strings and arrays without a maximum get this many characters or items. */
const UNBOUNDED_STRING = 64 * 1024;
const UNBOUNDED_ARRAY = 1000;
/** The most items an array is filled with, whatever its maximum (bodies are capped at 1 MB anyway). */
const MOST_ITEMS = 2000;
const MAX_DEPTH = 8;

function stringShape(def: Def, path: string): StringShape {
  const shape: StringShape = { minLength: 0, maxLength: UNBOUNDED_STRING, path };
  for (const check of [def, ...checksOf(def)]) {
    if (check.check === 'min_length') shape.minLength = Math.max(shape.minLength, Number(check.minimum));
    if (check.check === 'max_length') shape.maxLength = Math.min(shape.maxLength, Number(check.maximum));
    if (check.check === 'length_equals') shape.minLength = shape.maxLength = Number(check.length);
    if (typeof check.format === 'string') shape.format = check.format;
  }
  return shape;
}

function arrayLimits(def: Def): { min: number; max: number } {
  let min = 0;
  let max = UNBOUNDED_ARRAY;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') min = Number(check.minimum);
    if (check.check === 'max_length') max = Number(check.maximum);
    if (check.check === 'length_equals') min = max = Number(check.length);
  }
  return { min, max: Math.min(max, MOST_ITEMS) };
}

function largestNumber(def: Def): number {
  let max = 1_000_000_000;
  for (const check of [def, ...checksOf(def)]) if (check.check === 'less_than') max = Number(check.value) - (check.inclusive ? 0 : 1);
  return max;
}

/** The largest value `schema` allows, as `options` fill it. */
export function largestFor(schema: unknown, options: LargestOptions, path = '', depth = 0): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return options.fill({ minLength: 0, maxLength: UNBOUNDED_STRING, path });
  const def = defOf(schema);
  const inner = (next: unknown, at = path) => largestFor(next, options, at, depth + 1);
  switch (def.type) {
    case 'string': {
      const shape = stringShape(def, path);
      const length = options.overLimits ? overLimit(shape.maxLength) : shape.maxLength;
      return options.fill({ ...shape, maxLength: Math.max(shape.minLength, Math.min(length, options.budget)) });
    }
    case 'number':
    case 'int':
      return largestNumber(def);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'enum': {
      const values = Object.values(def.entries as Record<string, string | number>);
      return values[values.length - 1];
    }
    case 'literal':
      return (def.values as unknown[])[0];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner(def.innerType);
    case 'pipe':
      return inner(def.in);
    case 'lazy':
      return inner((def.getter as () => unknown)());
    case 'array':
    case 'set': {
      const { min, max } = arrayLimits(def);
      const element = def.type === 'array' ? def.element : def.valueType;
      const one = options.manySmall ? smallestFor(element, `${path}.0`) : inner(element, `${path}.0`);
      // As many as the schema allows and the budget holds (one item's size decides: they are alike).
      const count = Math.max(min, Math.min(max, Math.floor(options.budget / ((JSON.stringify(one) ?? '').length + 1))));
      if (options.manySmall) return Array.from({ length: count }, (_, index) => smallestFor(element, `${path}.${index}`));
      return Array.from({ length: count }, (_, index) => (index === 0 ? one : inner(element, `${path}.${index}`)));
    }
    case 'tuple':
      return (def.items as unknown[]).map((item, index) => inner(item, `${path}.${index}`));
    case 'union':
      return inner((def.options as unknown[])[0]);
    case 'intersection':
      return { ...(inner(def.left) as object), ...(inner(def.right) as object) };
    case 'record':
      return Object.fromEntries(
        Array.from({ length: options.manySmall ? UNBOUNDED_ARRAY : 16 }, (_, index) => [
          `k${index}`,
          largestFor(def.valueType, { ...options, budget: options.budget / 16 }, `${path}.k${index}`, depth + 1),
        ]),
      );
    case 'object': {
      // The budget shared among the fields: a form of many long fields still fits its limit.
      const shape = def.shape as Record<string, unknown>;
      const share = { ...options, budget: Math.floor(options.budget / Math.max(1, Object.keys(shape).length)) };
      return Object.fromEntries(Object.entries(shape).map(([key, value]) => [key, largestFor(value, share, path ? `${path}.${key}` : key, depth + 1)]));
    }
    default:
      return options.fill({ minLength: 0, maxLength: UNBOUNDED_STRING, path });
  }
}

/** The smallest value: strings at their minimum length of `a`, arrays empty, objects with every key. */
function smallestFor(schema: unknown, path: string, depth = 0): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return '';
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return 'a'.repeat(stringShape(def, path).minLength);
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([key, value]) => [key, smallestFor(value, `${path}.${key}`, depth + 1)]));
    case 'array':
    case 'set':
      return [];
    default:
      return largestFor(schema, { fill: () => '', budget: 1024 }, path, depth);
  }
}

/** `unit` repeated to exactly `length` characters. */
export function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}
