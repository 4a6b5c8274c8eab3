// 10,000 people with todo alerts on and nothing new, each with a token of their own, polled through one minute against the simulator (in a process
// of its own, so its CPU is not the bot's). Prints one JSON object: API calls per idle poll (goal 1), bot CPU per
// idle poll (goal ≤ 0.5 ms), the time the minute's polls kept the bot busy (it must fit in a minute), RSS, and the
// load average it ran at.
//
//   npx tsx bench/alerts.ts        (BENCH_ALERTS, default 10000; BENCH_CONCURRENCY, default 16; BENCH_ALERT_MINUTES, 3)
//
// The bot runs on a clock of the bench's own: a first pass polls everyone (due at once, as after a start) and puts
// each person in their slot of the minute; then the clock steps through the next minute two seconds at a time, as
// the bot's tick does, and each step polls whoever is due. Time stands still during a step, so the busy time is the
// sum of the steps' real time, and a minute of the bot's work is measured in seconds. Three such minutes are measured
// (BENCH_ALERT_MINUTES) and the median one reported; each must poll everyone once, with one call each.

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PEOPLE, startFakeSlack } from '../src/console/index.js';
import {
  ALERT_ACTIONS,
  createAlertStore,
  createApp,
  createChannelStore,
  createLogger,
  createSealer,
  createSqliteEngine,
  createTokenStore,
  loadConfig,
  openDatabase,
} from '../src/index.js';
import { countAllocations } from './allocated.js';
import { profiled } from './profiled.js';
import { addTokens, applyRateLimit, requestCount, startSim } from './sim-process.js';

