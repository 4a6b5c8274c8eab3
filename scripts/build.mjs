// `npm run build` (and so `npm start`, and the Dockerfile): each program the image runs bundled into dist/ with the
// sources and pure-JavaScript dependencies it reaches (scripts/bundle.mjs, the configuration the tests' build uses
// too): `node dist/main.js` (the bot) and `node dist/db-copy.js`. A bundle loads only the code it uses, once, so the
// bot starts with a smaller heap than the same code as a tree of files. Native and optional packages stay in
// node_modules, which dist/ resolves to beside it. A source map beside each bundle maps it back to src/
// (`node --enable-source-maps dist/main.js`). Types are not checked here: `npm run typecheck` checks them (`npm test`
// runs it, and the Dockerfile runs it before this), and this stays a second or two, not a whole compile every start.
// Plain JavaScript, so it runs on Node alone, before anything is built.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEntries } from './bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'dist');

// The simulator and the demo console run from source (`npm run sim`, `npm run demo`); nothing the bot runs
// imports them, so they stay out of dist/ and out of the image.
const PROGRAMS = ['main', 'db-copy'];

// Whatever an earlier build left (a source since removed or moved) must not stay importable.
fs.rmSync(outDir, { recursive: true, force: true });

try {
  await bundleEntries({ root, outDir, entries: PROGRAMS, sourcemap: true, logLevel: 'warning' });
} catch {
  // esbuild has already printed each error with its file and line.
  process.exitCode = 1;
}
