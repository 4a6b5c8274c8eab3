// `/gl insights demo/web --days N` on a seeded history of 5,000 pipelines and about 500 deployments over 30 days
// (the simulator in a process of its own, so its CPU is not the bot's). Prints one JSON object: API calls, bot CPU
// and wall time per command, cold (the first: echarts and resvg load) and warm (median of the next ones, each with
// another --days so none is answered from the cache), and one answer from the cache.
//
//   npx tsx bench/insights.ts     (BENCH_PIPELINES, default 5000; BENCH_DEPLOYMENTS, default 500; BENCH_RUNS, 5)

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PEOPLE, signedRequest, slashCommandBody, startFakeSlack, TEAM } from '../src/console/index.js';
import {
  createApp,
  createChannelStore,
  createLogger,
  createSealer,
  createSqliteEngine,
  createTokenStore,
  loadConfig,
  openDatabase,
} from '../src/index.js';
import { requestCount, startSim } from './sim-process.js';

const PIPELINES = Number(process.env.BENCH_PIPELINES ?? 5000);
const DEPLOYMENTS = Number(process.env.BENCH_DEPLOYMENTS ?? 500);
const RUNS = Math.max(2, Number(process.env.BENCH_RUNS ?? 5));
const CHANNEL = 'C0BENCH';

const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const round = (x: number) => Math.round(x * 10) / 10;

const seedStart = performance.now();
const sim = await startSim({ SIM_HISTORY: `${PIPELINES}:${DEPLOYMENTS}` });
const seedMs = performance.now() - seedStart;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-bench-insights-'));
const botToken = `xoxb-bench-${crypto.randomBytes(8).toString('hex')}`;
const signingSecret = crypto.randomBytes(16).toString('hex');
const fake = await startFakeSlack(botToken, Object.values(DEMO_PEOPLE));
try {
  const config = loadConfig({
    SLACK_BOT_TOKEN: botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    DATABASE_PATH: path.join(dataDir, 'bot.db'),
  });
  const db = openDatabase(config.databasePath);
  const engine = createSqliteEngine(db);
  const tokens = createTokenStore(engine, createSealer(config.encryption));
  await tokens.save({
    teamId: TEAM.id,
    userId: DEMO_PEOPLE.alice.id,
    token: 'sim-alice-token',
    serverUrl: config.gitlabUrl,
    verifiedAt: new Date(),
    username: 'alice',
  });
  const bot = createApp({
    config,
    logger: createLogger({ level: 'error', sink: () => {} }),
    engine,
    tokens,
    channels: createChannelStore(engine),
  });
  const { port } = await bot.start();

  /** One command, timed from its POST to the card in the channel (with its chart uploaded before it). */
  async function ask(days: number) {
    const seen = new Set(fake.messages.keys());
    const text = `insights demo/web --days ${days} --share`;
    const responseUrl = fake.registerResponseUrl({ channel: CHANNEL, user: DEMO_PEOPLE.alice.id });
    const raw = slashCommandBody({
      user: DEMO_PEOPLE.alice,
      command: '/gl',
      text,
      channel: CHANNEL,
      responseUrl,
      triggerId: fake.issueTrigger(),
    });
    const { headers, body } = signedRequest(signingSecret, raw);
    const calls = await requestCount(sim.url);
    const cpu = process.cpuUsage();
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST', headers, body });
    if (res.status !== 200) throw new Error(`the bot answered ${res.status}`);
    for (;;) {
      const card = [...fake.messages.values()].find(
        (m) => !seen.has(m.key) && !m.deleted && /Insights · demo\/web/.test(m.text + JSON.stringify(m.blocks ?? [])),
      );
      if (card) {
        const wallMs = performance.now() - started;
        const cpuUsed = cpuMs(process.cpuUsage(cpu));
        const blocks = JSON.stringify(card.blocks ?? []);
        return {
          days,
          calls: (await requestCount(sim.url)) - calls,
          cpu_ms: round(cpuUsed),
          wall_ms: Math.round(wallMs),
          capped: /Only the newest/.test(blocks),
          from: /From (\d+) pipelines? and (\d+) deployments?/.exec(blocks)?.slice(1, 3).map(Number) ?? null,
          card_bytes: blocks.length,
        };
      }
      if (performance.now() - started > 60_000) throw new Error(`no card for ${text}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  const cold = await ask(30);
  const warm = [];
  for (let i = 1; i < RUNS; i += 1) warm.push(await ask(30 - i));
  const cached = await ask(30 - (RUNS - 1));
  const result = {
    bench: 'insights',
    history: { pipelines: PIPELINES, deployments_about: DEPLOYMENTS, days: 30, sim_start_ms: Math.round(seedMs) },
    cold,
    warm: {
      runs: warm.length,
      calls: median(warm.map((w) => w.calls)),
      cpu_ms: median(warm.map((w) => w.cpu_ms)),
      wall_ms: median(warm.map((w) => w.wall_ms)),
      capped: warm.every((w) => w.capped),
      from: warm[0]?.from ?? null,
    },
    cached: { calls: cached.calls, cpu_ms: cached.cpu_ms, wall_ms: cached.wall_ms },
    load_average: os.loadavg().map(round),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await bot.stop();
  db.close();
} finally {
  await fake.close();
  sim.child.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
