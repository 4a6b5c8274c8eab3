import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../../src/sim/index.js';
import type { WatchPoint } from '../../../src/watch/types.js';
import { type BuiltBot, buildBot, startBuiltBot } from '../../support/built-bot.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { messageText, SlackDriver } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The built bot as processes, killed with SIGKILL (as `kill -9`) at each point of a watch's delivery: before its
// card is posted, after it, after the fixed card was redrawn, after the reply in its thread. Restarted on the same
// database (or with a second replica running beside it), the channel gets the card once and the fix once: nothing
// twice and nothing lost. The kill comes from the test-only seam in main.ts (WATCH_TEST_KILL_AT); polls come every
// second and leases run out in 1.5 s (WATCH_TEST_TIMING). The simulator's tick fails a pipeline of demo/web and
// then passes a fix of it (src/sim/domain/watched-pipelines.ts).

let build: { dir: string; remove(): void };
let dataDir: string;
let sim: RunningSimulator;
let fake: FakeSlack;
const signingSecret = crypto.randomBytes(16).toString('hex');
const encryptionKey = crypto.randomBytes(32).toString('base64');
const running: BuiltBot[] = [];

type Bot = BuiltBot & { slack: SlackDriver };

async function startBot(o: { killAt?: WatchPoint; tickMs?: number } = {}): Promise<Bot> {
  const bot = await startBuiltBot(build.dir, {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: encryptionKey,
    DATABASE_PATH: path.join(dataDir, 'bot.db'),
    LOG_LEVEL: 'info',
    WATCH_TEST_TIMING: JSON.stringify({ intervalMs: 1000, tickMs: o.tickMs ?? 100, leaseMs: 1500 }),
    ...(o.killAt ? { WATCH_TEST_KILL_AT: o.killAt } : {}),
  });
  running.push(bot);
  return { ...bot, slack: new SlackDriver({ botUrl: bot.url, signingSecret, fake, command: '/gl' }) };
}

async function stopBot(bot: BuiltBot): Promise<void> {
  running.splice(running.indexOf(bot), 1);
  if (bot.child.exitCode !== null || bot.child.signalCode !== null) return;
  bot.child.kill('SIGTERM');
  expect((await bot.exited).code).toBe(0);
}

