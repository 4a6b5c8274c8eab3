// The one esbuild configuration the bot is bundled with: by `npm run build` (scripts/build.mjs, what `npm start`
// and the Dockerfile run) and by the test run's build (test/support/bundle-bot.ts). Plain JavaScript, so it runs on
// Node alone, before anything is built.
//
// Each program is one ESM file with the sources and the pure-JavaScript dependencies it reaches (tree-shaken):
// the process then loads and keeps only the code it uses, not the few hundred files of src/ and node_modules (nor,
// for instance, every locale zod's package entry imports).
// Kept out of the bundles: native addons (better-sqlite3 and @resvg/resvg-js find their compiled binding relative to
// their own files), optional packages that are not installed (pg-native) and echarts, which the insights chart loads
// only when it draws one (megabytes a process that never draws need not parse); they load from the node_modules the
// bundle's directory resolves to. Bundled CommonJS packages get `require` from the banner.
// A module of src/ that read a file next to itself (import.meta.url) would look beside the bundle instead: none does,
// and one that starts to needs that file copied beside the bundle.
import path from 'node:path';
import { build } from 'esbuild';

/** Packages loaded from node_modules at run time rather than bundled. */
export const EXTERNAL = ['better-sqlite3', 'pg-native', '@resvg/resvg-js', 'echarts'];

/**
 * Bundles each entry (a path under src/ without the extension, e.g. 'main' or 'sim/main') into `<outDir>/<entry>.js`.
 * `sourcemap: true` writes `<entry>.js.map` beside each bundle (no sources inside: they are in src/).
 */
export async function bundleEntries({ root, outDir, entries, sourcemap = false, logLevel = 'error' }) {
  await build({
    entryPoints: entries.map((entry) => ({ in: path.join(root, 'src', `${entry}.ts`), out: entry })),
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    tsconfig: path.join(root, 'tsconfig.json'),
    external: EXTERNAL,
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
    // Whitespace and syntax only: names stay, so a stack trace still says which function it passed through.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: sourcemap ? 'linked' : false,
    sourcesContent: false,
    logLevel,
  });
}
