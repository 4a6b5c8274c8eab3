import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { migratedPostgresUrl } from '../../support/postgres.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// The whole log of a bot process at LOG_LEVEL=debug, on PostgreSQL, through a connect, commands, a token typed
// into a command, a scrape of the metrics and a stop: not one line holds the bot's tokens, the signing secret, the
// encryption key, the password of DATABASE_URL, the metrics token or a person's token.

const clock = fakeClock();
let sim: RunningSimulator;
let bot: SpawnedBot;
const METRICS_TOKEN = crypto.randomBytes(24).toString('base64url');

beforeAll(async () => {
  sim = await startSim(clock);
  bot = await spawnBot({
    gitlabUrl: sim.url,
    env: { DATABASE_URL: await migratedPostgresUrl(), DATABASE_PATH: '', METRICS_TOKEN },
  });
}, 120_000);
afterAll(async () => {
  await bot?.close();
  await sim?.close();
});

describe('the log of a bot process', () => {
  it('never holds a token, the encryption key or the DATABASE_URL password, even at debug', async () => {
    const connected = await bot.connect(PEOPLE.alice, TOKENS.alice);
    expect(connected.ack.status).toBe(200);
    for (const text of ['job demo/web 8', 'pipelines demo/web', `job demo/web 8 ${TOKENS.bob}`, 'whoami']) {
      const asked = await bot.slack.command(PEOPLE.alice, text, { channel: 'C0LOGS' });
      await asked.waitForMessage((t) => t.length > 0);
    }
    const scraped = await fetch(`${bot.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(scraped.status).toBe(200);
    bot.child.kill('SIGTERM');
    expect(await bot.exited).toBe(0);

    const output = bot.output();
    const password = decodeURIComponent(new URL(bot.env.DATABASE_URL as string).password);
    expect(password.length).toBeGreaterThan(8);
    const secrets = {
      SLACK_BOT_TOKEN: bot.env.SLACK_BOT_TOKEN,
      SLACK_SIGNING_SECRET: bot.env.SLACK_SIGNING_SECRET,
      TOKEN_ENCRYPTION_KEY: bot.env.TOKEN_ENCRYPTION_KEY,
      'the DATABASE_URL password': password,
      METRICS_TOKEN,
      "alice's token": TOKENS.alice,
      "bob's token, typed into a command": TOKENS.bob,
    };
    // The log is there and says what happened, as JSON lines.
    expect(output).toMatch(/"msg":"command received"/);
    const lines = output.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(20);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret, name).toBeTruthy();
      expect(output.includes(secret as string), `${name} is in the log`).toBe(false);
    }
  }, 90_000);
});
