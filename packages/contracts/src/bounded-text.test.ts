import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every text a request carries is refused at its length limit before anything else reads it: a
 * zod string check keeps running after a failed one unless that one aborts, so a pattern or a
 * refinement after a plain `maxLength` read the whole of a 15 KB query value (a pattern that is
 * quadratic on it stalled the bff for half a second). This walks every schema the contracts and
 * the catalog export, and fails on a string schema that runs a pattern, a format or a refinement
 * without an aborting length limit before it (`maxLength(n, { error, abort: true })`).
 */

type Check = { _zod: { def: { check: string; format?: string; abort?: boolean } } };
type Def = { type: string; checks?: Check[]; [key: string]: unknown };
type Schema = { _zod: { def: Def } };

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && '_zod' in value && typeof (value as Schema)._zod?.def?.type === 'string';

/** The schemas a schema holds, each with where it is: object fields, array items, union options, wrapped and piped schemas. */
function innerSchemas(def: Def): [string, unknown][] {
  const inner: [string, unknown][] = [];
  for (const key of ['innerType', 'in', 'out', 'left', 'right', 'keyType', 'valueType', 'rest', 'catchall']) inner.push(['', def[key]]);
  inner.push(['[]', def.element]);
  if (def.shape && typeof def.shape === 'object') inner.push(...Object.entries(def.shape as object).map(([key, value]): [string, unknown] => [`.${key}`, value]));
  for (const key of ['options', 'items']) if (Array.isArray(def[key])) inner.push(...(def[key] as unknown[]).map((value, index): [string, unknown] => [`|${index}`, value]));
  return inner;
}

/** What a check reads beyond the length: a pattern, a format (email, url…), a refinement. */
const readsText = (check: Check) => !['max_length', 'min_length', 'length_equals', 'overwrite'].includes(check._zod.def.check);

function unboundedStrings(schema: Schema, path: string, seen: Set<Schema>, found: string[]) {
  if (seen.has(schema)) return;
  seen.add(schema);
  const { def } = schema._zod;
  if (def.type === 'string') {
    const checks = def.checks ?? [];
    const firstReader = checks.findIndex(readsText);
    const limit = checks.findIndex((check) => check._zod.def.check === 'max_length' && check._zod.def.abort === true);
    if (firstReader >= 0 && (limit < 0 || limit > firstReader)) found.push(`${path} (${checks[firstReader]?._zod.def.format ?? checks[firstReader]?._zod.def.check})`);
  }
  for (const [where, inner] of innerSchemas(def)) if (isSchema(inner)) unboundedStrings(inner, path + where, seen, found);
}

const SOURCES = [join(__dirname), join(__dirname, '../../catalog/src')];

async function exportedSchemas(): Promise<[string, Schema][]> {
  const schemas: [string, Schema][] = [];
  for (const folder of SOURCES) {
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))) {
      const module = (await import(join(folder, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) if (isSchema(value)) schemas.push([`${file}: ${name}`, value]);
    }
  }
  return schemas;
}

describe('text in requests', () => {
  let schemas: [string, Schema][] = [];
  beforeAll(async () => {
    schemas = await exportedSchemas();
  });

  it('finds the schemas it judges', () => {
    expect(schemas.map(([name]) => name)).toEqual(expect.arrayContaining(['tools.ts: SpfToolQuery', 'auth.ts: SignUpRequest', 'monitors.ts: MonitorCreateRequest']));
  });

  it('is refused at its length limit before a pattern, format or refinement reads it', () => {
    const found: string[] = [];
    const seen = new Set<Schema>();
    for (const [name, schema] of schemas) unboundedStrings(schema, name, seen, found);
    expect(found).toEqual([]);
  });
});
