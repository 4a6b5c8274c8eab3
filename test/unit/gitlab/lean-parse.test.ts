import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkInPlace, leanParse } from '../../../src/gitlab/lean-parse.js';
import * as schemas from '../../../src/gitlab/schemas.js';

// The lean parser must give exactly zod's result (values, keys and their order) whenever it gives one, and give
// none where zod refuses: every schema of the contract against every example body, and each body with one field at
// a time removed or turned into something else against the schemas that fit the body.

const examplesDir = path.resolve(
  fileURLToPath(new URL('../../../', import.meta.url)),
  '..',
  'shared',
  'conformance',
  'gitlab-api-v4',
  'examples',
);
const bodies: unknown[] = readdirSync(examplesDir).flatMap((dir) =>
  readdirSync(path.join(examplesDir, dir))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path.join(examplesDir, dir, f), 'utf8')) as unknown),
);
const objectSchemas: [string, z.ZodType][] = Object.entries(schemas as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);

/** The body, then the body with each field (at any depth) removed or replaced by each odd value in turn. */
function* variants(body: unknown): Generator<unknown> {
  yield body;
  const odd = [null, undefined, 'text', 1.5, true, {}];
  function* at(value: unknown, replace: (v: unknown) => unknown): Generator<unknown> {
    if (Array.isArray(value)) {
      for (let i = 0; i < Math.min(value.length, 2); i++)
        yield* at(value[i], (v) => replace(value.map((x, j) => (j === i ? v : x))));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const key of Object.keys(value)) {
      const { [key]: _dropped, ...rest } = value as Record<string, unknown>;
      yield replace(rest);
      for (const v of odd) yield replace({ ...value, [key]: v });
      yield* at((value as Record<string, unknown>)[key], (v) => replace({ ...value, [key]: v }));
    }
  }
  yield* at(body, (v) => v);
}

const sameAsZod = (schema: z.ZodType, value: unknown) => {
  const lean = leanParse(schema, value);
  const zod = schema.safeParse(value);
  if (!lean) return zod.success ? 'zod' : 'refused';
  // Thousands of comparisons: node's strict deep equality (own keys, undefined ones too), then the keys' order.
  if (!zod.success || !isDeepStrictEqual(lean.data, zod.data) || JSON.stringify(lean.data) !== JSON.stringify(zod.data))
    expect({ value, lean: lean.data }).toStrictEqual({ value, lean: zod.data });
  return 'lean';
};

describe('leanParse', () => {
  it('builds the job list zod builds, without zod', () => {
    const body = JSON.parse(
      readFileSync(path.join(examplesDir, 'jobs', '01-get-list-project-jobs.json'), 'utf8'),
    ) as unknown[];
    const list = z.array(schemas.JobSchema);
    expect(sameAsZod(list, body)).toBe('lean');
    // Unknown keys are left out, as zod leaves them out.
    expect(leanParse(list, body)?.data[0]).not.toHaveProperty('allow_failure');
  });

  it('fills a default for a missing key and keeps an optional one missing', () => {
    const schema = z.object({ a: z.int(), b: z.string().nullable().default(null), c: z.string().optional() });
    expect(leanParse(schema, { a: 1, x: 2 })?.data).toStrictEqual({ a: 1, b: null });
    expect(leanParse(schema, { a: 1.5 })).toBeNull();
    expect(leanParse(schema, { b: 'x' })).toBeNull();
  });

  it('leaves to zod the schemas it does not know', () => {
    expect(leanParse(z.string().min(2), 'ab')).toBeNull();
    expect(leanParse(z.enum(['a', 'b']), 'a')).toBeNull();
    expect(leanParse(z.looseObject({ a: z.string() }), { a: 'x' })).toBeNull();
  });

  it('agrees with zod on every example body for every schema, and on every variant for the schemas it fits', () => {
    let lean = 0;
    for (const body of bodies) {
      const item = Array.isArray(body) ? body[0] : body;
      const fitting = objectSchemas.map(([, schema]) => schema).filter((schema) => sameAsZod(schema, item) === 'lean');
      for (const schema of fitting) if (Array.isArray(body)) sameAsZod(z.array(schema), body);
      for (const value of variants(item)) {
        for (const schema of fitting) if (sameAsZod(schema, value) === 'lean') lean++;
      }
    }
    expect(lean).toBeGreaterThan(100);
  });
});