const COUNT = Number(process.env.BENCH_ALERTS ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const TEAM = 'T0TEST';
/** The simulator's users the people are (in turn); each person has a token of their own. */
const OWNERS = ['alice', 'bob', 'eve', 'root'];

const cpuMsOf = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
/** Minutes measured after the warm pass; the median one is reported (BENCH_ALERT_MINUTES, default 3). */
const MINUTES = Math.max(1, Number(process.env.BENCH_ALERT_MINUTES ?? 3));
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

const sim = await startSim();
// BENCH_RATE_LIMIT=n: the simulator answers with GitLab's RateLimit-* headers (n calls per user per minute), so
// the token budget's work on them is in the figures; unset, it sends none, as a server without rate limits.
const RATE_LIMIT = Number(process.env.BENCH_RATE_LIMIT ?? 0);
await applyRateLimit(sim.url, RATE_LIMIT);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-bench-alerts-'));
const botToken = `xoxb-bench-${crypto.randomBytes(8).toString('hex')}`;
const fake = await startFakeSlack(botToken, Object.values(DEMO_PEOPLE));
try {
  const config = loadConfig({
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: crypto.randomBytes(16).toString('hex'),
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    DATABASE_PATH: path.join(dataDir, 'bot.db'),
  });
  const db = openDatabase(config.databasePath);
  const tokens = createTokenStore(db, createSealer(config.encryption));
  const now = new Date();
  // 10,000 people, each with a token of their own that the simulator takes for one of the demo's users; every todo
  // already seen.
  const people = Array.from({ length: COUNT }, (_, i) => `UB${String(i).padStart(7, '0')}`);
  const usernameOf = (i: number) => OWNERS[i % OWNERS.length] as string;
  const tokenOf = (i: number) => `bench-${usernameOf(i)}-${i}-${crypto.randomBytes(10).toString('hex')}`;
  const personTokens = people.map((_, i) => tokenOf(i));
  for (const username of OWNERS)
    await addTokens(
      sim.url,
      username,
      personTokens.filter((_, i) => usernameOf(i) === username),
    );
  for (const [i, userId] of people.entries()) {
    await tokens.save({
      teamId: TEAM,
      userId,
      token: personTokens[i] as string,
      serverUrl: config.gitlabUrl,
      verifiedAt: now,
      username: usernameOf(i),
    });
  }
  // Turned on as `/gl notify on` turns them on, every todo already seen, all due at once (as after a start).
  const alertStore = createAlertStore(createSqliteEngine(db));
  const due = new Date(now.getTime() - 1000);
  for (const userId of people) {
    await alertStore.enable(
      { teamId: TEAM, userId, actions: [...ALERT_ACTIONS], quiet: null, tz: 'UTC' },
      1_000_000_000,
      due,
    );
  }

  let virtual = now.getTime();
  const logger = createLogger({ level: 'warn', sink: () => {} });
  const bot = createApp({
    config,
    logger,
    engine: createSqliteEngine(db),
    tokens,
    channels: createChannelStore(db),
    now: () => new Date(virtual),
    alerts: { timer: 'manual', concurrency: CONCURRENCY },
    digests: { timer: 'manual' },
  });
  await bot.start();

  // Everyone due at once (a start): polled once, each moved into their slot, 29 to 89 s on.
  const first = performance.now();
  const warm = await bot.alerts.pollDue();
  const firstWallMs = performance.now() - first;

  // Three minutes measured, the median one reported (as the watches bench does with its cycles): one minute's CPU
  // moves with what else the machine and the collector do in it.
  type PollsOf = Awaited<ReturnType<typeof bot.alerts.pollDue>>;
  const rssBefore = process.memoryUsage().rss;
  const minutes: { cpuMs: number; bytes: number; calls: number; wallMs: number; polls: PollsOf }[] = [];
  for (let minute = 0; minute < MINUTES; minute++) {
    const callsBefore = await requestCount(sim.url);
    const allocated = countAllocations();
    const cpu = process.cpuUsage();
    let wallMs = 0;
    const polls = await profiled(`alerts-minute-${minute}`, async () => {
      const out: PollsOf = [];
      for (let step = 0; step < 30; step++) {
        virtual = now.getTime() + 29_000 + (minute * 30 + step + 1) * 2000;
        const t0 = performance.now();
        out.push(...(await bot.alerts.pollDue()));
        wallMs += performance.now() - t0;
      }
      return out;
    });
    const cpuMs = cpuMsOf(process.cpuUsage(cpu));
    minutes.push({ cpuMs, bytes: allocated(), calls: (await requestCount(sim.url)) - callsBefore, wallMs, polls });
  }
  const perPoll = (m: (typeof minutes)[number]) => m.cpuMs / Math.max(1, m.polls.length);
  const median = [...minutes].sort((x, y) => perPoll(x) - perPoll(y))[
    Math.floor(minutes.length / 2)
  ] as (typeof minutes)[number];
  const { polls, wallMs, calls } = median;
  const passBytes = median.bytes;
  const outcomes: Record<string, number> = {};
  for (const p of polls) outcomes[p.outcome.kind] = (outcomes[p.outcome.kind] ?? 0) + 1;
  const polledPeople = new Set(polls.map((p) => p.userId)).size;
  const everyMinuteWhole = minutes.every(
    (m) =>
      m.polls.length === COUNT &&
      m.calls === COUNT &&
      m.polls.every((p) => p.outcome.kind === 'idle') &&
      new Set(m.polls.map((p) => p.userId)).size === COUNT,
  );
  const posts = fake.calls('chat.postMessage').length;
  await bot.stop();
  db.close();

  const perPollCpu = perPoll(median);
  const callsPerPoll = calls / polls.length;
  process.stdout.write(
    `${JSON.stringify({
      benchmark: 'alerts: one minute of polls, nothing new (the median of the minutes measured)',
      node: process.version,
      cpus: os.cpus().length,
      // CPU per poll grows with the machine's load (time slices, caches): read it next to this.
      load_average: os.loadavg().map((x) => Math.round(x * 100) / 100),
      rate_limit_headers: RATE_LIMIT > 0 ? RATE_LIMIT : null,
      subscribers: COUNT,
      distinct_tokens: new Set(personTokens).size,
      concurrency: CONCURRENCY,
      first_pass: { polls: warm.length, wall_ms: Math.round(firstWallMs) },
      polls_in_the_minute: polls.length,
      people_polled_in_the_minute: polledPeople,
      outcomes,
      slack_posts: posts,
      api_calls_per_idle_poll: Math.round(callsPerPoll * 1000) / 1000,
      bot_cpu_ms_per_idle_poll: Math.round(perPollCpu * 1000) / 1000,
      // Bytes allocated do not grow with the machine's load: the steadiest figure to compare two runs by.
      bot_kib_allocated_per_idle_poll: Math.round((passBytes / polls.length / 1024) * 10) / 10,
      minute_busy_wall_ms: Math.round(wallMs),
      measured_minutes_cpu_ms_per_poll: minutes.map((m) => Math.round(perPoll(m) * 1000) / 1000),
      polls_per_second: Math.round(polls.length / (wallMs / 1000)),
      rss_before_mb: mb(rssBefore),
      rss_mb: mb(process.memoryUsage().rss),
      peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
      goals: { api_calls_per_idle_poll: 1, bot_cpu_ms_per_idle_poll: 0.5, minute_busy_wall_ms: 60_000 },
      meets_goals:
        callsPerPoll <= 1 &&
        perPollCpu <= 0.5 &&
        wallMs <= 60_000 &&
        outcomes.idle === COUNT &&
        polls.length === COUNT &&
        polledPeople === COUNT &&
        everyMinuteWhole,
    })}\n`,
  );
} finally {
  await fake.close();
  sim.child.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
