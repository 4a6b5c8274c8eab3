import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunPoint } from '../../../src/operations/digest-service.js';
import { buildBot } from '../../support/built-bot.js';
import { openProcessWorld, type ProcessWorld, until, type WorldBot } from '../../support/process-world.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The built bot as a process, killed with SIGKILL (as `kill -9`) at each point of a digest run's post: before the
// post, between the post and saving the cursor, and while saving it. Restarted on the same database, it posts
// every event exactly once. The kill comes from the test-only seam in main.ts (DIGEST_TEST_KILL_AT). Each case has
// its own simulator, fake Slack and database (test/support/process-world.ts), so the cases run at once.

let build: { dir: string; remove(): void } | undefined;

beforeAll(async () => {
  build = await buildBot();
}, 240_000);

afterAll(() => build?.remove());

// The run a killed process held is taken over once its lease runs out: a short one here.
const DIGEST_TIMING = { DIGEST_TEST_TIMING: JSON.stringify({ leaseMs: 1500, sweepMs: 300 }) };

async function world(onTestFinished: (fn: () => Promise<void>) => void): Promise<ProcessWorld> {
  const w = await openProcessWorld({ buildDir: build?.dir as string, engine: 'sqlite', env: DIGEST_TIMING });
  onTestFinished(() => w.close());
  // Alice is connected; her token stays in the database across every restart below.
  await w.connect(PEOPLE.alice, TOKENS.alice);
  return w;
}

async function openIssue(w: ProcessWorld, title: string): Promise<void> {
  const res = await fetch(`${w.sim.url}/api/v4/projects/demo%2Fweb/issues`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': TOKENS.bob, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title }).toString(),
  });
  expect(res.status).toBe(201);
}

const postsIn = (w: ProcessWorld, channel: string) =>
  [...w.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral).map(messageText);

/** How many times each title was posted into the channel, over every post. */
function timesPosted(w: ProcessWorld, channel: string, titles: string[]): Record<string, number> {
  const all = postsIn(w, channel).join('\n');
  return Object.fromEntries(titles.map((t) => [t, all.split(`*${t}*`).length - 1]));
}

const runLine = (bot: WorldBot, id: number, outcome: string) =>
  bot
    .output()
    .split('\n')
    .find(
      (l) => l.includes('"msg":"digest run"') && l.includes(`"digest":${id},`) && l.includes(`"outcome":"${outcome}"`),
    );

describe.concurrent('a bot killed with SIGKILL during a digest run', () => {
  for (const point of ['before-post', 'after-post', 'while-saving'] as RunPoint[]) {
    it(`${point.replace('-', ' ')}: restarted on the same database, posts every event exactly once`, async ({
      onTestFinished,
    }) => {
      const w = await world(onTestFinished);
      const channel = `C0KILL${point.slice(0, 2).toUpperCase()}`;
      const titles = [`${point} one`, `${point} two`, `${point} three`];

      const doomed = await w.start({ DIGEST_TEST_KILL_AT: point });
      const made = await doomed.slack.command(PEOPLE.alice, 'digest events demo/web --cron "15 3 29 2 *"', {
        channel,
      });
      const card = await made.waitForMessage((t) => /Digest #\d+/.test(t), 10_000);
      const id = Number(/Digest #(\d+)/.exec(card ? messageText(card) : '')?.[1]);
      expect(id).toBeGreaterThan(0);
      await openIssue(w, titles[0] as string);
      await openIssue(w, titles[1] as string);

      await doomed.slack.command(PEOPLE.alice, `digest run ${id}`, { channel }).catch(() => null);
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(postsIn(w, channel)).toHaveLength(point === 'before-post' ? 0 : 1);

      const restarted = await w.start();
      await until('the interrupted run to be settled', () =>
        runLine(restarted, id, point === 'before-post' ? 'posted' : 'settled'),
      );
      expect(postsIn(w, channel)).toHaveLength(1);
      expect(timesPosted(w, channel, titles.slice(0, 2))).toEqual({
        [titles[0] as string]: 1,
        [titles[1] as string]: 1,
      });

      // The cursor moved past both: the next run posts only what came after.
      await openIssue(w, titles[2] as string);
      await restarted.slack.command(PEOPLE.alice, `digest run ${id}`, { channel });
      await until('the next post', () => postsIn(w, channel).length === 2);
      expect(timesPosted(w, channel, titles)).toEqual(Object.fromEntries(titles.map((t) => [t, 1])));
      expect(restarted.output()).not.toContain(TOKENS.alice);
      await w.stop(restarted);
    }, 180_000);
  }
});
