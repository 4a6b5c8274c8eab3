import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Found by bench/fuzz.ts: node-cron's validate expands a range or step into an array before checking its
// bounds, so one cron field typed into a command could freeze the bot for half a minute and gigabytes
// (`1-99999999`) or end the process with a V8 fatal error (`*99999999999999999999`). At process level:
// the person gets the usage message and the bot goes on. On 1388a11 (and on main before this fix) the
// process died at the first command.

let sim: RunningSimulator;
let bot: SpawnedBot;
const clock = fakeClock();

beforeAll(async () => {
  sim = await startSim(clock);
  bot = await spawnBot({ gitlabUrl: sim.url });
  expect((await bot.connect(PEOPLE.alice, TOKENS.alice)).ack.json).toMatchObject({ response_action: 'update' });
}, 60_000);
afterAll(async () => {
  await bot?.close();
  await sim?.close();
});

describe('a cron field with a huge number', () => {
  it.each([
    'schedule create demo/web "x" main "0 9 *99999999999999999999 * 1-5"',
    'digest todos --cron "0 9 1-99999999 * *"',
  ])(
    '(%s) gets the usage message, and the bot stays up',
    async (text) => {
      const it = await bot.slack.command(PEOPLE.alice, text);
      expect(it.ack.status).toBe(200);
      expect(JSON.stringify(it.ack.json)).toContain('must be a cron expression of 5 fields');
      expect((await bot.health()).status).toBe(200);
      const whoami = await bot.slack.command(PEOPLE.alice, 'whoami');
      expect(await whoami.waitForMessage((t) => /You're connected/.test(t))).not.toBeNull();
    },
    60_000,
  );
});
