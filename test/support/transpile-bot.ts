import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

// The bot's sources transpiled file by file into `outDir`, keeping the tree of src/ as `npm run build` keeps it in
// dist/ (ESM, no bundling, the same module graph and the same packages), in a fraction of tsc's time: the sources
// are checked by `npm run typecheck`, and the production build itself by test/integration/platform/start.test.ts.
// Beside it: node_modules (a link to the repository's) and a package.json that makes the .js files ESM.

export async function transpileBot(root: string, outDir: string): Promise<void> {
  const src = path.join(root, 'src');
  const entryPoints = (fs.readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => path.join(src, f));
  await build({
    entryPoints,
    outdir: outDir,
    outbase: src,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    logLevel: 'error',
  });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(outDir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ type: 'module' }));
}
