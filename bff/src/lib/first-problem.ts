import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { safeParse, type $ZodIssue, type $ZodType } from 'zod/v4/core';

/**
 * Request validation that stops after a few bad values. Zod describes every bad value of an input
 * before it answers, each with its message and path: a 24 KB checkout of empty strings is 3,000
 * of them and 50–250 ms of event loop, and the schemas allow some 13,000 (issue 31, found by the
 * event-loop budget of test/fuzz.test.ts). So objects and arrays are walked first, each leaf
 * checked on its own, and the first MOST_PROBLEMS bad leaves (an array past its maximum length is
 * one, its items unread) are the answer; only an input with no bad leaf goes through the whole
 * schema (object refinements, unknown keys, transforms, defaults).
 */

/** The marker fastify-type-provider-zod puts on its validation errors (Symbol.for: the same symbol). */
const ZOD_FASTIFY_ERROR = Symbol.for('ZodFastifySchemaValidationError');

interface Def {
  type: string;
  shape?: Record<string, $ZodType>;
  element?: $ZodType;
  innerType?: $ZodType;
  checks?: { _zod: { def: { check?: string; maximum?: number } } }[];
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether values of `schema` are plain (strings, numbers, enums…), not containers whose parts are walked. */
function isLeaf(schema: $ZodType): boolean {
  const def = defOf(schema);
  if (['optional', 'nullable', 'default', 'prefault'].includes(def.type)) return def.innerType ? isLeaf(def.innerType) : true;
  return !['object', 'array', 'set', 'record', 'tuple', 'union', 'intersection', 'lazy', 'pipe', 'map'].includes(def.type);
}

function maxLengthOf(def: Def): number | undefined {
  const limits = (def.checks ?? []).map((check) => check._zod.def).filter((check) => check.check === 'max_length' || check.check === 'length_equals');
  return limits.length > 0 ? Math.min(...limits.map((check) => Number(check.maximum ?? Infinity))) : undefined;
}

/** The most problems the walk collects before it stops (the answer names at most this many). */
export const MOST_PROBLEMS = 10;

/**
 * The problems of `value` against `schema`, found leaf by leaf in the schema's order and at most
 * `limit` of them, their paths from the input's root; [] when every leaf is good.
 */
export function leafProblems(schema: $ZodType, value: unknown, limit = MOST_PROBLEMS): $ZodIssue[] {
  const found: $ZodIssue[] = [];
  walk(schema, value, [], found, limit);
  return found;
}

/** Adds the problems of `value` to `found`; true once `found` is full. */
function walk(schema: $ZodType, value: unknown, path: PropertyKey[], found: $ZodIssue[], limit: number): boolean {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      if (!isPlainObject(value) || !def.shape) break;
      for (const key of Object.keys(def.shape)) if (walk(def.shape[key] as $ZodType, value[key], [...path, key], found, limit)) return true;
      return false;
    case 'array': {
      if (!Array.isArray(value) || !def.element) break;
      const max = maxLengthOf(def);
      // Past its maximum: the length is the problem, not the items (none beyond it is read).
      if (max !== undefined && value.length > max) return add(schema, value.slice(0, max + 1), path, found, limit);
      // Items that are plain values (250 domains): one call for the whole array when it is good,
      // which a valid input nearly always is; item by item only when it is not (at most `max` issues).
      if (isLeaf(def.element) && safeParse(schema, value).success) return false;
      for (let index = 0; index < value.length; index += 1) if (walk(def.element, value[index], [...path, index], found, limit)) return true;
      return false;
    }
    case 'optional':
    case 'default':
    case 'prefault':
      if (value === undefined || !def.innerType) return false;
      return walk(def.innerType, value, path, found, limit);
    case 'nullable':
      if (value === null || !def.innerType) return false;
      return walk(def.innerType, value, path, found, limit);
    default:
      break;
  }
  return add(schema, value, path, found, limit);
}

function add(schema: $ZodType, value: unknown, path: PropertyKey[], found: $ZodIssue[], limit: number): boolean {
  const result = safeParse(schema, value);
  if (!result.success) {
    for (const issue of result.error.issues.slice(0, limit - found.length)) found.push({ ...issue, path: [...path, ...issue.path] } as $ZodIssue);
  }
  return found.length >= limit;
}

/** As fastify-type-provider-zod reports a failed validation, so the error handler reads it the same way. */
function validationError(issues: $ZodIssue[]) {
  return issues.map((issue) => ({
    [ZOD_FASTIFY_ERROR]: true,
    keyword: issue.code,
    instancePath: `/${issue.path.join('/')}`,
    schemaPath: `#/${issue.path.join('/')}/${issue.code}`,
    message: issue.message,
    params: {},
  }));
}

/** Below this many values an input cannot cost zod much even when every one is bad: it is not walked first. */
const FEW_VALUES = 500;

/** Whether `value` holds more than `limit` values (counted, not parsed; stops at the limit). */
export function holdsMoreValues(value: unknown, limit = FEW_VALUES): boolean {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    count += 1;
    if (count > limit) return true;
    if (Array.isArray(next)) stack.push(...next.slice(0, limit));
    else if (isPlainObject(next)) stack.push(...Object.values(next).slice(0, limit));
  }
  return false;
}

/** fastify-type-provider-zod's validatorCompiler, after the walk that stops at the tenth bad leaf (for inputs of many values). */
export const firstProblemValidatorCompiler: FastifySchemaCompiler<$ZodType> = (route) => {
  const whole = zodValidatorCompiler(route as never) as (data: unknown) => unknown;
  const schema = route.schema;
  return (data: unknown) => {
    const problems = '_zod' in (schema as object) && holdsMoreValues(data) ? leafProblems(schema, data) : [];
    if (problems.length > 0) return { error: validationError(problems) as never };
    return whole(data) as never;
  };
};
