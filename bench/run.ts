// `npm run bench`: builds the bot (the side-by-side bench runs dist/main.js, as `npm start` does), then runs every
// benchmark in turn, each in its own process so that none warms up or slows down another. Prints one JSON object
// { <name>: <that benchmark's JSON>, targets: … } on stdout and a readable table on stderr. The machine's load
// average is part of the JSON: on a busy machine every figure is slower and noisier.
//
// BENCH_ONLY=parser,client runs a subset.

import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { formatTable, judge } from './table.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..');
const BENCHES = {
  parser: 'parser.ts',
  fuzz: 'fuzz.ts',
  client: 'client.ts',
  requests: 'requests.ts',
  side_by_side: 'side-by-side.ts',
  simulator: 'sim.ts',
  digests: 'digests.ts',
  watches: 'watches.ts',
  insights: 'insights.ts',
  alerts: 'alerts.ts',
  postgres: 'postgres.ts',
};
const only = process.env.BENCH_ONLY?.split(',').map((s) => s.trim());

const results: Record<string, unknown> = { load_average_at_start: os.loadavg().map((x) => Math.round(x * 100) / 100) };
if (!only || only.includes('side_by_side') || only.includes('postgres')) {
  process.stderr.write('bench: building dist/ (npm run build)\n');
  await run(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT });
}
for (const [name, file] of Object.entries(BENCHES)) {
  if (only && !only.includes(name)) continue;
  process.stderr.write(`bench: ${name}\n`);
  const child = run(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, file)], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  child.child.stderr?.pipe(process.stderr);
  const { stdout } = await child;
  const last = stdout.trim().split('\n').at(-1) ?? '{}';
  results[name] = JSON.parse(last);
}
results.load_average_at_end = os.loadavg().map((x) => Math.round(x * 100) / 100);
results.targets = judge(results);
console.log(JSON.stringify(results, null, 2));
process.stderr.write(`\n${formatTable(results)}\n`);
