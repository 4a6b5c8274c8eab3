import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunPoint } from '../../../src/digest/types.js';
import { type RunningSimulator, startSimulator } from '../../../src/sim/index.js';
import { buildBot, startBuiltBot } from '../../support/built-bot.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { messageText, SlackDriver } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The built bot as a process, killed with SIGKILL (as `kill -9`) at each point of a digest run's post: before the
// post, between the post and saving the cursor, and while saving it. Restarted on the same database, it posts
// every event exactly once. The kill comes from the test-only seam in main.ts (DIGEST_TEST_KILL_AT).
//
// The simulator and the fake Slack run in this process, so the bot is started with an asynchronous spawn. It is
// built into a directory of its own (test/support/built-bot.ts), so that another test file building dist/ at the
// same time cannot change it under this one.

let buildDir: string;
let build: { dir: string; remove(): void } | undefined;
let dataDir: string;
let sim: RunningSimulator;
let fake: FakeSlack;
const signingSecret = crypto.randomBytes(16).toString('hex');
const encryptionKey = crypto.randomBytes(32).toString('base64');

interface Bot {
  child: ChildProcess;
  slack: SlackDriver;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function startBot(killAt?: RunPoint): Promise<Bot> {
  const bot = await startBuiltBot(buildDir, {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: encryptionKey,
    DATABASE_PATH: path.join(dataDir, 'bot.db'),
    LOG_LEVEL: 'info',
    // The run a killed process held is taken over once its lease runs out: a short one here.
    DIGEST_TEST_TIMING: JSON.stringify({ leaseMs: 1500, sweepMs: 300 }),
    ...(killAt ? { DIGEST_TEST_KILL_AT: killAt } : {}),
  });
  const slack = new SlackDriver({ botUrl: bot.url, signingSecret, fake, command: '/gl' });
  return { child: bot.child, slack, output: bot.output, exited: bot.exited };
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

async function stopBot(bot: Bot): Promise<void> {
  if (bot.child.exitCode !== null || bot.child.signalCode !== null) return;
  bot.child.kill('SIGTERM');
  expect((await bot.exited).code).toBe(0);
}

async function openIssue(title: string): Promise<void> {
  const res = await fetch(`${sim.url}/api/v4/projects/demo%2Fweb/issues`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': TOKENS.bob, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title }).toString(),
  });
  expect(res.status).toBe(201);
}

const postsIn = (channel: string) =>
  [...fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral).map(messageText);

/** How many times each title was posted into the channel, over every post. */
function timesPosted(channel: string, titles: string[]): Record<string, number> {
  const all = postsIn(channel).join('\n');
  return Object.fromEntries(titles.map((t) => [t, all.split(`*${t}*`).length - 1]));
}

const runLine = (bot: Bot, id: number, outcome: string) =>
  bot
    .output()
    .split('\n')
    .find(
      (l) => l.includes('"msg":"digest run"') && l.includes(`"digest":${id},`) && l.includes(`"outcome":"${outcome}"`),
    );

beforeAll(async () => {
  build = await buildBot();
  buildDir = build.dir;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-kill-data-'));
  sim = await startSimulator({ port: 0, seed: 'demo' });
  fake = await startFakeSlack(`xoxb-kill-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));

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

afterAll(async () => {
  await fake?.close();
  await sim?.close();
  build?.remove();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a bot killed with SIGKILL during a digest run', () => {
  for (const point of ['before-post', 'after-post', 'while-saving'] as RunPoint[]) {
    it(`${point.replace('-', ' ')}: restarted on the same database, posts every event exactly once`, async () => {
      const channel = `C0KILL${point.slice(0, 2).toUpperCase()}`;
      const titles = [`${point} one`, `${point} two`, `${point} three`];

      const doomed = await startBot(point);
      const made = await doomed.slack.command(PEOPLE.alice, 'digest events demo/web --cron "15 3 29 2 *"', {
        channel,
      });
      const card = await made.waitForMessage((t) => /Digest #\d+/.test(t), 10_000);
      const id = Number(/Digest #(\d+)/.exec(card ? messageText(card) : '')?.[1]);
      expect(id).toBeGreaterThan(0);
      await openIssue(titles[0] as string);
      await openIssue(titles[1] as string);

      await doomed.slack.command(PEOPLE.alice, `digest run ${id}`, { channel }).catch(() => null);
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(postsIn(channel)).toHaveLength(point === 'before-post' ? 0 : 1);

      const restarted = await startBot();
      try {
        await until('the interrupted run to be settled', () =>
          runLine(restarted, id, point === 'before-post' ? 'posted' : 'settled'),
        );
        expect(postsIn(channel)).toHaveLength(1);
        expect(timesPosted(channel, titles.slice(0, 2))).toEqual({
          [titles[0] as string]: 1,
          [titles[1] as string]: 1,
        });

        // The cursor moved past both: the next run posts only what came after.
        await openIssue(titles[2] as string);
        await restarted.slack.command(PEOPLE.alice, `digest run ${id}`, { channel });
        await until('the next post', () => postsIn(channel).length === 2);
        expect(timesPosted(channel, titles)).toEqual(Object.fromEntries(titles.map((t) => [t, 1])));
        expect(restarted.output()).not.toContain(TOKENS.alice);
      } finally {
        await stopBot(restarted);
      }
    }, 120_000);
  }
});
