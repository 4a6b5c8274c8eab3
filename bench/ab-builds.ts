// Two builds of the bot next to the floor (bench/floor-bolt.mjs) in one run, interleaved, each in its own process,
// at 200 and then 50 in flight: A is the build named by BENCH_AB_A (a dist/main.js elsewhere, e.g. main's, copied
// with its package.json next to a node_modules link), B this tree's dist/main.js (`npm run build` first). Per app
// and round (one JSON line each on stderr, all of them on stdout at the end): answers per second and ack p50/p99 at
// 200, ack p99 at 50, CPU per command at 200 (user and system, from /proc) and at 50, CPU seconds per wall second,
// requests that opened a connection. With BENCH_AB_METER=1 (bench/gc-meter.mjs) also, per command, each kind of
// collection's cost and count, KiB promoted to the old generation, what survived each scavenge, the event loop's
// utilisation and the main thread's context switches. Ratios within one round (A vs B vs floor) hold up on a
// loaded machine better than any absolute figure.
//
//   BENCH_AB_A=/tmp/ab/dist/main.js npx tsx bench/ab-builds.ts
//
// Knobs: BENCH_AB_C1 (N commands per round at 1 in flight, reporting ack and answer p50, instead of 200 and 50),
// BENCH_ROUNDS (3), BENCH_C200 (2000), BENCH_C50 (1000), BENCH_AB_B_ARGS (node flags for B only, e.g.
// `--heap-growing-percent=0`), BENCH_AB_A_ENV (variables for A only, e.g. `METRICS=off`: with BENCH_AB_A unset, the
// same build with and without metrics), BENCH_AB_COMMAND (the command both bots are sent, default `jobs demo/web`;
// e.g. `pipeline demo/web 2`, the demo's failed pipeline, whose card reads why its jobs failed), BENCH_LATENCY (that many commands per bot at 200 in flight with the simulator 50 ms
// late, at the end; 0 skips it).

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, openDatabase } from '../src/index.js';
import { connectBenchPeople } from './bench-people.js';
import { Child, startLoadGenerator, startSimulator } from './ipc.js';
import type { RunOptions, RunResult } from './load.js';
import { median, quantile, round } from './stats.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = num('BENCH_ROUNDS', 3);
const C200 = num('BENCH_C200', 2000);
const C50 = num('BENCH_C50', 1000);
const LATENCY = num('BENCH_LATENCY', 0);
/** With BENCH_AB_C1=N, each round is N commands at 1 in flight instead (ack and answer p50). */
const C1 = num('BENCH_AB_C1', 0);
/** Commands each app takes at 20 in flight before the first round (BENCH_WARM). */
const WARM = num('BENCH_WARM', 500);
/**
 * With BENCH_AB_C1 and BENCH_AB_TIMELINE=dir, each app also records when each request reached it and when its ack
 * was written (bench/timeline.mjs), and the run ends with where each app's ack at 1 in flight went: the load
 * generator's send → the request at the app → the ack written → the ack at the load generator (medians, µs).
 */
const TIMELINE_DIR = process.env.BENCH_AB_TIMELINE ? path.resolve(process.env.BENCH_AB_TIMELINE) : null;
const ROOT = path.resolve(import.meta.dirname, '..');
const PROBE = path.join(ROOT, 'bench/probe.mjs');
const A_MAIN = process.env.BENCH_AB_A ?? path.join(ROOT, 'dist/main.js');
const B_MAIN = path.join(ROOT, 'dist/main.js');
const A_ENV = Object.fromEntries(
  (process.env.BENCH_AB_A_ENV ?? '')
    .split(' ')
    .filter(Boolean)
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const GC_METER = path.join(ROOT, 'bench/gc-meter.mjs');
const TIMELINE = path.join(ROOT, 'bench/timeline.mjs');
const progress = (line: string) => process.stderr.write(`ab: ${line}\n`);

function procCpu(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(f[11]) * 10_000, sys: Number(f[12]) * 10_000 };
}

type Name = 'A' | 'B' | 'floor';

const METER_DIR = process.env.BENCH_AB_METER === '1' ? fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-gc-meter-')) : null;
interface Meter {
  gc: {
    scavengeUs: number;
    majorUs: number;
    otherUs: number;
    scavenges: number;
    majors: number;
    promoted: number;
    survived: number;
  };
  elu: { idle: number; active: number };
  vcs: number;
  ivcs: number;
}
async function meter(pid: number): Promise<Meter | null> {
  if (!METER_DIR) return null;
  const file = path.join(METER_DIR, `${pid}.json`);
  fs.rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100 && !fs.existsSync(file); i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 20));
  const status = fs.readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Meter;
  m.vcs = Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1]);
  m.ivcs = Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1]);
  return m;
}

type Trace = NonNullable<RunResult['trace']>;