async function until<T>(what: string, check: () => T | null | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = check();
    if (found) return found;
    if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const cards = (channel: string) =>
  [...fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral && !m.threadTs);
const replies = (channel: string) => [...fake.messages.values()].filter((m) => m.channel === channel && m.threadTs);
const fixed = (channel: string) => cards(channel).filter((m) => messageText(m).includes('Fixed by'));

function ticks(n: number): void {
  for (let i = 0; i < n; i++) sim.tick();
}

async function makeWatch(bot: Bot, channel: string): Promise<void> {
  const made = await bot.slack.command(PEOPLE.alice, 'watch pipelines demo/web', { channel });
  expect(await made.waitForMessage((t) => /Watch #\d+/.test(t), 10_000)).not.toBeNull();
}

/** A few polls more: long enough for anything posted twice to show. */
const settle = () => new Promise((r) => setTimeout(r, 3000));

beforeAll(async () => {
  build = await buildBot();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-watch-kill-'));
  sim = await startSimulator({ port: 0, seed: 'demo' });
  fake = await startFakeSlack(`xoxb-watch-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));
  // Alice connects once; her token stays in the database across every restart below.
  const bot = await startBot();
  const command = await bot.slack.command(PEOPLE.alice, 'connect');
  const opened = await command.waitFor((r) => r.method === 'views.open' && r.ok, 10_000);
  if (!opened?.view) throw new Error(`no connect modal: ${command.text()}`);
  const blocks = opened.view.blocks as { type: string; block_id: string }[];
  const input = blocks.find((b) => b.type === 'input');
  const submission = await bot.slack.submitView(PEOPLE.alice, opened.view, { [input?.block_id ?? '']: TOKENS.alice });
  expect(submission.ack.json).toMatchObject({ response_action: 'update' });
  await stopBot(bot);
}, 240_000);

beforeEach(() => {
  sim.reset();
});

afterEach(async () => {
  for (const bot of [...running]) await stopBot(bot);
  const db = new Database(path.join(dataDir, 'bot.db'));
  db.prepare('DELETE FROM watch_cards').run();
  db.prepare('DELETE FROM watches').run();
  db.close();
});

afterAll(async () => {
  await fake?.close();
  await sim?.close();
  build?.remove();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a bot killed with SIGKILL while it delivers what a watch found', () => {
  for (const point of ['before-post', 'after-post'] as WatchPoint[]) {
    it(`${point.replace('-', ' ')} of the failure's card: restarted, it posts the card once, then the fix once`, async () => {
      const channel = `C0WK${point.slice(0, 5).toUpperCase().replace('-', '')}`;
      const doomed = await startBot({ killAt: point });
      await makeWatch(doomed, channel);
      ticks(5); // the pipeline of fix/checkout-total failed
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(cards(channel)).toHaveLength(point === 'before-post' ? 0 : 1);

      const restarted = await startBot();
      await until('the card', () => cards(channel).length === 1);
      ticks(1); // the fix passed
      await until('the fix', () => replies(channel).length === 1 && fixed(channel).length === 1);
      await settle();
      expect(cards(channel)).toHaveLength(1);
      expect(replies(channel)).toHaveLength(1);
      expect(restarted.output()).not.toContain(TOKENS.alice);
    }, 120_000);
  }

  for (const point of ['after-update', 'after-reply'] as WatchPoint[]) {
    it(`${point.replace('-', ' ')} of the fix: restarted, the card is fixed and the thread gets one reply`, async () => {
      const channel = `C0WK${point.slice(6).toUpperCase()}`;
      const first = await startBot();
      await makeWatch(first, channel);
      ticks(5);
      await until('the card', () => cards(channel).length === 1);
      await stopBot(first);

      const doomed = await startBot({ killAt: point });
      ticks(1);
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(fixed(channel)).toHaveLength(1);
      expect(replies(channel)).toHaveLength(point === 'after-reply' ? 1 : 0);

      await startBot();
      await until('the reply', () => replies(channel).length === 1);
      await settle();
      expect(cards(channel)).toHaveLength(1);
      expect(fixed(channel)).toHaveLength(1);
      expect(replies(channel)).toHaveLength(1);
      expect(replies(channel)[0]?.threadTs).toBe(cards(channel)[0]?.ts);
    }, 120_000);
  }
});

describe('two replicas on one database', () => {
  it('poll each watch once per interval between them; one killed after posting leaves the other to finish, once', async () => {
    const channel = 'C0WREPL';
    const doomed = await startBot({ killAt: 'after-post', tickMs: 50 });
    const other = await startBot({ tickMs: 700 });
    await makeWatch(other, channel);

    // Both look for due watches all the time; the lease lets one poll each time: about one read a second.
    const from = sim.requests().length;
    const started = Date.now();
    await new Promise((r) => setTimeout(r, 4000));
    const reads = sim
      .requests()
      .slice(from)
      .filter((r) => r.method === 'GET' && r.path.endsWith('/pipelines'));
    const seconds = (Date.now() - started) / 1000;
    expect(reads.length).toBeGreaterThanOrEqual(2);
    expect(reads.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);

    ticks(5);
    await until('the card', () => cards(channel).length === 1);
    // Whichever replica posted it: the doomed one died right after, and the other settles what it left.
    const killed = await Promise.race([doomed.exited, new Promise((r) => setTimeout(() => r(null), 1500))]);
    ticks(1);
    await until('the fix', () => replies(channel).length === 1 && fixed(channel).length === 1);
    await settle();
    expect(cards(channel)).toHaveLength(1);
    expect(replies(channel)).toHaveLength(1);
    if (killed) expect(killed).toEqual({ code: null, signal: 'SIGKILL' });
  }, 120_000);
});
