/** Packages loaded from node_modules at run time rather than bundled. */
export declare const EXTERNAL: string[];

/** Bundles each entry (a path under src/ without the extension) into `<outDir>/<entry>.js` (scripts/bundle.mjs). */
export declare function bundleEntries(options: {
  root: string;
  outDir: string;
  entries: readonly string[];
  sourcemap?: boolean;
  logLevel?: 'silent' | 'error' | 'warning' | 'info';
}): Promise<void>;