/** Where the acks at 1 in flight went, per app: the load generator's times matched with the app's own. */
function timelineSplit(dir: string, pids: Record<Name, number>, sends: Record<Name, Trace[]>) {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(pids) as Name[]) {
    const file = fs.readdirSync(dir).find((f) => f.endsWith(`.${pids[name]}.timeline.json`));
    if (!file) continue;
    const { requests } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as { requests: [number, number][] };
    const starts = requests.map(([start]) => start);
    const toApp: number[] = [];
    const toAck: number[] = [];
    const back: number[] = [];
    for (const trace of sends[name]) {
      trace.start.forEach((sentNs, i) => {
        const sent = sentNs / 1000;
        const acked = sent + (trace.ackMs[i] ?? 0) * 1000;
        // The first request the app saw after the send: at 1 in flight, that command.
        let lo = 0;
        let hi = starts.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if ((starts[mid] as number) < sent) lo = mid + 1;
          else hi = mid;
        }
        const request = requests[lo];
        if (!request || request[1] > acked) return;
        toApp.push(request[0] - sent);
        toAck.push(request[1] - request[0]);
        back.push(acked - request[1]);
      });
    }
    out[name] = {
      commands: toApp.length,
      send_to_app_us: round(median(toApp), 1),
      app_to_ack_written_us: round(median(toAck), 1),
      ack_written_to_load_us: round(median(back), 1),
    };
  }
  return out;
}

