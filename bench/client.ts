// The bot's Delivery Service client next to @gitbeaker/rest doing the same reads on the same simulator (a process of
// its own): a 20-job list, one job, one project. Gitbeaker's client-side rate limiter (3,000 calls a minute by
// default) is switched off, or it would be measuring its limiter. A third client, the got floor, is the least any
// client on got can do: a got instance built once (keep-alive agent, no retries, no hooks) making the same GET with
// the token and parsing the JSON, with no validation, paging or error shaping: what our client spends above it is
// ours, what it spends above gitbeaker is got's. All three run in this process, in turns whose order changes from
// round to round, `BENCH_CLIENT_CONCURRENCY` calls in flight for `BENCH_CLIENT_SECONDS` per turn. Prints one JSON
// object: calls/s and this process's CPU per call for each read and client, and the ratios.
//
//   npx tsx bench/client.ts

import http from 'node:http';
import { Gitlab } from '@gitbeaker/rest';
import got from 'got';
import { createGitlabClient, createTransport } from '../src/index.js';
import { startSimulator } from './ipc.js';
import { round } from './stats.js';
import { timedTurn } from './timed-turn.js';

const SECONDS = Number(process.env.BENCH_CLIENT_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_CLIENT_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_CLIENT_ROUNDS ?? 3);
const TOKEN = 'sim-alice-token';
const PROJECT = 'demo/web';

type Read = () => Promise<unknown>;
const CLIENTS = ['client', 'gitbeaker', 'got_floor'] as const;
type Client = (typeof CLIENTS)[number];

const turn = (read: Read) => timedTurn(read, { seconds: SECONDS, concurrency: CONCURRENCY });

const { sim, simUrl } = await startSimulator({ nodeArgs: ['--expose-gc', '--import', './bench/probe.mjs'] });
try {
  const transport = createTransport({ baseUrl: simUrl });
  const ours = createGitlabClient(transport, TOKEN);
  const theirs = new Gitlab({ host: simUrl, token: TOKEN, rateLimits: {} });
  const floorAgent = new http.Agent({ keepAlive: true });
  const floor = got.extend({
    prefixUrl: `${simUrl}/api/v4/`,
    agent: { http: floorAgent },
    headers: { 'private-token': TOKEN },
    responseType: 'json',
    retry: { limit: 0 },
  });
  const project = encodeURIComponent(PROJECT);

  // The same reads, checked to answer the same before anything is timed.
  const jobs = await ours.jobs.list(PROJECT, { per_page: 20 });
  const jobId = jobs.items[0]?.id ?? 0;
  /** Each read's answer as the three clients give it: our client pages lists ({ items }), the others give arrays. */
  const itemsOf = (v: unknown) => (Array.isArray(v) ? v : ((v as { items?: unknown[] }).items ?? []));
  const reads: Record<string, Record<Client, Read> & { answers: (value: unknown) => boolean }> = {
    list_20_jobs: {
      client: () => ours.jobs.list(PROJECT, { per_page: 20 }),
      gitbeaker: () => theirs.Jobs.all(PROJECT, { perPage: 20, page: 1 }),
      got_floor: () => floor(`projects/${project}/jobs`, { searchParams: { per_page: 20 } }).json(),
      answers: (v) => itemsOf(v).length === 20,
    },
    one_job: {
      client: () => ours.jobs.get(PROJECT, jobId),
      gitbeaker: () => theirs.Jobs.show(PROJECT, jobId),
      got_floor: () => floor(`projects/${project}/jobs/${jobId}`).json(),
      answers: (v) => (v as { id?: number }).id === jobId,
    },
    one_project: {
      client: () => ours.projects.get(PROJECT),
      gitbeaker: () => theirs.Projects.show(PROJECT),
      got_floor: () => floor(`projects/${project}`).json(),
      answers: (v) => (v as { path_with_namespace?: string }).path_with_namespace === PROJECT,
    },
  };
  for (const [name, r] of Object.entries(reads)) {
    for (const who of CLIENTS) if (!r.answers(await r[who]())) throw new Error(`${name}: ${who} answered otherwise`);
  }

  const results: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(reads)) {
    for (const who of CLIENTS) await turn(r[who]); // warm-up
    const zero = () => ({ calls: 0, seconds: 0, cpuUs: 0 });
    const total: Record<Client, ReturnType<typeof zero>> = { client: zero(), gitbeaker: zero(), got_floor: zero() };
    for (let i = 0; i < ROUNDS; i++) {
      // The order turns from round to round, so no client always runs right after the same other one.
      for (let k = 0; k < CLIENTS.length; k++) {
        const who = CLIENTS[(k + i) % CLIENTS.length] as Client;
        const t = await turn(r[who]);
        total[who].calls += t.calls;
        total[who].seconds += t.seconds;
        total[who].cpuUs += t.cpuUs;
      }
    }
    const perS = (who: Client) => total[who].calls / total[who].seconds;
    const cpu = (who: Client) => round(total[who].cpuUs / total[who].calls, 0);
    results[name] = {
      client_calls_per_s: round(perS('client'), 0),
      gitbeaker_calls_per_s: round(perS('gitbeaker'), 0),
      got_floor_calls_per_s: round(perS('got_floor'), 0),
      ratio: round(perS('client') / perS('gitbeaker'), 2),
      got_floor_ratio: round(perS('got_floor') / perS('gitbeaker'), 2),
      client_cpu_us_per_call: cpu('client'),
      gitbeaker_cpu_us_per_call: cpu('gitbeaker'),
      got_floor_cpu_us_per_call: cpu('got_floor'),
    };
  }
  floorAgent.destroy();
  transport.close();
  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'client next to @gitbeaker/rest and the got floor, same reads, same simulator',
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
