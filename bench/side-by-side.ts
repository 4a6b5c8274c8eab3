// The bot next to a bare Bolt app, in the same run, interleaved, each in its own process: the built bot
// (`node dist/main.js`, what `npm start` runs) doing whole `/gl jobs demo/web` commands against the simulator
// (its own process), and a Bolt app with the same receiver that only acks the same signed requests. A third app,
// the floor (bench/floor-bolt.mjs), does only what a whole command cannot skip on this stack (the ack, one got GET,
// one POST to the response_url): the bot's figures above the floor's are the bot's own, the floor's above the bare
// app's are the stack's. The load generator (bench/load.ts, which also plays Slack's response_url) is a process of
// its own too. Every server process has
// bench/probe.mjs preloaded, which reports its CPU time, memory and (for the simulator) when each request it served
// started and ended, so the simulator's own time can be taken off the bot's end-to-end time.
//
//   npx tsx bench/side-by-side.ts      (needs `npm run build` first; `npm run bench` does both)
//
// Knobs (environment): BENCH_WARM (4000 commands each app takes at 20 in flight before the first round, so that the
// rounds measure apps whose per-command code V8 has optimised, as in a bot that has been serving for a while),
// BENCH_ROUNDS (3), BENCH_C1 (300 commands per round at concurrency 1, in BENCH_C1_SLICES (5)
// slices per app with the apps taking turns), BENCH_C50 (1000),
// BENCH_C200 (2000), BENCH_LEAK (10000 commands for the heap check, each app
// taking the same), BENCH_SETTLE_MS (8000: the idle time of every app before the memory at the end is read), BENCH_LATENCY (2000 commands at 200 in
// flight with the simulator answering 50 ms late; 0 skips it), BENCH_BOT_BY_NODE=1 (the bot started by
// `node dist/main.js` rather than `npm start`), BENCH_BOT_NODE_ARGS and BENCH_FLOOR_NODE_ARGS (extra
// node flags for the bot or the floor, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`), BENCH_BOT_TIMINGS=1 (the bot's
// probe also records its requests), BENCH_STAGES=1 (at 1 in flight, where the bot and the floor spend their time
// between a command's arrival and its answer, step by step: `stages_at_c1`; see stagesOf), BENCH_FLOOR_POST=got (the
// floor POSTs its answer through got, as the bot must, instead of node:http: `floor_post` in the JSON).
// Progress goes to stderr; the last stdout line is the JSON. startAll and phase are exported for experiments.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, openDatabase } from '../src/index.js';
import { connectBenchPeople } from './bench-people.js';
import { Child, type ProbeStats, startLoadGenerator, startSimulator } from './ipc.js';
import type { RunOptions, RunResult } from './load.js';
import { busyMs, type Intervals, MiB, median, quantile, round, simTimePerWindow } from './stats.js';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = num('BENCH_ROUNDS', 3);
const WARM = num('BENCH_WARM', 4000);
const COUNTS: Record<number, number> = {
  1: num('BENCH_C1', 300),
  50: num('BENCH_C50', 1000),
  200: num('BENCH_C200', 2000),
};
/** At 1 in flight each round's commands are sent in this many slices per app, the apps taking turns. */
const C1_SLICES = Math.max(1, num('BENCH_C1_SLICES', 5));
const LEAK = num('BENCH_LEAK', 10_000);
const LATENCY = num('BENCH_LATENCY', 2000);
/** How long every app idles before the memory at the end is read (see sideBySide). */
const SETTLE_MS = num('BENCH_SETTLE_MS', 8000);
const COMMAND = 'jobs demo/web';
const ANSWER = 'Jobs in demo/web';
const BUTTON = { command: 'jobs demo/web', label: 'Details', answer: 'Job #32' };
/** Extra node flags for the bot (or the floor), e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it under load. */
const BOT_NODE_ARGS = (process.env.BENCH_BOT_NODE_ARGS ?? '').split(' ').filter(Boolean);
const FLOOR_NODE_ARGS = (process.env.BENCH_FLOOR_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** BENCH_BOT_BY_NODE=1 starts the bot with `node dist/main.js` instead of `npm start` (to compare the two). */
const BOT_BY_NODE = process.env.BENCH_BOT_BY_NODE === '1';
/** BENCH_STAGES=1: the bot's and the floor's probes mark each step of a command (bench/probe.mjs, markStages). */
const STAGES = process.env.BENCH_STAGES === '1';
const ROOT = path.resolve(import.meta.dirname, '..');
const PROBE = './bench/probe.mjs';

const progress = (line: string) => process.stderr.write(`side-by-side: ${line}\n`);

export interface Processes {
  sim: Child;
  simUrl: string;
  load: Child;
  bot: Child;
  bare: Child;
  floor: Child;
  dataDir: string;
}

export async function startAll(): Promise<Processes> {
  if (!fs.existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('dist/main.js is missing: run `npm run build`');
  const started: Child[] = [];
  try {
    const { sim, simUrl } = await startSimulator({
      nodeArgs: ['--expose-gc', '--import', PROBE],
      env: { BENCH_PROBE_TIMINGS: '1' },
    });
    started.push(sim);
    const { load, apiUrl } = await startLoadGenerator();
    started.push(load);

    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-bench-'));
    const env = {
      SLACK_BOT_TOKEN: `xoxb-bench-${crypto.randomBytes(8).toString('hex')}`,
      SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
      SLACK_API_URL: apiUrl,
      PORT: '0',
      GITLAB_URL: simUrl,
      TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
      DATABASE_PATH: path.join(dataDir, 'bot.db'),
    };
    // The demo people are connected before the bot starts, as `/gl connect` would have left them.
    const config = loadConfig(env);
    const db = openDatabase(config.databasePath);
    await connectBenchPeople(db, config);
    db.close();

    // Each app as an operator runs it: the bot by `npm start` (the repo's build, then `node dist/main.js`, default
    // flags), the yardsticks by `node bench/<app>.mjs`. The probe comes in through NODE_OPTIONS and takes part only
    // in the process running BENCH_PROBE_MAIN; CPU time and RSS come from /proc for all three.
    const probed = (main: string, extra: string[] = []) => ({
      NODE_OPTIONS: [process.env.NODE_OPTIONS ?? '', '--expose-gc', `--import=${path.join(ROOT, PROBE)}`, ...extra]
        .filter(Boolean)
        .join(' '),
      BENCH_PROBE_MAIN: main,
      BENCH_PROBE_STAGES: STAGES ? '1' : '0',
    });
    const { child: bot, match: botPort } = await Child.start('bot', {
      ...(BOT_BY_NODE ? { args: ['dist/main.js'] } : { command: 'npm', args: ['start'] }),
      ipc: false,
      env: {
        ...env,
        ...probed('dist/main.js', BOT_NODE_ARGS),
        BENCH_PROBE_TIMINGS: process.env.BENCH_BOT_TIMINGS ?? '0',
      },
      ready: /^(?=[^\n]*"msg":"bot started")[^\n]*?"port":(\d+)/m,
      readyTimeoutMs: 180_000,
    });
    started.push(bot);
    bot.measure('dist/main.js');
    const { child: bare, match: barePort } = await Child.start('bare Bolt app', {
      args: ['bench/bare-bolt.mjs'],
      ipc: false,
      env: { ...env, ...probed('bare-bolt.mjs') },
      ready: /^listening on (\d+)$/m,
    });
    started.push(bare);
    bare.measure('bare-bolt.mjs');
    const { child: floor, match: floorPort } = await Child.start('floor Bolt app', {
      args: ['bench/floor-bolt.mjs'],
      ipc: false,
      env: { ...env, ...probed('floor-bolt.mjs', FLOOR_NODE_ARGS) },
      ready: /^listening on (\d+)$/m,
    });
    started.push(floor);
    floor.measure('floor-bolt.mjs');
    const secret = env.SLACK_SIGNING_SECRET;
    await load.call('target', { name: 'bot', url: `http://127.0.0.1:${botPort?.[1]}`, signingSecret: secret });
    await load.call('target', { name: 'bare', url: `http://127.0.0.1:${barePort?.[1]}`, signingSecret: secret });
    await load.call('target', { name: 'floor', url: `http://127.0.0.1:${floorPort?.[1]}`, signingSecret: secret });
    return { sim, simUrl, load, bot, bare, floor, dataDir };
  } catch (err) {
    for (const c of started.reverse()) await c.stop();
    throw err;
  }
}

/** One measured phase: the target's, the simulator's and the load generator's CPU around one run. */
export interface Phase {
  run: RunResult;
  cpuUs: { target: number; sim: number; load: number };
  /** Bytes the target's JavaScript heap allocated during the run. */
  allocatedBytes: number;
  sim: Intervals;
  /** With BENCH_STAGES=1, phases at 1 in flight: when the target's steps happened (bench/probe.mjs, markStages). */
  stages?: Stages;
}

type Stages = Record<'read' | 'call' | 'called' | 'answer' | 'answered', number[]>;

/** The three apps, in the order of the first round. */
export type Target = 'bare' | 'floor' | 'bot';
const TARGETS: Target[] = ['bare', 'floor', 'bot'];

export async function phase(p: Processes, o: RunOptions): Promise<Phase> {
  const server = p[o.target as Target];
  await p.sim.timings(); // drop what came before
  const staged = STAGES && o.windows === true;
  if (staged) await server.timings();
  // The probe's own work is kept outside the window /proc measures: asked before the first reading, after the last.
  const [a0, s0] = await Promise.all([server.stats(), p.sim.stats()]);
  const t0 = server.os();
  const run = await p.load.call<RunResult>('run', o);
  const t1 = server.os();
  const [a1, s1, sim] = await Promise.all([server.stats(), p.sim.stats(), p.sim.timings()]);
  const stages = staged ? ((await server.timings()) as { stages?: Stages }).stages : undefined;
  const lost = run.sent - run.acked + run.missingAnswers + run.wrongAnswers;
  if (lost > 0)
    progress(
      `${o.target} c=${o.concurrency}: ${run.sent - run.acked} not acked ${JSON.stringify(run.ackFailures)}, ` +
        `${run.missingAnswers} unanswered, ${run.wrongAnswers} wrong (${run.firstWrongAnswer ?? ''})`,
    );
  return {
    run,
    cpuUs: { target: t1.cpuUs - t0.cpuUs, sim: s1.cpuUs - s0.cpuUs, load: run.cpuUs },
    allocatedBytes: (a1.allocatedBytes ?? 0) - (a0.allocatedBytes ?? 0),
    sim,
    ...(stages ? { stages } : {}),
  };
}

/** Several phases of one kind taken together. */
function summarise(phases: Phase[]) {
  const all = <T>(pick: (ph: Phase) => T[]) => phases.flatMap(pick);
  const sum = (pick: (ph: Phase) => number) => phases.reduce((s, ph) => s + pick(ph), 0);
  const acked = sum((ph) => ph.run.acked);
  const answered = sum((ph) => ph.run.answered);
  const seconds = sum((ph) => ph.run.seconds);
  const commands = sum((ph) => ph.run.sent);
  const ack = all((ph) => ph.run.ackMs);
  const answer = all((ph) => ph.run.answerMs);
  const perCommand = (us: number) => round(us / 1000 / Math.max(1, commands), 3);
  return {
    commands,
    acked,
    answered,
    not_acked: commands - acked,
    unanswered: sum((ph) => ph.run.missingAnswers),
    wrong_answers: sum((ph) => ph.run.wrongAnswers),
    resent_on_new_socket: sum((ph) => ph.run.resent),
    ack_p50_ms: round(median(ack)),
    ack_p99_ms: round(quantile(ack, 0.99)),
    // A server accepts one new connection per event-loop turn: a burst on new connections waits turns, not work.
    new_connections: sum((ph) => ph.run.newConnections),
    ack_p99_established_ms: round(
      quantile(
        all((ph) => ph.run.ackMsEstablished),
        0.99,
      ),
    ),
    ...(answer.length > 0
      ? { answer_p50_ms: round(median(answer)), answer_p99_ms: round(quantile(answer, 0.99)) }
      : {}),
    per_s: round((answer.length > 0 ? answered : acked) / seconds, 0),
    kib_allocated_per_command: round(sum((ph) => ph.allocatedBytes) / 1024 / Math.max(1, commands), 1),
    cpu_ms_per_command: {
      server: perCommand(sum((ph) => ph.cpuUs.target)),
      simulator: perCommand(sum((ph) => ph.cpuUs.sim)),
      load_generator: perCommand(sum((ph) => ph.cpuUs.load)),
    },
    simulator_ms_per_command: round(sum((ph) => busyMs(ph.sim)) / Math.max(1, commands), 3),
  };
}

/** End to end minus the simulator's own time, command by command (phases at concurrency 1). */
function withoutSimulator(phases: Phase[]) {
  const own: number[] = [];
  const sim: number[] = [];
  const calls: number[] = [];
  for (const ph of phases) {
    const w = ph.run.windows;
    if (!w) continue;
    const s = simTimePerWindow(w, ph.sim);
    for (let i = 0; i < w.start.length; i++) {
      const e2e = ((w.end[i] ?? 0) - (w.start[i] ?? 0)) / 1e6;
      own.push(e2e - (s.ms[i] ?? 0));
      sim.push(s.ms[i] ?? 0);
      calls.push(s.calls[i] ?? 0);
    }
  }
  return {
    commands: own.length,
    p50_ms: round(median(own)),
    p99_ms: round(quantile(own, 0.99)),
    simulator_p50_ms: round(median(sim)),
    simulator_calls_per_command: round(median(calls), 1),
  };
}

/**
 * Where a command's time goes, step by step, at 1 in flight (medians, ms): until the app has read the command,
 * from there to its GitLab call (the ack and everything before the call), the GitLab exchange less the
 * simulator's own time, from the GitLab answer read to the answer's POST made (decoding, the view, the answer's
 * JSON), and from that POST made to the answer read at the fake Slack. Measured the same way in every app.
 */
function stagesOf(phases: Phase[]) {
  const steps: Record<string, number[]> = {
    arrival: [],
    to_gitlab_call: [],
    gitlab_minus_simulator: [],
    gitlab_answer_to_answer_post: [],
    answer_post_to_arrival: [],
  };
  const firstIn = (xs: number[], from: number, to: number) => xs.find((t) => t >= from && t <= to);
  for (const ph of phases) {
    const w = ph.run.windows;
    const st = ph.stages;
    if (!w || !st) continue;
    const s = simTimePerWindow(w, ph.sim);
    for (let i = 0; i < w.start.length; i++) {
      const start = w.start[i] ?? 0;
      const end = w.end[i] ?? 0;
      const read = firstIn(st.read, start, end);
      if (read === undefined) continue;
      const call = firstIn(st.call, read, end);
      if (call === undefined) continue;
      const answer = firstIn(st.answer, call, end);
      if (answer === undefined) continue;
      // The last GitLab answer before the answer's POST: the one the answer was made from.
      const called = st.called.filter((t) => t >= call && t <= answer).at(-1);
      if (called === undefined) continue;
      steps.arrival?.push((read - start) / 1e6);
      steps.to_gitlab_call?.push((call - read) / 1e6);
      steps.gitlab_minus_simulator?.push((called - call) / 1e6 - (s.ms[i] ?? 0));
      steps.gitlab_answer_to_answer_post?.push((answer - called) / 1e6);
      steps.answer_post_to_arrival?.push((end - answer) / 1e6);
    }
  }
  return {
    commands: steps.arrival?.length ?? 0,
    ...Object.fromEntries(Object.entries(steps).map(([k, v]) => [`${k}_ms`, round(median(v), 3)])),
  };
}

const memoryOf = (s: ProbeStats) => ({
  rss_mib: MiB(s.memory.rss),
  heap_total_mib: MiB(s.memory.heapTotal),
  heap_used_mib: MiB(s.memory.heapUsed),
  external_mib: MiB(s.memory.external),
  ...(s.heapAfterGc !== undefined ? { heap_after_gc_mib: MiB(s.heapAfterGc) } : {}),
  ...(s.rssAfterGc !== undefined ? { rss_after_gc_mib: MiB(s.rssAfterGc) } : {}),
});

async function setSimLatency(simUrl: string, latencyMs: number) {
  const res = await fetch(`${simUrl}/__sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(latencyMs > 0 ? { latencyMs } : {}),
  });
  if (!res.ok) throw new Error(`the simulator refused the faults: ${res.status}`);
}

export async function sideBySide() {
  const p = await startAll();
  try {
    /** Each app's CPU and memory (the heap measured after a forced GC when `gc`), by app. */
    const statsOfAll = async (gc = false) => {
      const out = {} as Record<Target, ProbeStats>;
      for (const target of TARGETS) out[target] = await p[target].stats({ gc });
      return out;
    };
    const startup = await statsOfAll();
    const command = (target: Target, concurrency: number, count: number, extra: Partial<RunOptions> = {}) =>
      phase(p, {
        target,
        concurrency,
        count,
        text: COMMAND,
        ...(target === 'bare' ? {} : { answer: ANSWER }),
        ...extra,
      });

    progress('warming up');
    for (const target of TARGETS) await command(target, 20, WARM);
    const button = await p.load.call<RunOptions['button']>('findButton', {
      target: 'bot',
      text: BUTTON.command,
      label: BUTTON.label,
    });
    await phase(p, { target: 'bot', concurrency: 5, count: 200, button, answer: BUTTON.answer });
    const warm = await statsOfAll(true);

    const phases: Record<string, Phase[]> = {};
    const keep = (key: string, ph: Phase) => {
      phases[key] ??= [];
      phases[key].push(ph);
    };
    for (let r = 0; r < ROUNDS; r++) {
      // The order turns from round to round, so no app always runs right after the same other one.
      const order = TARGETS.map((_, i) => TARGETS[(i + r) % TARGETS.length] as Target);
      for (const c of [1, 50, 200]) {
        // At 1 in flight the apps take turns in slices: the machine's own slow spells (seconds long on a shared
        // host) then fall on every app alike instead of on whichever ran its whole round through one.
        const slices = c === 1 ? C1_SLICES : 1;
        for (let slice = 0; slice < slices; slice++) {
          for (const target of order) {
            progress(
              `round ${r + 1}/${ROUNDS}: ${target} at ${c} in flight${slices > 1 ? ` (${slice + 1}/${slices})` : ''}`,
            );
            const count = Math.ceil((COUNTS[c] ?? 100) / slices);
            keep(`${target}:${c}`, await command(target, c, count, { windows: c === 1 }));
          }
        }
      }
      progress(`round ${r + 1}/${ROUNDS}: a button at 1 in flight`);
      keep(
        'button',
        await phase(p, {
          target: 'bot',
          concurrency: 1,
          count: COUNTS[1] ?? 100,
          button,
          answer: BUTTON.answer,
          windows: true,
        }),
      );
    }

    let latency: Phase | null = null;
    if (LATENCY > 0) {
      progress(`${LATENCY} commands at 200 in flight, the simulator 50 ms late`);
      await setSimLatency(p.simUrl, 50);
      try {
        latency = await command('bot', 200, LATENCY, { timeoutMs: 60_000 });
      } finally {
        await setSimLatency(p.simUrl, 0);
      }
    }

    progress(`${LEAK} commands for the heap check`);
    const leakStart = { bot: await p.bot.stats({ gc: true }), bare: await p.bare.stats({ gc: true }) };
    const leak: Phase[] = [];
    const chunk = 1000;
    for (let done = 0; done < LEAK; done += chunk) {
      const n = Math.min(chunk, LEAK - done);
      leak.push(await command('bot', 50, n));
      await command('bare', 50, n);
      // The floor takes the same load, so that every app's memory at the end is read after the same commands.
      await command('floor', 50, n);
    }
    // Every app idles as long, then its memory is read twice: as the load left it (what an operator's `ps` shows:
    // V8 gives nothing back to an idle process on its own, so this is wherever each was in its collection cycle
    // when the load stopped), and after the probe's forced collections (bench/probe.mjs: young generations shrunk
    // alike) once the freed pages are back with the system (what each keeps; the ratio the targets judge). Both
    // readings are taken the same way for all.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const asLeft = await statsOfAll();
    const end = await statsOfAll(true);

    const side = (target: Target) => ({
      c1: summarise(phases[`${target}:1`] ?? []),
      c50: summarise(phases[`${target}:50`] ?? []),
      c200: summarise(phases[`${target}:200`] ?? []),
      memory: {
        at_start: memoryOf(startup[target]),
        after_warm_up: memoryOf(warm[target]),
        as_left_by_the_load: memoryOf(asLeft[target]),
        at_end: memoryOf(end[target]),
      },
    });
    const bot = side('bot');
    const bare = side('bare');
    const floor = side('floor');
    const latencyRun = latency ? summarise([latency]) : null;
    const botOwn = withoutSimulator(phases['bot:1'] ?? []);
    const floorOwn = withoutSimulator(phases['floor:1'] ?? []);
    const heapStart = leakStart.bot.heapAfterGc ?? 0;
    const heapEnd = end.bot.heapAfterGc ?? 0;
    const ratio = (a: number | null | undefined, b: number | null | undefined) =>
      a == null || b == null || b === 0 ? null : round(a / b, 2);
    return {
      benchmark: 'bot next to a bare Bolt app and the floor of the stack, interleaved',
      floor_post: process.env.BENCH_FLOOR_POST === 'got' ? 'got' : 'node:http',
      command: `/gl ${COMMAND}`,
      button: `${BUTTON.label} on the answer to /gl ${BUTTON.command}`,
      rounds: ROUNDS,
      node: process.version,
      cpus: os.cpus().length,
      load_average: os.loadavg().map((x) => round(x, 2)),
      bot,
      bare,
      floor,
      ratios: {
        ack_p50_c1: ratio(bot.c1.ack_p50_ms, bare.c1.ack_p50_ms),
        ack_p50_c50: ratio(bot.c50.ack_p50_ms, bare.c50.ack_p50_ms),
        per_s_c200: ratio(bot.c200.per_s, bare.c200.per_s),
        cpu_per_command_c50: ratio(bot.c50.cpu_ms_per_command.server, bare.c50.cpu_ms_per_command.server),
        cpu_per_command_c200: ratio(bot.c200.cpu_ms_per_command.server, bare.c200.cpu_ms_per_command.server),
        rss_at_end: ratio(end.bot.memory.rss, end.bare.memory.rss),
      },
      // What the stack costs before the bot adds anything (floor ÷ bare).
      floor_ratios: {
        ack_p50_c1_vs_bare: ratio(floor.c1.ack_p50_ms, bare.c1.ack_p50_ms),
        cpu_per_command_c50_vs_bare: ratio(floor.c50.cpu_ms_per_command.server, bare.c50.cpu_ms_per_command.server),
        cpu_per_command_c200_vs_bare: ratio(floor.c200.cpu_ms_per_command.server, bare.c200.cpu_ms_per_command.server),
      },
      // What the bot adds to the floor (bot ÷ floor): issue 30's targets.
      vs_floor: {
        cpu_per_command_c50: ratio(bot.c50.cpu_ms_per_command.server, floor.c50.cpu_ms_per_command.server),
        cpu_per_command_c200: ratio(bot.c200.cpu_ms_per_command.server, floor.c200.cpu_ms_per_command.server),
        bytes_allocated_per_command_c50: ratio(bot.c50.kib_allocated_per_command, floor.c50.kib_allocated_per_command),
        ack_p50_c1: ratio(bot.c1.ack_p50_ms, floor.c1.ack_p50_ms),
        answers_per_s_c200: ratio(bot.c200.per_s, floor.c200.per_s),
        end_to_end_overhead_c1: ratio(botOwn.p50_ms, floorOwn.p50_ms),
        answer_p50_c1: ratio(bot.c1.answer_p50_ms, floor.c1.answer_p50_ms),
        rss_at_end: ratio(end.bot.memory.rss, end.floor.memory.rss),
        rss_as_left_by_the_load: ratio(asLeft.bot.memory.rss, asLeft.floor.memory.rss),
      },
      // The same two ratios at 1 in flight round by round: a first round far above the others means the warm-up
      // left an app still being optimised.
      vs_floor_c1_by_round: Array.from({ length: ROUNDS }, (_, r) => {
        const ofRound = (key: string) => (phases[key] ?? []).slice(r * C1_SLICES, (r + 1) * C1_SLICES);
        return {
          ack_p50: ratio(summarise(ofRound('bot:1')).ack_p50_ms, summarise(ofRound('floor:1')).ack_p50_ms),
          end_to_end_overhead: ratio(
            withoutSimulator(ofRound('bot:1')).p50_ms,
            withoutSimulator(ofRound('floor:1')).p50_ms,
          ),
        };
      }),
      end_to_end_minus_simulator: {
        read: botOwn,
        button: withoutSimulator(phases.button ?? []),
        floor: floorOwn,
      },
      ...(STAGES
        ? {
            stages_at_c1: {
              read: stagesOf(phases['bot:1'] ?? []),
              button: stagesOf(phases.button ?? []),
              floor: stagesOf(phases['floor:1'] ?? []),
            },
          }
        : {}),
      latency_check: latencyRun && {
        simulator_latency_ms: 50,
        ...latencyRun,
        every_one_acked_and_answered:
          latencyRun.acked === latencyRun.commands &&
          latencyRun.answered === latencyRun.commands &&
          latencyRun.wrong_answers === 0,
        ack_p50_vs_no_latency: ratio(latencyRun.ack_p50_ms, bot.c200.ack_p50_ms),
      },
      heap_check: {
        commands: leak.reduce((s, ph) => s + ph.run.sent, 0),
        unanswered: leak.reduce((s, ph) => s + ph.run.missingAnswers + ph.run.sent - ph.run.acked, 0),
        heap_after_gc_start_mib: MiB(heapStart),
        heap_after_gc_end_mib: MiB(heapEnd),
        growth: round(heapEnd / heapStart - 1, 3),
        rss_start_mib: MiB(leakStart.bot.memory.rss),
        rss_end_mib: MiB(end.bot.memory.rss),
        bare_rss_end_mib: MiB(end.bare.memory.rss),
        floor_rss_end_mib: MiB(end.floor.memory.rss),
      },
    };
  } finally {
    for (const c of [p.floor, p.bare, p.bot, p.load, p.sim]) await c.stop();
    fs.rmSync(p.dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await sideBySide();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
