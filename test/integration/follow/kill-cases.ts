import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowPoint } from '../../../src/follow/service.js';
import { buildBot } from '../../support/built-bot.js';
import {
  openProcessWorld,
  type ProcessWorld,
  until,
  type WorldBot,
  type WorldEngine,
} from '../../support/process-world.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// What the process tests of follows prove, on either engine (kill.test.ts on SQLite, kill-postgres.test.ts on
// PostgreSQL): the built bot following a shared pipeline card, killed with SIGKILL (the test-only seam
// FOLLOW_TEST_KILL_AT of main.ts) just before or just after the final DM is posted, then started again on the same
// database, alone or as two replicas: the follow goes on and every DM comes exactly once. The simulator runs on
// real time here; its runner moves on when the test ticks it.

const POLL_MS = 100;
/**
 * Follows polled every 100 ms; a follow a killed process held is taken over once its short lease runs out; a
 * channel's posts paced 100 ms apart.
 */
export const FOLLOW_TIMING = {
  FOLLOW_TEST_TIMING: JSON.stringify({ pollMs: POLL_MS, leaseMs: 1500, shareEveryMs: POLL_MS, channelIntervalMs: 100 }),
};

const ALICE_DM = 'D0ALICE';

/** The DMs alice got about pipeline `id`. */
const dmsAbout = (world: ProcessWorld, id: number) =>
  [...world.fake.messages.values()]
    .filter((m) => m.channel === ALICE_DM && !m.ephemeral)
    .map(messageText)
    .filter((t) => t.includes(`Pipeline #${id} on`));

/** Runs a pipeline with its card shared in `channel`; resolves with its id. */
async function runShared(bot: WorldBot, channel: string): Promise<number> {
  const it = await bot.slack.command(PEOPLE.alice, 'pipeline run demo/web main --share', { channel });
  const card = await it.waitForMessage((t) => /Pipeline #\d+ · main/.test(t), 10_000);
  const id = Number(/Pipeline #(\d+) · main/.exec(card ? messageText(card) : '')?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** Ticks the simulator's runner every poll while `going` holds. */
async function tickWhile(world: ProcessWorld, going: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (going()) {
    if (Date.now() > deadline) expect.fail('timed out ticking');
    world.sim.tick();
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** A few polls more: long enough for a DM sent twice to show. */
const afewPolls = () => new Promise((r) => setTimeout(r, 5 * POLL_MS));

/** A process that connected alice and ran `count` shared pipelines, killed at `point` of a final DM; their ids. */
async function killedFollowing(world: ProcessWorld, point: FollowPoint, count: number): Promise<number[]> {
  await world.connect(PEOPLE.alice, TOKENS.alice);
  const doomed = await world.start({ FOLLOW_TEST_KILL_AT: point });
  const ids: number[] = [];
  for (let i = 0; i < count; i++) ids.push(await runShared(doomed, `C0FOLLOW${i}`));
  let killed = false;
  void doomed.exited.then(() => {
    killed = true;
  });
  await tickWhile(world, () => !killed);
  expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
  return ids;
}

/** Killed before or after the final DM, restarted on the same database: the follow goes on, the DM comes once. */
export async function restartedAfterKill(world: ProcessWorld, point: FollowPoint): Promise<void> {
  const [id = 0] = await killedFollowing(world, point, 1);
  expect(dmsAbout(world, id)).toHaveLength(point === 'before-dm' ? 0 : 1);

  const restarted = await world.start();
  await until('the follow to end after the restart', () =>
    restarted.output().match(/"msg":"follow (finished|settled)"/),
  );
  await afewPolls();
  expect(dmsAbout(world, id)).toEqual([expect.stringMatching(new RegExp(`Pipeline #${id} on \`main\`> passed`))]);
  expect(restarted.output()).toMatch(point === 'before-dm' ? /"msg":"follow finished"/ : /"msg":"follow settled"/);
  expect(restarted.output()).not.toContain(TOKENS.alice);
  expect(restarted.output()).not.toContain('/response');
  await world.stop(restarted);
}

/**
 * A process killed before a final DM while it follows two cards (it runs alone until it dies, so it surely holds
 * follows when it does; two live replicas share the due follows by chance), then two replicas started at once on
 * the same database take its follows over and share two more: every follow ends with one DM.
 */
export async function replicasAfterKill(world: ProcessWorld): Promise<void> {
  const ids = await killedFollowing(world, 'before-dm', 2);
  const live = await Promise.all([world.start(), world.start()]);
  for (let i = 2; i < 4; i++) ids.push(await runShared(live[i % 2] as WorldBot, `C0FOLLOW${i}`));
  await tickWhile(world, () => ids.some((id) => dmsAbout(world, id).length === 0));
  await afewPolls();
  for (const id of ids) expect(dmsAbout(world, id), `pipeline #${id}`).toHaveLength(1);
  expect(live.map((bot) => bot.output()).join('\n')).toMatch(/"msg":"follow finished"/);
  await Promise.all(live.map((bot) => world.stop(bot)));
}

/** Every case above, at once, each in a world of its own on `engine`. */
export function describeFollowKills(engine: WorldEngine): void {
  let build: { dir: string; remove(): void } | undefined;
  beforeAll(async () => {
    build = await buildBot();
  }, 240_000);
  afterAll(() => build?.remove());

  const world = async (onTestFinished: (fn: () => Promise<void>) => void) => {
    const w = await openProcessWorld({ buildDir: build?.dir as string, engine, env: FOLLOW_TIMING });
    onTestFinished(() => w.close());
    return w;
  };

  describe.concurrent('a bot killed with SIGKILL while a card follows its pipeline', () => {
    for (const point of ['before-dm', 'after-dm'] as FollowPoint[]) {
      it(`${point.replace('-', ' ')}: restarted on the same database, the follow goes on and the DM comes once`, async ({
        onTestFinished,
      }) => {
        await restartedAfterKill(await world(onTestFinished), point);
      }, 180_000);
    }

    it('before the DM, then two replicas on the database: every follow taken over or shared, each DM once', async ({
      onTestFinished,
    }) => {
      await replicasAfterKill(await world(onTestFinished));
    }, 180_000);
  });
}
