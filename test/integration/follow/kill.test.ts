import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowPoint } from '../../../src/follow/service.js';
import { type RunningSimulator, startSimulator } from '../../../src/sim/index.js';
import { type BuiltBot, buildBot, startBuiltBot } from '../../support/built-bot.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { freshPostgresUrl } from '../../support/postgres.js';
import { messageText, SlackDriver } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The built bot as a process following a shared pipeline card, killed with SIGKILL (the test-only seam
// FOLLOW_TEST_KILL_AT of main.ts) just before and just after the final DM is posted. Restarted on the same database,
// the follow goes on and the DM comes exactly once. Then two replicas on one database (a SQLite file, or with
// FOLLOW_ENGINE=postgres one PostgreSQL database), one of them killed mid-follow: every follow ends with one DM.
// The simulator runs on real time here; its runner moves on when the test ticks it.

const onPostgres = process.env.FOLLOW_ENGINE === 'postgres';
let build: { dir: string; remove(): void } | undefined;
let dataDir: string;
let databaseUrl = '';
let sim: RunningSimulator;
let fake: FakeSlack;
const signingSecret = crypto.randomBytes(16).toString('hex');
const encryptionKey = crypto.randomBytes(32).toString('base64');
const ALICE_DM = 'D0ALICE';

type Bot = BuiltBot & { slack: SlackDriver };

async function startBot(killAt?: FollowPoint): Promise<Bot> {
  const bot = await startBuiltBot((build as { dir: string }).dir, {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: encryptionKey,
    ...(onPostgres ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: path.join(dataDir, 'bot.db') }),
    LOG_LEVEL: 'info',
    // Polls every few hundred ms; a follow a killed process held is taken over once its short lease runs out.
    FOLLOW_TEST_TIMING: JSON.stringify({ pollMs: 250, leaseMs: 1500, shareEveryMs: 250 }),
    ...(killAt ? { FOLLOW_TEST_KILL_AT: killAt } : {}),
  });
  return { ...bot, slack: new SlackDriver({ botUrl: bot.url, signingSecret, fake, command: '/gl' }) };
}

async function stopBot(bot: Bot): Promise<void> {
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

/** The DMs alice got about pipeline `id`. */
const dmsAbout = (id: number) =>
  [...fake.messages.values()]
    .filter((m) => m.channel === ALICE_DM && !m.ephemeral)
    .map(messageText)
    .filter((t) => t.includes(`Pipeline #${id} on`));

/** Runs a pipeline with its card shared in `channel`; resolves with its id. */
async function runShared(bot: Bot, channel: string): Promise<number> {
  const it = await bot.slack.command(PEOPLE.alice, 'pipeline run demo/web main --share', { channel });
  const card = await it.waitForMessage((t) => /Pipeline #\d+ · main/.test(t), 10_000);
  const id = Number(/Pipeline #(\d+) · main/.exec(card ? messageText(card) : '')?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** Ticks the simulator's runner every 300 ms while `going` holds. */
async function tickWhile(going: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (going()) {
    if (Date.now() > deadline) expect.fail('timed out ticking');
    sim.tick();
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  build = await buildBot();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-follow-kill-'));
  if (onPostgres) databaseUrl = await freshPostgresUrl();
  sim = await startSimulator({ port: 0, seed: 'demo' });
  fake = await startFakeSlack(`xoxb-follow-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));
  // Alice connects once; her token stays in the database across every restart below.
  const bot = await startBot();
  const command = await bot.slack.command(PEOPLE.alice, 'connect');
  const opened = await command.waitFor((r) => r.method === 'views.open' && r.ok, 10_000);
  if (!opened?.view) throw new Error(`no connect modal: ${command.text()}`);
  const input = (opened.view.blocks as { type: string; block_id: string }[]).find((b) => b.type === 'input');
  const submission = await bot.slack.submitView(PEOPLE.alice, opened.view, { [input?.block_id ?? '']: TOKENS.alice });
  expect(submission.ack.json).toMatchObject({ response_action: 'update' });
  await stopBot(bot);
}, 240_000);

afterAll(async () => {
  await fake?.close();
  await sim?.close();
  build?.remove();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a bot killed with SIGKILL while a card follows its pipeline', () => {
  for (const point of ['before-dm', 'after-dm'] as FollowPoint[]) {
    it(`${point.replace('-', ' ')}: restarted on the same database, the follow goes on and the DM comes once`, async () => {
      const doomed = await startBot(point);
      const id = await runShared(doomed, `C0FK${point === 'before-dm' ? 'B' : 'A'}`);
      let killed = false;
      void doomed.exited.then(() => {
        killed = true;
      });
      await tickWhile(() => !killed);
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(dmsAbout(id)).toHaveLength(point === 'before-dm' ? 0 : 1);

      const restarted = await startBot();
      try {
        await until('the follow to end after the restart', () =>
          restarted.output().match(/"msg":"follow (finished|settled)"/),
        );
        // A moment more: nothing else comes.
        await new Promise((r) => setTimeout(r, 1000));
        expect(dmsAbout(id)).toEqual([expect.stringMatching(new RegExp(`Pipeline #${id} on \`main\`> passed`))]);
        expect(restarted.output()).toMatch(
          point === 'before-dm' ? /"msg":"follow finished"/ : /"msg":"follow settled"/,
        );
        expect(restarted.output()).not.toContain(TOKENS.alice);
        expect(restarted.output()).not.toContain('/response');
      } finally {
        await stopBot(restarted);
      }
    }, 120_000);
  }
});

describe('two replicas on one database', () => {
  it('follow every card once; a replica killed mid-follow is taken over and each DM still comes once', async () => {
    // The doomed replica runs alone until it dies, so it surely holds follows when it does (two live replicas
    // share the due follows by chance); then two replicas take over its follows and share two more.
    const doomed = await startBot('before-dm');
    const live: Bot[] = [];
    try {
      const ids: number[] = [];
      for (let i = 0; i < 2; i++) ids.push(await runShared(doomed, `C0FREP${i}`));
      let killed = false;
      void doomed.exited.then(() => {
        killed = true;
      });
      await tickWhile(() => !killed, 60_000);
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      live.push(await startBot(), await startBot());
      for (let i = 2; i < 4; i++) ids.push(await runShared(live[i % 2] as Bot, `C0FREP${i}`));
      await tickWhile(() => ids.some((id) => dmsAbout(id).length === 0), 60_000);
      await new Promise((r) => setTimeout(r, 1000));
      for (const id of ids) expect(dmsAbout(id), `pipeline #${id}`).toHaveLength(1);
      expect(live.map((bot) => bot.output()).join('\n')).toMatch(/"msg":"follow finished"/);
    } finally {
      for (const bot of live) await stopBot(bot);
      await stopBot(doomed);
    }
  }, 180_000);
});
