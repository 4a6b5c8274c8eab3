import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// A bot on SQLite (the embedded default) never loads the PostgreSQL client: it is imported only when DATABASE_URL
// is set (src/store/open.ts). What main.ts reaches through static imports is what every bot keeps in memory.

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../src');

/** Every module main.ts reaches through static imports (type-only imports left out), and the packages they name. */
function staticGraph(entry: string) {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (modules.has(file)) return;
    modules.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'|^import\s+'([^']+)'/gm)) {
      const spec = (m[1] ?? m[2]) as string;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else if (!spec.startsWith('node:')) packages.add(spec);
    }
  };
  visit(path.join(src, entry));
  return { modules: [...modules].map((f) => path.relative(src, f)), packages };
}

describe('what a bot loads at start', () => {
  it('leaves the PostgreSQL client out of the static imports of main.ts', () => {
    const { modules, packages } = staticGraph('main.ts');
    expect(modules).toContain('store/open.ts');
    expect(modules).toContain('store/database.ts');
    expect(modules).not.toContain('store/postgres-engine.ts');
    expect(packages.has('pg')).toBe(false);
    expect(packages.has('better-sqlite3')).toBe(true);
  });
});
