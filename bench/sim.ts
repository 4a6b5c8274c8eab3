// How fast the simulator answers, so it is never the bottleneck of another
// benchmark: requests per second for a single-job read and for a 20-item job
// list, measured from a separate load-generator process with keep-alive
// connections. Targets (issue 5): 5,000 and 1,000 per second on one core.
// Prints one JSON object.

import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSimulator } from '../src/sim/index.js';

const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TOKEN = 'sim-alice-token';
const TARGETS = { singleJob: 5_000, list20: 1_000 };

interface LoadResult {
  requests: number;
  failed: number;
  seconds: number;
  rps: number;
  concurrency: number;
}

async function load(url: string): Promise<LoadResult> {
  const script = path.join(import.meta.dirname, 'sim-load.ts');
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', script, url, TOKEN, String(SECONDS), String(CONCURRENCY)],
    {
      cwd: path.resolve(import.meta.dirname, '..'),
    },
  );
  return JSON.parse(stdout) as LoadResult;
}

const sim = await startSimulator({ port: 0 });
try {
  const list = await fetch(`${sim.url}/api/v4/projects/demo%2Fweb/jobs?per_page=20`, {
    headers: { 'PRIVATE-TOKEN': TOKEN },
  });
  const jobs = (await list.json()) as { id: number }[];
  const jobId = jobs.find(Boolean)?.id;
  if (list.status !== 200 || jobs.length !== 20 || jobId === undefined)
    throw new Error(`unexpected list answer ${list.status}`);
  const single = await load(`${sim.url}/api/v4/projects/demo%2Fweb/jobs/${jobId}`);
  const list20 = await load(`${sim.url}/api/v4/projects/demo%2Fweb/jobs?per_page=20`);
  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'simulator',
      node: process.version,
      cpus: os.cpus().length,
      single_job_read: single,
      list_20_jobs: list20,
      targets_rps: TARGETS,
      meets_targets: single.rps >= TARGETS.singleJob && list20.rps >= TARGETS.list20,
    })}\n`,
  );
} finally {
  await sim.close();
}
