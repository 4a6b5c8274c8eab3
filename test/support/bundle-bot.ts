import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

// The test run's build of the bot: each program the tests start as a process bundled into one file with its
// dependencies (esbuild), because a child that loads one file starts on much less CPU than one that resolves and
// loads the few hundred files of src/ and node_modules, and the tests start many children. It is NOT the production
// build: `npm run build` and `npm start` stay checked by test/integration/platform/start.test.ts and the contract
// check; the sources are checked by `npm run typecheck`.
// Kept out of the bundles: native addons (better-sqlite3 finds its compiled binding relative to its own files) and
// optional packages that are not installed (pg-native); they load from node_modules, a link beside the bundles
// (with a package.json that makes the .js files ESM). Bundled CommonJS packages get `require` from the banner.
// A module of src/ that read a file next to itself (import.meta.url) would look beside the bundle instead: none does,
// and one that starts to needs that file copied here, beside the bundle.

/**
 * The programs of src/ the tests start (named without the extension, as in src/), each a bundle at `<entry>.js`:
 * the bot, the simulator and demo console, db:copy, and store/open, which test scripts import
 * (test/support/built-entry.ts).
 */
export const BUNDLED_ENTRIES = ['main', 'sim/main', 'console/main', 'db-copy', 'store/open'] as const;

export type BundledEntry = (typeof BUNDLED_ENTRIES)[number];

export async function bundleBot(root: string, outDir: string): Promise<void> {
  await build({
    entryPoints: BUNDLED_ENTRIES.map((entry) => ({ in: path.join(root, 'src', `${entry}.ts`), out: entry })),
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    external: ['better-sqlite3', 'pg-native'],
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    logLevel: 'error',
  });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(outDir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ type: 'module' }));
}
