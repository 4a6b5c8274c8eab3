import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { messageText } from '../../support/slack-driver.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Defect 2 of issue 17, at process level: SIGTERM while a command is on its way to a slow server. On
// 1388a11 the process exited at once: the retry happened on the server and the person never heard (the
// first test failed waiting for "Retried by", the second for the notice; no request got a 503).

let sim: RunningSimulator;
let bot: SpawnedBot | null = null;
const clock = fakeClock();

beforeAll(async () => {
  sim = await startSim(clock);
});
afterEach(async () => {
  await bot?.close();
  bot = null;
});
afterAll(async () => {
  await sim?.close();
});

/** Starts the bot with alice connected, then makes the simulator answer after `latencyMs`. */
async function slowServerBot(graceMs: number, latencyMs: number): Promise<SpawnedBot> {
  sim.reset();
  const b = await spawnBot({ gitlabUrl: sim.url, env: { SHUTDOWN_GRACE_MS: String(graceMs) } });
  const connected = await b.connect(PEOPLE.alice, TOKENS.alice);
  expect(connected.ack.json).toMatchObject({ response_action: 'update' });
  sim.reset();
  sim.setFaults({ latencyMs });
  return b;
}

/** SIGTERM, then wait until the bot says it is shutting down (signals arrive asynchronously). */
async function terminate(b: SpawnedBot): Promise<void> {
  b.child.kill('SIGTERM');
  // The deadline is only against a hang: the verdict is on what /healthz says.
  for (const end = Date.now() + 20_000; Date.now() < end; ) {
    const h = await b.health();
    if (h.status === 503 || h.status === 0) {
      expect(h.body?.status ?? 'gone').toMatch(/shutting down|gone/);
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  expect.fail(`the bot never said it was shutting down:\n${b.output()}`);
}

describe('SIGTERM with a command in flight', () => {
  it('refuses new requests with 503, finishes the acknowledged command and answers its person, then exits 0', async () => {
    // The answer comes while the bot is shutting down: the SIGTERM lands well inside the server's second.
    bot = await slowServerBot(30_000, 1000);
    const retry = await bot.slack.command(PEOPLE.alice, 'job retry demo/web 8');
    expect(retry.ack.status).toBe(200);
    await terminate(bot);

    const late = await bot.slack.command(PEOPLE.bob, 'whoami');
    expect(late.ack.status).toBe(503);

    const answer = await retry.waitForMessage((t) => /Retried by/.test(t), 20_000);
    expect(answer, bot.output()).not.toBeNull();
    expect(await bot.exited).toBe(0);
    expect(sim.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /api/v4/projects/demo%2Fweb/jobs/8/retry 201',
    ]);
    // One answer, and no notice that it might not have completed.
    expect(retry.messages()).toHaveLength(1);
    expect(bot.output()).toMatch(/"interrupted":0,"msg":"stopped"/);
  }, 60_000);

  it('after the grace period tells the person their command may not have completed, then exits 0', async () => {
    // The grace period is over long before the server answers.
    bot = await slowServerBot(200, 3000);
    const retry = await bot.slack.command(PEOPLE.alice, 'job retry demo/web 8');
    expect(retry.ack.status).toBe(200);
    await terminate(bot);

    expect(await bot.exited).toBe(0);
    const said = retry.messages().map(messageText);
    expect(said).toEqual([
      expect.stringContaining(
        'The bot had to restart before it finished `/gl job retry demo/web 8`: it may not have completed. Look before you try again.',
      ),
    ]);
    expect(retry.messages()[0]).toMatchObject({ ephemeral: true, visibleTo: PEOPLE.alice.id });
    expect(bot.output()).toMatch(/"interrupted":1,"msg":"stopped"/);
  }, 60_000);
});
