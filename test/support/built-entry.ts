import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { inject } from 'vitest';
import type { BundledEntry } from './bundle-bot.js';

// Entry points of src/ (the demo console, the simulator) and small test scripts started as processes from the
// test run's one build of the bot (test/support/build-global.ts: a bundle per entry) instead of through tsx, which
// transpiles every source file again at each start. Tests of what a newcomer types (`npm run demo`, `npm run sim`)
// keep one case that goes through tsx as the package scripts do (`from: 'sources'`).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type StartFrom = 'build' | 'sources';

/** The run's build directory, or undefined outside a vitest run with the build's global setup. */
function buildDir(): string | undefined {
  try {
    return inject('botBuildDir') || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Node's arguments that run `entry`, a file of src/ named without its extension ('console/main'): its bundle in
 * the run's build, or the .ts through tsx when `from` is 'sources' or there is no build. Run them with cwd set to
 * the repository's root.
 */
export function entryArgs(entry: BundledEntry, from: StartFrom = 'build'): string[] {
  const dir = from === 'build' ? buildDir() : undefined;
  return dir ? [path.join(dir, `${entry}.js`)] : ['--import', 'tsx', path.join(root, 'src', `${entry}.ts`)];
}

/**
 * Node's arguments and environment that run `script`, a test script (.ts) that imports one module of src/ through
 * `import(process.env[variable] ?? '<its path in src/>')`: the script transpiled alone into `tmpDir`, importing
 * `module` ('store/open') from the run's build; through tsx on the sources when there is no build.
 * ONE module: each bundle carries its own copy of the modules it uses, so two bundles imported by one script would
 * not share their state or their classes (an `instanceof` across them fails). A script that needs more of src/
 * imports one entry of the build that exports all of it (test/support/bundle-bot.ts, BUNDLED_ENTRIES).
 */
export function scriptArgs(
  script: string,
  o: { variable: string; module: BundledEntry; tmpDir: string },
): { args: string[]; env: Record<string, string> } {
  const dir = buildDir();
  if (!dir) return { args: ['--import', 'tsx', script], env: {} };
  const { code } = transformSync(fs.readFileSync(script, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
  const out = path.join(o.tmpDir, `${path.basename(script, '.ts')}.mjs`);
  fs.writeFileSync(out, code);
  return { args: [out], env: { [o.variable]: pathToFileURL(path.join(dir, `${o.module}.js`)).href } };
}
