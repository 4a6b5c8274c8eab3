import { expect } from 'vitest';
import type { WatchPoint } from '../../../src/operations/watch-service.js';
import { morePolls, type ProcessWorld, until, type WorldBot } from '../../support/process-world.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// What the process tests of watches prove, on either engine (kill.test.ts on SQLite, kill-postgres.test.ts on
// PostgreSQL): the built bot killed with SIGKILL (as `kill -9`) at a point of a watch's delivery (the test-only seam
// WATCH_TEST_KILL_AT of main.ts) — before its card is posted, after it, after the fixed card was redrawn, after
// the reply in its thread — and started again on the same database, alone or as two replicas: the channel gets the
// card once and the fix once, nothing twice and nothing lost. WATCH_TEST_TIMING polls each watch every 200 ms, lets
// leases run out in 1.5 s and paces a channel's posts 100 ms apart (a fix's redraw and reply come at once). The
// simulator's tick fails a pipeline of demo/web and then passes a fix of it (src/sim/domain/watched-pipelines.ts).

const INTERVAL_MS = 200;
export const WATCH_TIMING = {
  WATCH_TEST_TIMING: JSON.stringify({ intervalMs: INTERVAL_MS, tickMs: 50, leaseMs: 1500, channelIntervalMs: 100 }),
};

const CHANNEL = 'C0WATCHED';

const cards = (world: ProcessWorld) =>
  [...world.fake.messages.values()].filter((m) => m.channel === CHANNEL && !m.ephemeral && !m.threadTs);
const replies = (world: ProcessWorld) =>
  [...world.fake.messages.values()].filter((m) => m.channel === CHANNEL && m.threadTs);
const fixed = (world: ProcessWorld) => cards(world).filter((m) => messageText(m).includes('Fixed by'));

function ticks(world: ProcessWorld, n: number): void {
  for (let i = 0; i < n; i++) world.sim.tick();
}

/** A poll of the watched project's pipelines. */
const pipelineRead = (r: { method: string; path: string }) => r.method === 'GET' && r.path.endsWith('/pipelines');

/** Alice (connected) watches demo/web in the channel, through `bot`. */
async function aliceWatches(bot: WorldBot): Promise<void> {
  const made = await bot.slack.command(PEOPLE.alice, 'watch pipelines demo/web', { channel: CHANNEL });
  expect(await made.waitForMessage((t) => /Watch #\d+/.test(t), 10_000)).not.toBeNull();
}

/** A process that watches demo/web, killed at `point` (before or after) of posting the failure's card. */
async function killedPostingCard(
  world: ProcessWorld,
  point: Extract<WatchPoint, 'before-post' | 'after-post'>,
): Promise<void> {
  await world.connect(PEOPLE.alice, TOKENS.alice);
  const doomed = await world.start({ WATCH_TEST_KILL_AT: point });
  await aliceWatches(doomed);
  ticks(world, 5); // the pipeline of fix/checkout-total failed
  expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(cards(world)).toHaveLength(point === 'before-post' ? 0 : 1);
}

/** The fix passes: the card is redrawn as fixed and its thread gets one reply; more polls change nothing. */
async function fixPostedOnce(world: ProcessWorld): Promise<void> {
  ticks(world, 1);
  await until('the fix', () => replies(world).length === 1 && fixed(world).length === 1);
  await morePolls(world.sim, pipelineRead);
  expect(cards(world)).toHaveLength(1);
  expect(fixed(world)).toHaveLength(1);
  expect(replies(world)).toHaveLength(1);
  expect(replies(world)[0]?.threadTs).toBe(cards(world)[0]?.ts);
}

/** Killed before or after posting the failure's card, restarted: the card once, then the fix once. */
export async function restartedAfterCardKill(
  world: ProcessWorld,
  point: Extract<WatchPoint, 'before-post' | 'after-post'>,
) {
  await killedPostingCard(world, point);
  const restarted = await world.start();
  await until('the card', () => cards(world).length === 1);
  await fixPostedOnce(world);
  expect(restarted.output()).not.toContain(TOKENS.alice);
  await world.stop(restarted);
}

/** Killed after redrawing the card as fixed, or after the reply: restarted, the card is fixed, one reply. */
export async function restartedAfterFixKill(
  world: ProcessWorld,
  point: Extract<WatchPoint, 'after-update' | 'after-reply'>,
) {
  await world.connect(PEOPLE.alice, TOKENS.alice);
  // The process that posts the card is the one killed at the fix: one start fewer than a replacement would take.
  const doomed = await world.start({ WATCH_TEST_KILL_AT: point });
  await aliceWatches(doomed);
  ticks(world, 5);
  await until('the card', () => cards(world).length === 1);
  ticks(world, 1);
  expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(fixed(world)).toHaveLength(1);
  expect(replies(world)).toHaveLength(point === 'after-reply' ? 1 : 0);

  const restarted = await world.start();
  await until('the reply', () => replies(world).length === 1);
  await morePolls(world.sim, pipelineRead);
  expect(cards(world)).toHaveLength(1);
  expect(fixed(world)).toHaveLength(1);
  expect(replies(world)).toHaveLength(1);
  expect(replies(world)[0]?.threadTs).toBe(cards(world)[0]?.ts);
  await world.stop(restarted);
}

/**
 * Killed after posting the card, then two replicas started at once on the same database: between them they poll
 * the watch once per interval, the card stays one, and the fix comes once.
 */
export async function replicasAfterKill(world: ProcessWorld): Promise<void> {
  await killedPostingCard(world, 'after-post');
  const replicas = await Promise.all([world.start(), world.start()]);
  // Both look for due watches every 50 ms; the lease lets one poll each time: at most one read an interval.
  const after = world.sim.requests().at(-1)?.seq ?? 0;
  const started = Date.now();
  const reads = () => world.sim.requests().filter((r) => r.seq > after && pipelineRead(r)).length;
  await until('a few polls', () => reads() >= 5);
  const polled = reads();
  const intervals = (Date.now() - started) / INTERVAL_MS;
  expect(polled).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
  expect(cards(world)).toHaveLength(1);
  await fixPostedOnce(world);
  await Promise.all(replicas.map((r) => world.stop(r)));
}
