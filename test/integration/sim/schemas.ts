// GitLab's own response schemas (../shared/conformance/gitlab-api-v4/schemas),
// loaded into Ajv the way GitLab's validator (the Ruby json-schema gem) reads
// them: its non-standard `date` and `uri` types accept any value, so they are
// dropped before compiling, and unknown keywords are ignored.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';

export const SCHEMA_ROOT = path.resolve(import.meta.dirname, '../../..', '../shared/conformance/gitlab-api-v4/schemas');
const BASE = 'https://schemas.gitlab.local/';

/** A schema as GitLab's validator reads it; `fields` marks a `properties` map, whose keys are field names. */
function loosen(node: unknown, fields = false): unknown {
  if (Array.isArray(node)) return node.map((x) => loosen(x));
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (fields) {
      out[k] = loosen(v);
      continue;
    }
    // upstream merge_request.json nests its field map one level too deep, so a field named `id`
    // lands where draft-04 expects the schema's own id; GitLab's validator ignores it, and so do we
    if (k === 'id' && typeof v !== 'string') continue;
    if (k === 'type') {
      const types = Array.isArray(v) ? v : [v];
      if (types.some((t) => t === 'date' || t === 'uri')) continue;
    }
    out[k] = loosen(v, k === 'properties');
  }
  return out;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.json') ? [full] : [];
  });
}

export function loadSchemas() {
  const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
  const all = files(SCHEMA_ROOT).map((f) => path.relative(SCHEMA_ROOT, f).split(path.sep).join('/'));
  for (const rel of all) {
    const schema = loosen(JSON.parse(readFileSync(path.join(SCHEMA_ROOT, rel), 'utf8'))) as Record<string, unknown>;
    ajv.addSchema({ ...schema, $id: `${BASE}${rel}` });
  }
  const cache = new Map<string, ValidateFunction>();
  return {
    /** every schema file, relative to the schemas folder */
    all,
    validator(rel: string): ValidateFunction {
      let v = cache.get(rel);
      if (!v) {
        v = ajv.getSchema(`${BASE}${rel}`);
        if (!v) throw new Error(`no schema ${rel}`);
        cache.set(rel, v);
      }
      return v;
    },
    /** null when the data is valid, else Ajv's errors as text */
    check(rel: string, data: unknown): string | null {
      const v = this.validator(rel);
      return v(data) ? null : ajv.errorsText(v.errors);
    },
  };
}
