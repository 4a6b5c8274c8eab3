import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/free-port.js';
import { createDatabase, type PostgresServer, startPostgresServer } from '../../../scripts/postgres-server.js';
import { fakeClock } from '../../support/clock.js';
import { spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE, type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// PostgreSQL going away and coming back: /readyz says so (and /healthz that the process lives), a command says so and changes nothing, and the bot
// carries on by itself when the server is back. This file stops and starts a server of its own (the run's shared
// server serves the other files meanwhile).

const clock = fakeClock();
let sim: RunningSimulator;
let server: PostgresServer;
let bot: StartedApp;

async function health(): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${bot.url}/readyz`);
  return { status: res.status, body: await res.json() };
}

/** Polls /readyz until it answers `status` (the answer is cached for a second). */
async function healthBecomes(status: number): Promise<{ status: number; body: unknown }> {
  let last = await health();
  for (const end = Date.now() + 20_000; last.status !== status && Date.now() < end; ) {
    await new Promise((r) => setTimeout(r, 50));
    last = await health();
  }
  return last;
}

beforeAll(async () => {
  sim = await startSim(clock);
});
afterAll(async () => {
  await sim?.close();
});

// The two cases share nothing but the simulator, so they run at once: the second starts its bot while the first
// sets its server up.
describe.concurrent('when PostgreSQL is down for a moment', () => {
  beforeAll(async () => {
    server = await startPostgresServer();
    bot = await startApp({ gitlabUrl: sim.url, now: clock.now, databaseUrl: await createDatabase(server.adminUrl) });
    await bot.connect(PEOPLE.alice, TOKENS.alice);
    // A server of its own: initdb and a first start take a while on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await bot?.stop({ removeData: true });
    await server?.stop();
  });

  it('says 503 on /readyz and "try again" to a command, changes nothing, and recovers once it is back', async () => {
    expect(await health()).toEqual({ status: 200, body: { status: 'ok', mode: 'http' } });
    await server.halt();

    expect(await healthBecomes(503)).toEqual({ status: 503, body: { status: 'database unavailable', mode: 'http' } });
    const refused = await bot.slack.command(PEOPLE.alice, 'use demo/web', { channel: 'C0OUTAGE' });
    const said = await refused.waitForMessage((t) => /database/.test(t));
    expect(said?.text).toContain("The bot's database is unavailable, try again in a moment.");
    expect(bot.logs.filter((l) => l.includes('"level":"error"'))).toEqual([]);

    await server.start();
    expect((await healthBecomes(200)).status).toBe(200);
    expect(await bot.engine.get(`SELECT count(*) AS n FROM channel_defaults`)).toEqual({ n: 0 });
    const after = await bot.slack.command(PEOPLE.alice, 'job demo/web 8', { channel: 'C0OUTAGE' });
    expect(await after.waitForMessage((t) => /Job #8 /.test(t))).not.toBeNull();
  }, 60_000);
});

describe.concurrent('a PostgreSQL that cannot be reached at start', () => {
  it('stops the bot with one line naming DATABASE_URL and the reason, never the password', async () => {
    const password = 'do-not-print-this-pw';
    const url = `postgres://glbot:${password}@127.0.0.1:${await freePort()}/glbot`;
    const spawned = await spawnBot({
      gitlabUrl: sim.url,
      env: { DATABASE_URL: url, DATABASE_PATH: '' },
      waitHealthy: false,
    });
    try {
      expect(await spawned.exited).toBe(1);
      const lines = spawned.output().trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^The bot could not start: DATABASE_URL \(postgres:\/\/glbot@127\.0\.0\.1:\d+\/glbot\) cannot be used: .*ECONNREFUSED/,
      );
      expect(spawned.output()).not.toContain(password);
    } finally {
      await spawned.close();
    }
  }, 60_000);
});
