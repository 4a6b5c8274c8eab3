import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Defect 3 of issue 17, at process level: another process holds a write lock on the bot's database
// (`BEGIN IMMEDIATE`, as a backup tool or a second bot would). The bot must keep serving while it waits:
// reads go on (WAL), /healthz answers, and a write that stays locked ends in a sentence, not "Something
// went wrong". On 1388a11 the write blocked the event loop for its 5 s busy timeout (not one /healthz was
// answered meanwhile) and then failed with a reference id.

let sim: RunningSimulator;
let bot: SpawnedBot;
let other: Database.Database;
const clock = fakeClock();

beforeAll(async () => {
  sim = await startSim(clock);
  bot = await spawnBot({ gitlabUrl: sim.url });
  expect((await bot.connect(PEOPLE.alice, TOKENS.alice)).ack.json).toMatchObject({ response_action: 'update' });
  other = new Database(bot.dbPath);
}, 60_000);
afterAll(async () => {
  other?.close();
  await bot?.close();
  await sim?.close();
});

describe('a write lock held by another process', () => {
  it('leaves reads and /readyz working, and a write that stays locked says the database is busy', async () => {
    other.exec('BEGIN IMMEDIATE');
    try {
      const whoami = await bot.slack.command(PEOPLE.alice, 'whoami');
      expect(await whoami.waitForMessage((t) => /You're connected/.test(t))).not.toBeNull();
      const jobs = await bot.slack.command(PEOPLE.alice, 'jobs demo/web');
      expect(await jobs.waitForMessage((t) => /Jobs in demo\/web/.test(t))).not.toBeNull();

      const use = await bot.slack.command(PEOPLE.alice, 'use demo/web', { channel: 'C0LOCKED' });
      expect(use.ack.status).toBe(200);
      // While the bot waits for the lock, it keeps answering: the waits are timers, not a blocked event loop.
      // (Thousands of answers here; on 1388a11 two, both before the write began.)
      let healthy = 0;
      while (use.messages().length === 0) {
        if ((await bot.health()).status === 200) healthy++;
        if (healthy > 10_000) expect.fail('no answer to /gl use');
      }
      expect(healthy).toBeGreaterThanOrEqual(20);
      // The write waits 2 s for the lock, so a "working on it…" note may come first; the answer says why.
      const said = await use.waitForMessage((t) => /database is busy/.test(t));
      expect(said?.text).toBe(
        "The bot's database is busy right now (another program is writing to it), so this could not be done. Try again in a moment.",
      );
      expect(bot.output()).not.toMatch(/unexpected error/);
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
    }
  }, 60_000);

  it('goes through once the lock is released while the bot waits', async () => {
    other.exec('BEGIN IMMEDIATE');
    const seen = bot.output().length;
    try {
      const use = await bot.slack.command(PEOPLE.alice, 'use demo/web', { channel: 'C0LOCKED' });
      expect(use.ack.status).toBe(200);
      for (let i = 0; !/database busy; trying again/.test(bot.output().slice(seen)); i++) {
        if (i > 2000) expect.fail(`the bot never waited for the lock:\n${bot.output().slice(seen)}`);
        await new Promise((r) => setTimeout(r, 5));
      }
      other.exec('ROLLBACK');
      const said = await use.waitForMessage((t) => /default project/.test(t));
      expect(said?.text).toBe("This channel's default project is now demo/web.");
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
    }
    const row = other.prepare('SELECT project FROM channel_defaults WHERE channel_id = ?').get('C0LOCKED');
    expect(row).toEqual({ project: 'demo/web' });
  }, 60_000);
});
