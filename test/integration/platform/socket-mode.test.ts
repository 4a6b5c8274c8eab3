import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotApp, createApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { type FakeSlack, startFakeSlack } from '../../../src/console/fake-slack.js';
import { slashCommandBody } from '../../../src/console/payloads.js';
import { createLogger } from '../../../src/log.js';
import { createChannelStore } from '../../../src/store/channel-store.js';
import { type Db, openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine } from '../../../src/store/engine.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createTokenStore } from '../../../src/store/token-store.js';
import { fakeClock } from '../../support/clock.js';
import { PEOPLE, QUICK_SLACK } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Socket Mode end to end: the bot opens its socket through the fake Slack's apps.connections.open,
// /readyz says 503 until Slack's hello and whenever the socket is down (/healthz: alive), and a slash command sent
// over the socket is acknowledged and answered through its response_url.

const BOT_TOKEN = `xoxb-socket-${crypto.randomBytes(6).toString('hex')}`;
const APP_TOKEN = `xapp-1-socket-${crypto.randomBytes(6).toString('hex')}`;
const METRICS_TOKEN = crypto.randomBytes(18).toString('hex');

async function health(port: number): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: res.status, body: await res.text() };
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read().catch(() => undefined as T);
    if (v !== undefined && ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`never happened; last ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

let fake: FakeSlack;
let sim: RunningSimulator;
let bot: BotApp;
let db: Db;
let port: number;
let dir: string;
let started: Promise<unknown>;

beforeAll(async () => {
  const clock = fakeClock();
  sim = await startSim(clock);
  fake = await startFakeSlack(BOT_TOKEN, Object.values(PEOPLE), { appToken: APP_TOKEN });
  fake.socketMode.holdHello = true;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-socket-'));
  const config = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_API_URL: fake.apiUrl,
    PORT: '0',
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: crypto.randomBytes(32).toString('base64'),
    DATABASE_PATH: path.join(dir, 'bot.db'),
    METRICS_TOKEN,
  });
  db = openDatabase(config.databasePath);
  const tokens = createTokenStore(db, createSealer(config.encryption));
  await tokens.save({
    teamId: 'T0TEST',
    userId: PEOPLE.alice.id,
    token: TOKENS.alice,
    serverUrl: sim.url,
    verifiedAt: clock.now(),
    username: 'alice',
  });
  const logger = createLogger({ level: 'error', sink: () => {} });
  // Reconnects step by QUICK_SLACK's ping timeout, not Slack's 5 s.
  bot = createApp({
    config,
    logger,
    engine: createSqliteEngine(db),
    tokens,
    channels: createChannelStore(db),
    now: clock.now,
    slackTiming: QUICK_SLACK,
  });
  started = bot.start();
  // The health port is bound before Slack says hello; port 0 lets the system pick it.
  ({ port } = await bot.listening());
});

afterAll(async () => {
  await bot?.stop().catch(() => {});
  db?.close();
  await fake?.close();
  await sim?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('Socket Mode', () => {
  it('answers /readyz with 503 until Slack says hello on the socket, then 200', async () => {
    const before = await until(
      () => health(port),
      () => fake.socketMode.connections > 0,
    );
    expect(before.status).toBe(503);
    expect(JSON.parse(before.body)).toEqual({ status: 'not connected to Slack', mode: 'socket' });
    expect(fake.calls('apps.connections.open').map((r) => r.ok)).toEqual([true]);

    fake.socketMode.releaseHello();
    await started;
    const after = await until(
      () => health(port),
      (h) => h.status === 200,
    );
    expect(JSON.parse(after.body)).toEqual({ status: 'ok', mode: 'socket' });
  });

  it('carries out a slash command sent over the socket and answers through its response_url', async () => {
    const responseUrl = fake.registerResponseUrl({ channel: 'C0SOCK', user: PEOPLE.alice.id });
    const body = slashCommandBody({
      user: PEOPLE.alice,
      command: '/gl',
      text: 'job demo/web 8',
      channel: 'C0SOCK',
      responseUrl,
      triggerId: fake.issueTrigger(),
    });
    const from = fake.lastSeq;
    const ack = await fake.socketMode.send('slash_commands', Object.fromEntries(new URLSearchParams(body)));
    expect(ack).not.toBeNull();
    const answer = await fake.waitFor((r) => r.kind === 'response_url' && /Job #8/.test(String(r.body.text)), {
      fromSeq: from,
    });
    expect(answer?.ok).toBe(true);
    expect(sim.requests().some((r) => r.path === '/api/v4/projects/demo%2Fweb/jobs/8' && r.user === 'alice')).toBe(
      true,
    );
  });

  it('serves /metrics on its port to the metrics token only, the command counted', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^glbot_commands_total\{noun="job",verb="show",outcome="ok"\} 1$/m);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  });

  it('answers 503 again while the socket is down, and 200 once the client has reconnected', async () => {
    fake.socketMode.holdHello = true;
    fake.socketMode.dropAll();
    const down = await until(
      () => health(port),
      (h) => h.status === 503,
    );
    expect(JSON.parse(down.body).status).toBe('not connected to Slack');
    fake.socketMode.releaseHello();
    await until(
      () => health(port),
      (h) => h.status === 200,
    );
    expect(fake.calls('apps.connections.open').length).toBeGreaterThanOrEqual(2);
  }, 30_000);
});