/** The value cut down to the keys zod's result has, at every depth: what a reader of the schema's fields sees. */
function asZodSees(value: unknown, zod: unknown): unknown {
  if (Array.isArray(zod) && Array.isArray(value)) return value.map((v, i) => asZodSees(v, zod[i]));
  if (typeof zod !== 'object' || zod === null || typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(zod))
    out[key] = asZodSees((value as Record<string, unknown>)[key], (zod as Record<string, unknown>)[key]);
  return out;
}

/** checkInPlace's verdict next to zod's: the same yes or no, and on a yes the same fields in the value itself. */
const checkedAsZod = (schema: z.ZodType, value: unknown) => {
  const before = structuredClone(value);
  const checked = checkInPlace(schema, value);
  const zod = schema.safeParse(before);
  if (!checked) {
    // No verdict leaves the value as it came; zod decides (and must not be the one that accepts what a check refused
    // for a schema the checker knows: sameAsZod below holds the lean parser, which shares its verdicts, to that).
    expect(value).toStrictEqual(before);
    return zod.success ? 'zod' : 'refused';
  }
  expect(checked.data).toBe(value);
  if (!zod.success || !isDeepStrictEqual(asZodSees(checked.data, zod.data), zod.data))
    expect({ before, checked: asZodSees(checked.data, zod.success ? zod.data : null) }).toStrictEqual({
      before,
      checked: zod.data,
    });
  return 'checked';
};

describe('checkInPlace', () => {
  it('accepts the job list zod accepts, as it is: unknown keys stay, the missing default is filled', () => {
    const body = JSON.parse(
      readFileSync(path.join(examplesDir, 'jobs', '01-get-list-project-jobs.json'), 'utf8'),
    ) as Record<string, unknown>[];
    const list = z.array(schemas.JobSchema);
    delete body[1]?.artifacts_file;
    (body[0] as Record<string, unknown>).allow_failure = false;
    expect(checkedAsZod(list, body)).toBe('checked');
    expect(body[0]).toHaveProperty('allow_failure', false);
    expect(body[1]).toHaveProperty('artifacts_file', null);
  });

  it('gives no verdict on what zod refuses, and changes nothing then', () => {
    const schema = z.object({ a: z.int(), b: z.string().nullable().default(null), c: z.string().optional() });
    const value = { a: 1.5 };
    expect(checkInPlace(schema, value)).toBeNull();
    expect(value).toStrictEqual({ a: 1.5 });
    expect(checkInPlace(schema, { b: 'x' })).toBeNull();
    expect(checkInPlace(schema, [{ a: 1 }])).toBeNull();
    expect(checkInPlace(z.array(schema), [{ a: 1 }, { a: 'x' }])).toBeNull();
    expect(checkInPlace(z.string().min(2), 'ab')).toBeNull();
    expect(checkInPlace(z.object({ a: z.string().default('x').nullable() }), { a: null })).toBeNull();
  });

  it('agrees with zod on every example body for every schema, and on every variant for the schemas it fits', () => {
    const counts = { checked: 0, refused: 0 };
    // Per schema: whether it ever gave a verdict, and whether zod ever had to accept what it left without one.
    const known = new Set<z.ZodType>();
    const leftToZod = new Set<z.ZodType>();
    const tally = (schema: z.ZodType, value: unknown) => {
      const outcome = checkedAsZod(schema, value);
      if (outcome === 'zod') leftToZod.add(schema);
      else counts[outcome]++;
      if (outcome === 'checked') known.add(schema);
    };
    for (const body of bodies) {
      const item = Array.isArray(body) ? body[0] : body;
      const fitting = objectSchemas.map(([, schema]) => schema).filter((schema) => schema.safeParse(item).success);
      for (const [, schema] of objectSchemas) tally(schema, structuredClone(item));
      if (Array.isArray(body)) for (const schema of fitting) tally(z.array(schema), structuredClone(body));
      for (const value of variants(item)) for (const schema of fitting) tally(schema, structuredClone(value));
    }
    // A schema the checker knows never leaves zod to accept what it did not: the same yes and the same no.
    expect([...known].filter((schema) => leftToZod.has(schema))).toEqual([]);
    expect(known.has(schemas.JobSchema)).toBe(true);
    expect(counts.checked).toBeGreaterThan(100);
    expect(counts.refused).toBeGreaterThan(1000);
  });
});
