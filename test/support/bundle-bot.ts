import fs from 'node:fs';
import path from 'node:path';
import { bundleEntries } from '../../scripts/bundle.mjs';

// The test run's build of the bot: each program the tests start as a process bundled into one file with its
// dependencies, with the same configuration as `npm run build` (scripts/bundle.mjs), because a child that loads one
// file starts on much less CPU than one that resolves and loads the few hundred files of src/ and node_modules, and
// the tests start many children. It bundles more programs than `npm run build` (the simulator, the demo console,
// store/open) into a directory of its own; `npm run build` and `npm start` stay checked by
// test/integration/platform/start.test.ts and the contract check; the sources are checked by `npm run typecheck`.
// The packages kept out of the bundles load from node_modules, a link beside the bundles (with a package.json that
// makes the .js files ESM).

/**
 * The programs of src/ the tests start (named without the extension, as in src/), each a bundle at `<entry>.js`:
 * the bot, the simulator and demo console, db:copy, and store/open, which test scripts import
 * (test/support/built-entry.ts).
 */
export const BUNDLED_ENTRIES = ['main', 'sim/main', 'console/main', 'db-copy', 'store/open'] as const;

export type BundledEntry = (typeof BUNDLED_ENTRIES)[number];

export async function bundleBot(root: string, outDir: string): Promise<void> {
  await bundleEntries({ root, outDir, entries: BUNDLED_ENTRIES });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(outDir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ type: 'module' }));
}
