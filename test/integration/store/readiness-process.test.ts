import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type PostgresServer, startPostgresServer } from '../../../scripts/postgres-server.js';
import { fakeClock } from '../../support/clock.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { type RunningSimulator, startSim } from '../../support/start-sim.js';

// The bot as a process on a PostgreSQL of this file's own, which is stopped and started again: /readyz turns 503
// within seconds of the database going away and 200 once it is back, while /healthz (the process lives) stays 200
// throughout, so an orchestrator takes the replica out of rotation without restarting it.

const clock = fakeClock();
let sim: RunningSimulator;
let server: PostgresServer;
let bot: SpawnedBot;

const statusOf = async (path: string) =>
  fetch(`${bot.url}${path}`).then(
    async (r) => ({ status: r.status, body: (await r.json()) as { status: string } }),
    () => ({ status: 0, body: { status: 'no answer' } }),
  );

/** Asks /readyz every 50 ms until it says `status`; how long that took, or the last answer. */
async function readyBecomes(status: number, withinMs: number): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + withinMs;
  let last = await statusOf('/readyz');
  while (last.status !== status && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    last = await statusOf('/readyz');
  }
  return last;
}

beforeAll(async () => {
  sim = await startSim(clock);
  server = await startPostgresServer();
  bot = await spawnBot({
    gitlabUrl: sim.url,
    env: { DATABASE_URL: await createDatabase(server.adminUrl), DATABASE_PATH: '' },
  });
}, 120_000);
afterAll(async () => {
  await bot?.close();
  await server?.stop();
  await sim?.close();
});

describe('/readyz of a bot process while PostgreSQL goes away and comes back', () => {
  it('says 503 within seconds while the database is stopped and 200 once it is back; /healthz stays 200', async () => {
    expect(await statusOf('/readyz')).toEqual({ status: 200, body: { status: 'ok', mode: 'http' } });
    expect((await statusOf('/healthz')).status).toBe(200);

    await server.halt();
    // The engine's ping is answered from a one-second cache and gives up after one more second.
    expect(await readyBecomes(503, 5000)).toEqual({
      status: 503,
      body: { status: 'database unavailable', mode: 'http' },
    });
    expect(await statusOf('/healthz')).toEqual({ status: 200, body: { status: 'ok', mode: 'http' } });

    await server.start();
    expect((await readyBecomes(200, 10_000)).status).toBe(200);
    expect(bot.output()).not.toMatch(/"level":"error"/);
  }, 60_000);
});
