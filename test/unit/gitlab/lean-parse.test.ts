import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { leanParse } from '../../../src/gitlab/lean-parse.js';
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
