// The bot's Delivery Service client next to @gitbeaker/rest doing the same reads on the same simulator (a process of
// its own): a 20-job list, one job, one project. Both run in this process, in turns (client, gitbeaker, client, …),
// `BENCH_CLIENT_CONCURRENCY` calls in flight for `BENCH_CLIENT_SECONDS` per turn. Gitbeaker's client-side rate
// limiter (3,000 calls a minute by default) is switched off, or it would be measuring its limiter. Prints one JSON
// object: calls/s and this process's CPU per call for each read and client, and the ratio.
//
//   npx tsx bench/client.ts

import { Gitlab } from '@gitbeaker/rest';
import { createGitlabClient } from '../src/gitlab/client.js';
import { createTransport } from '../src/gitlab/http.js';
import { Child } from './ipc.js';
import { round } from './stats.js';

const SECONDS = Number(process.env.BENCH_CLIENT_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CLIENT_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_CLIENT_ROUNDS ?? 3);
const TOKEN = 'sim-alice-token';
const PROJECT = 'demo/web';

type Read = () => Promise<unknown>;

async function turn(read: Read): Promise<{ calls: number; seconds: number; cpuUs: number }> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  let calls = 0;
  const lane = async () => {
    while (performance.now() < deadline) {
      await read();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const cpu = process.cpuUsage(cpu0);
  return { calls, seconds: (performance.now() - start) / 1000, cpuUs: cpu.user + cpu.system };
}

const { child: sim, match } = await Child.start('simulator', {
  args: ['--import', 'tsx', '--import', './bench/probe.mjs', 'src/sim/main.ts'],
  env: { SIM_PORT: '0', SIM_HOST: '127.0.0.1' },
  ready: /simulator listening on (\S+)/,
});
try {
  const simUrl = match?.[1] ?? '';
  const transport = createTransport({ baseUrl: simUrl });
  const ours = createGitlabClient(transport, TOKEN);
  const theirs = new Gitlab({ host: simUrl, token: TOKEN, rateLimits: {} });

  // The same reads, checked to answer the same before anything is timed.
  const jobs = await ours.jobs.list(PROJECT, { per_page: 20 });
  const jobId = jobs.items[0]?.id ?? 0;
  const reads: Record<string, { client: Read; gitbeaker: Read; check: (a: unknown, b: unknown) => boolean }> = {
    list_20_jobs: {
      client: () => ours.jobs.list(PROJECT, { per_page: 20 }),
      gitbeaker: () => theirs.Jobs.all(PROJECT, { perPage: 20, page: 1 }),
      check: (a, b) => (a as { items: unknown[] }).items.length === 20 && (b as unknown[]).length === 20,
    },
    one_job: {
      client: () => ours.jobs.get(PROJECT, jobId),
      gitbeaker: () => theirs.Jobs.show(PROJECT, jobId),
      check: (a, b) => (a as { id: number }).id === jobId && (b as { id: number }).id === jobId,
    },
    one_project: {
      client: () => ours.projects.get(PROJECT),
      gitbeaker: () => theirs.Projects.show(PROJECT),
      check: (a, b) =>
        (a as { path_with_namespace?: string }).path_with_namespace === PROJECT &&
        (b as { path_with_namespace?: string }).path_with_namespace === PROJECT,
    },
  };
  for (const [name, r] of Object.entries(reads)) {
    if (!r.check(await r.client(), await r.gitbeaker())) throw new Error(`${name}: the two clients disagree`);
  }

  const results: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(reads)) {
    await turn(r.client); // warm-up, both
    await turn(r.gitbeaker);
    const total = { client: { calls: 0, seconds: 0, cpuUs: 0 }, gitbeaker: { calls: 0, seconds: 0, cpuUs: 0 } };
    for (let i = 0; i < ROUNDS; i++) {
      const order = i % 2 === 0 ? (['client', 'gitbeaker'] as const) : (['gitbeaker', 'client'] as const);
      for (const who of order) {
        const t = await turn(r[who]);
        total[who].calls += t.calls;
        total[who].seconds += t.seconds;
        total[who].cpuUs += t.cpuUs;
      }
    }
    const perS = (t: typeof total.client) => t.calls / t.seconds;
    results[name] = {
      client_calls_per_s: round(perS(total.client), 0),
      gitbeaker_calls_per_s: round(perS(total.gitbeaker), 0),
      ratio: round(perS(total.client) / perS(total.gitbeaker), 2),
      client_cpu_us_per_call: round(total.client.cpuUs / total.client.calls, 0),
      gitbeaker_cpu_us_per_call: round(total.gitbeaker.cpuUs / total.gitbeaker.calls, 0),
    };
  }
  transport.close();
  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'client next to @gitbeaker/rest, same reads, same simulator',
      concurrency: CONCURRENCY,
      seconds_per_turn: SECONDS,
      rounds: ROUNDS,
      node: process.version,
      reads: results,
    })}\n`,
  );
} finally {
  await sim.stop();
}
