// What one idle poll's GET costs this process, by client: the request an alert poll makes when nothing is new
// (`GET /todos?state=pending&per_page=1` with the person's token, the answer read as text), made by plain
// `node:http` with a keep-alive agent (the floor of any client), by a bare got instance (a keep-alive agent,
// no retries, no hooks: the least a got client does) and by our transport (src/gitlab/http.ts). The simulator runs
// in a process of its own; all three clients run in this one, in turns whose order changes from round to round,
// `BENCH_REQUESTS_CONCURRENCY` (16, as the alert bench) in flight for `BENCH_REQUESTS_SECONDS` per turn. Prints one
// JSON object: this process's CPU per request for each, and the load average it ran at.
//
//   npx tsx bench/requests.ts      (BENCH_REQUESTS_SECONDS 2, BENCH_REQUESTS_ROUNDS 5, BENCH_REQUESTS_CONCURRENCY 16)

import http from 'node:http';
import os from 'node:os';
import got from 'got';
import { createTransport } from '../src/index.js';
import { startSim } from './sim-process.js';
import { median, round } from './stats.js';
import { timedTurn } from './timed-turn.js';

const SECONDS = Number(process.env.BENCH_REQUESTS_SECONDS ?? 2);
const CONCURRENCY = Number(process.env.BENCH_REQUESTS_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_REQUESTS_ROUNDS ?? 5);
const TOKEN = 'sim-alice-token';
const CLIENTS = ['node_http', 'bare_got', 'transport'] as const;
type Client = (typeof CLIENTS)[number];

const turn = (read: () => Promise<string>) => timedTurn(read, { seconds: SECONDS, concurrency: CONCURRENCY });

const sim = await startSim();
try {
  const url = new URL(sim.url);
  const nodeAgent = new http.Agent({ keepAlive: true });
  const gotAgent = new http.Agent({ keepAlive: true });
  const transport = createTransport({ baseUrl: sim.url });
  const bare = got.extend({
    prefixUrl: `${sim.url}/api/v4/`,
    agent: { http: gotAgent },
    retry: { limit: 0 },
  });
  const reads: Record<Client, () => Promise<string>> = {
    node_http: () =>
      new Promise((resolve, reject) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: '/api/v4/todos?state=pending&per_page=1',
            agent: nodeAgent,
            headers: { accept: 'application/json', 'private-token': TOKEN },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(new Error('status')),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      }),
    bare_got: () =>
      bare('todos', { searchParams: { state: 'pending', per_page: 1 }, headers: { 'private-token': TOKEN } }).text(),
    transport: async () =>
      (
        await transport.request({
          method: 'GET',
          path: 'todos',
          token: TOKEN,
          query: { state: 'pending', per_page: 1 },
          responseType: 'text',
        })
      ).body,
  };
  // The same answer from all three before anything is timed.
  const answers = await Promise.all(CLIENTS.map((c) => reads[c]()));
  if (new Set(answers).size !== 1) throw new Error('the clients answered differently');

  for (const c of CLIENTS) await turn(reads[c]); // warm-up
  const perCall: Record<Client, number[]> = { node_http: [], bare_got: [], transport: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (let k = 0; k < CLIENTS.length; k++) {
      const who = CLIENTS[(k + i) % CLIENTS.length] as Client;
      const t = await turn(reads[who]);
      perCall[who].push(t.cpuUs / t.calls);
    }
  }
  nodeAgent.destroy();
  gotAgent.destroy();
  transport.close();
  const ms = (who: Client) => round((median(perCall[who]) ?? 0) / 1000, 3);
  process.stdout.write(
    `${JSON.stringify({
      benchmark: "requests: one idle poll's GET, CPU of this process per request",
      node: process.version,
      load_average: os.loadavg().map((x) => round(x, 2)),
      concurrency: CONCURRENCY,
      seconds_per_turn: SECONDS,
      rounds: ROUNDS,
      cpu_ms_per_request: { node_http: ms('node_http'), bare_got: ms('bare_got'), transport: ms('transport') },
      rounds_us: Object.fromEntries(CLIENTS.map((c) => [c, perCall[c].map((x) => Math.round(x))])),
    })}\n`,
  );
} finally {
  sim.child.kill('SIGTERM');
}
