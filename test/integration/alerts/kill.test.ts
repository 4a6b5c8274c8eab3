import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertPoint } from '../../../src/alerts/types.js';
import { type RunningSimulator, startSimulator } from '../../../src/sim/index.js';
import { type BuiltBot, buildBot, startBuiltBot } from '../../support/built-bot.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { SlackDriver } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The built bot as a process, killed with SIGKILL at each point of an alert delivery (before the DM, between the
// DM and saving, while saving); restarted on the same database it sends every todo exactly once. Then two
// replicas on one database poll the same people: still every todo exactly once. The kill comes from the test-only
// seam in main.ts (ALERT_TEST_KILL_AT); ALERT_TEST_TIMING puts a poll every 2 s and makes leases short.

let build: { dir: string; remove(): void } | undefined;
let dataDir: string;
let sim: RunningSimulator;
let fake: FakeSlack;
const signingSecret = crypto.randomBytes(16).toString('hex');
const encryptionKey = crypto.randomBytes(32).toString('base64');
const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;

function startBot(killAt?: AlertPoint): Promise<BuiltBot> {
  return startBuiltBot(build?.dir as string, {
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: fake.apiUrl,
    GITLAB_URL: sim.url,
    TOKEN_ENCRYPTION_KEY: encryptionKey,
    DATABASE_PATH: path.join(dataDir, 'bot.db'),
    LOG_LEVEL: 'info',
    ALERT_TEST_TIMING: JSON.stringify({ seconds: '*/2', intervalMs: 2000, leaseMs: 1500 }),
    ...(killAt ? { ALERT_TEST_KILL_AT: killAt } : {}),
  });
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

async function stopBot(bot: BuiltBot): Promise<void> {
  if (bot.child.exitCode !== null || bot.child.signalCode !== null) return;
  bot.child.kill('SIGTERM');
  expect((await bot.exited).code).toBe(0);
}

/** Todo ids of every alert DM alice got (the Done buttons carry them), once per DM that shows them. */
function alertedIds(): number[] {
  const out: number[] = [];
  for (const m of fake.messages.values()) {
    if (m.channel !== ALICE_DM || m.ephemeral) continue;
    const json = JSON.stringify(m.blocks ?? []);
    for (const hit of json.matchAll(/\\"t\\":(\d+)/g)) out.push(Number(hit[1]));
  }
  return out;
}

/** Alice's pending todos, newest first, as the server has them. */
async function pendingIds(): Promise<number[]> {
  const res = await fetch(`${sim.url}/api/v4/todos?state=pending&per_page=100`, {
    headers: { 'PRIVATE-TOKEN': TOKENS.alice },
  });
  return ((await res.json()) as { id: number }[]).map((t) => t.id);
}

const countOf = (ids: number[], id: number) => ids.filter((x) => x === id).length;

beforeAll(async () => {
  build = await buildBot();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-alert-kill-'));
  sim = await startSimulator({ port: 0, seed: 'demo' });
  fake = await startFakeSlack(`xoxb-alert-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));

  // Alice connects and turns alerts on once; both stay in the database across every restart below.
  const bot = await startBot();
  const slack = new SlackDriver({ botUrl: bot.url, signingSecret, fake, command: '/gl' });
  const command = await slack.command(PEOPLE.alice, 'connect');
  const opened = await command.waitFor((r) => r.method === 'views.open' && r.ok, 10_000);
  if (!opened?.view) throw new Error(`no connect modal: ${command.text()}`);
  const blocks = opened.view.blocks as { type: string; block_id: string }[];
  const input = blocks.find((b) => b.type === 'input');
  const submission = await slack.submitView(PEOPLE.alice, opened.view, { [input?.block_id ?? '']: TOKENS.alice });
  expect(submission.ack.json).toMatchObject({ response_action: 'update' });
  const on = await slack.command(PEOPLE.alice, 'notify on');
  expect(await on.waitForMessage((t) => /Todo alerts are on/.test(t), 10_000)).toBeTruthy();
  await stopBot(bot);
}, 240_000);

afterAll(async () => {
  await fake?.close();
  await sim?.close();
  build?.remove();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a bot killed with SIGKILL during an alert delivery', () => {
  for (const point of ['before-post', 'after-post', 'while-saving'] as AlertPoint[]) {
    it(`${point.replace('-', ' ')}: restarted on the same database, sends every todo exactly once`, async () => {
      const before = alertedIds().length;
      sim.tick();
      const [todo] = await pendingIds();
      const doomed = await startBot(point);
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(countOf(alertedIds(), todo as number)).toBe(point === 'before-post' ? 0 : 1);

      const restarted = await startBot();
      try {
        await until('the todo to be alerted', () => countOf(alertedIds(), todo as number) === 1);
        // Settled or sent again; then polls go on, and a later todo comes once too.
        sim.tick();
        const [next] = await pendingIds();
        await until('the next todo', () => countOf(alertedIds(), next as number) === 1);
        await new Promise((r) => setTimeout(r, 2500));
        const ids = alertedIds();
        expect([countOf(ids, todo as number), countOf(ids, next as number)]).toEqual([1, 1]);
        expect(ids.length - before).toBe(2);
        if (point !== 'before-post') expect(restarted.output()).toContain('"msg":"alert delivery settled"');
        expect(restarted.output()).not.toContain(TOKENS.alice);
      } finally {
        await stopBot(restarted);
      }
    }, 120_000);
  }
});

describe('two replicas on one database', () => {
  it('send every todo exactly once between them', async () => {
    const before = alertedIds().length;
    const [a, b] = await Promise.all([startBot(), startBot()]);
    try {
      const made: number[] = [];
      for (let i = 0; i < 4; i++) {
        sim.tick();
        made.push((await pendingIds())[0] as number);
        await new Promise((r) => setTimeout(r, 1100));
      }
      await until('every todo to be alerted', () => made.every((id) => countOf(alertedIds(), id) >= 1));
      await new Promise((r) => setTimeout(r, 4500));
      const ids = alertedIds();
      expect(made.map((id) => countOf(ids, id))).toEqual([1, 1, 1, 1]);
      expect(ids.length - before).toBe(4);
    } finally {
      await Promise.all([stopBot(a as BuiltBot), stopBot(b as BuiltBot)]);
    }
  }, 120_000);
});