async function main() {
  const started: Child[] = [];
  const sends: Record<Name, Trace[]> = { A: [], B: [], floor: [] };
  const pids = {} as Record<Name, number>;
  try {
    const { sim, simUrl } = await startSimulator();
    started.push(sim);
    const { load, apiUrl } = await startLoadGenerator();
    started.push(load);
    const secret = crypto.randomBytes(16).toString('hex');
    const base = {
      SLACK_BOT_TOKEN: `xoxb-bench-${crypto.randomBytes(8).toString('hex')}`,
      SLACK_SIGNING_SECRET: secret,
      SLACK_API_URL: apiUrl,
      PORT: '0',
      GITLAB_URL: simUrl,
      TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    };
    const probed = (mainScript: string) => ({
      NODE_OPTIONS: `--expose-gc --import=${PROBE}${METER_DIR ? ` --import=${GC_METER}` : ''}${TIMELINE_DIR ? ` --import=${TIMELINE}` : ''}`,
      ...(METER_DIR ? { BENCH_GC_METER_DIR: METER_DIR } : {}),
      ...(TIMELINE_DIR ? { BENCH_AB_TIMELINE: TIMELINE_DIR } : {}),
      BENCH_PROBE_MAIN: mainScript,
      BENCH_PROBE_STAGES: '0',
    });
    const children = {} as Record<Name, Child>;
    for (const [name, script] of [
      ['A', A_MAIN],
      ['B', B_MAIN],
    ] as const) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-ab-'));
      const env = { ...base, DATABASE_PATH: path.join(dataDir, 'bot.db'), ...(name === 'A' ? A_ENV : {}) };
      const config = loadConfig(env);
      const db = openDatabase(config.databasePath);
      await connectBenchPeople(db, config);
      db.close();
      const { child, match: port } = await Child.start(`bot ${name}`, {
        args: [...(name === 'B' ? (process.env.BENCH_AB_B_ARGS ?? '').split(' ').filter(Boolean) : []), script],
        ipc: false,
        env: { ...env, ...probed(script) },
        ready: /^(?=[^\n]*"msg":"bot started")[^\n]*?"port":(\d+)/m,
      });
      started.push(child);
      child.measure(script);
      children[name] = child;
      pids[name] = child.pid;
      await load.call('target', { name, url: `http://127.0.0.1:${port?.[1]}`, signingSecret: secret });
    }
    const { child: floor, match: floorPort } = await Child.start('floor', {
      args: ['bench/floor-bolt.mjs'],
      ipc: false,
      env: { ...base, DATABASE_PATH: '/nonexistent', ...probed('floor-bolt.mjs') },
      ready: /^listening on (\d+)$/m,
    });
    started.push(floor);
    floor.measure('floor-bolt.mjs');
    children.floor = floor;
    pids.floor = floor.pid;
    await load.call('target', { name: 'floor', url: `http://127.0.0.1:${floorPort?.[1]}`, signingSecret: secret });

    const run = async (name: Name, concurrency: number, count: number) => {
      const m0 = await meter(children[name].pid);
      const c0 = procCpu(children[name].pid);
      const r = await load.call<RunResult>('run', {
        target: name,
        concurrency,
        count,
        text: process.env.BENCH_AB_COMMAND ?? 'jobs demo/web',
        answer: 'Jobs in demo/web',
        timeoutMs: 60_000,
        ...(TIMELINE_DIR && concurrency === 1 ? { trace: true } : {}),
      } satisfies RunOptions);
      const c1 = procCpu(children[name].pid);
      const m1 = await meter(children[name].pid);
      const n = r.sent;
      const m =
        m0 && m1
          ? {
              scavenge_ms: round((m1.gc.scavengeUs - m0.gc.scavengeUs) / 1000 / n, 3),
              major_ms: round((m1.gc.majorUs - m0.gc.majorUs) / 1000 / n, 3),
              scavenges_per_1k: round(((m1.gc.scavenges - m0.gc.scavenges) * 1000) / n, 1),
              majors_per_1k: round(((m1.gc.majors - m0.gc.majors) * 1000) / n, 1),
              promoted_kib: round((m1.gc.promoted - m0.gc.promoted) / 1024 / n, 1),
              survived_kib_per_scavenge: round(
                (m1.gc.survived - m0.gc.survived) / 1024 / Math.max(1, m1.gc.scavenges - m0.gc.scavenges),
                0,
              ),
              elu: round(
                (m1.elu.active - m0.elu.active) / (m1.elu.active - m0.elu.active + m1.elu.idle - m0.elu.idle),
                2,
              ),
              vcs_per_cmd: round((m1.vcs - m0.vcs) / n, 2),
              ivcs_per_cmd: round((m1.ivcs - m0.ivcs) / n, 2),
            }
          : {};
      return { r, user: c1.user - c0.user, sys: c1.sys - c0.sys, m };
    };
    progress('warming up');
    for (const name of ['A', 'B', 'floor'] as Name[]) await run(name, 20, WARM);

    const rows: Record<string, unknown>[] = [];
    const names: Name[] = ['A', 'B', 'floor'];
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      const order = names.map((_, i) => names[(i + round_) % names.length] as Name);
      for (const name of order) {
        if (C1 > 0) {
          const c1 = await run(name, 1, C1);
          if (c1.r.trace) sends[name].push(c1.r.trace);
          const row = {
            round: round_ + 1,
            app: name,
            load: os.loadavg()[0]?.toFixed(1),
            ack_p50_c1: round(median(c1.r.ackMs), 3),
            answer_p50_c1: round(median(c1.r.answerMs), 3),
            cpu_ms_c1: round((c1.user + c1.sys) / 1000 / c1.r.sent, 3),
            lost: c1.r.sent - c1.r.answered,
          };
          rows.push(row);
          progress(JSON.stringify(row));
          continue;
        }
        const c200 = await run(name, 200, C200);
        const c50 = await run(name, 50, C50);
        const n = c200.r.sent;
        const lost = c200.r.sent - c200.r.answered + (c50.r.sent - c50.r.answered);
        const row = {
          round: round_ + 1,
          app: name,
          load: os.loadavg()[0]?.toFixed(1),
          per_s_c200: round(c200.r.answered / c200.r.seconds, 0),
          ack_p99_c200: round(quantile(c200.r.ackMs, 0.99)),
          ack_p50_c200: round(median(c200.r.ackMs)),
          ack_p99_c50: round(quantile(c50.r.ackMs, 0.99)),
          cpu_ms_c200: round((c200.user + c200.sys) / 1000 / n, 3),
          user_ms_c200: round(c200.user / 1000 / n, 3),
          sys_ms_c200: round(c200.sys / 1000 / n, 3),
          util_c200: round((c200.user + c200.sys) / 1e6 / c200.r.seconds, 2),
          cpu_ms_c50: round((c50.user + c50.sys) / 1000 / c50.r.sent, 3),
          new_conn_c200: c200.r.newConnections,
          ...c200.m,
          c50: c50.m,
          lost,
        };
        rows.push(row);
        progress(JSON.stringify(row));
      }
    }
    if (LATENCY > 0) {
      await fetch(`${simUrl}/__sim/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ latencyMs: 50 }),
      });
      for (const name of ['A', 'B'] as Name[]) {
        const l = await run(name, 200, LATENCY);
        progress(
          `latency ${name}: answered ${l.r.answered}/${l.r.sent}, missing ${l.r.missingAnswers}, ack p99 ${round(quantile(l.r.ackMs, 0.99))}`,
        );
      }
    }
    for (const c of started.reverse()) await c.stop();
    started.length = 0;
    if (TIMELINE_DIR && C1 > 0) {
      const split = timelineSplit(TIMELINE_DIR, pids, sends);
      progress(`acks at 1 in flight, medians in µs: ${JSON.stringify(split)}`);
      rows.push({ ack_split_c1: split });
    }
    process.stdout.write(`${JSON.stringify(rows)}\n`);
  } finally {
    for (const c of started.reverse()) await c.stop();
  }
}

await main();
