// `npm run build` (and so `npm start`): src/ transpiled file by file into dist/, ESM for Node, the same tree
// `node dist/main.js` and `node dist/db-copy.js` run from. Types are not checked here: `npm run typecheck` checks
// them (`npm test` runs it, and the Dockerfile runs it before this), and this stays a second or two, not a whole
// compile every start. Plain JavaScript, so it runs on Node alone, before anything is built.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
const outDir = path.join(root, 'dist');

// The simulator and the demo console run from source (`npm run sim`, `npm run demo`); nothing the bot runs
// imports them, so they stay out of dist/ and out of the image.
const SOURCE_ONLY = new Set(['sim', 'console']);

const entryPoints = fs
  .readdirSync(src, { recursive: true })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .filter((file) => !SOURCE_ONLY.has(file.split(path.sep)[0]))
  .map((file) => path.join(src, file));

// Whatever an earlier build left (a source since removed or moved) must not stay importable.
fs.rmSync(outDir, { recursive: true, force: true });

try {
  buildSync({
    entryPoints,
    outdir: outDir,
    outbase: src,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'warning',
  });
} catch {
  // esbuild has already printed each error with its file and line.
  process.exitCode = 1;
}
