import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine } from '../../../src/store/open.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createTokenStore } from '../../../src/store/token-store.js';
import { fakeClock } from '../../support/clock.js';
import { TEAM } from '../../support/payloads.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Defect 6 of issue 17, at process level: a database sealed under another key, or a wrong
// TOKEN_ENCRYPTION_KEY_PREVIOUS. Decision: unreadable tokens never stop the bot; it starts, names the
// variable and the remedy once, and those people are asked to connect again. On 1388a11 both starts
// failed with "the value was sealed under key …, which is neither the current nor the previous key".

let sim: RunningSimulator;
const clock = fakeClock();
const keyA = crypto.randomBytes(32).toString('base64');
let dataDir: string;

beforeAll(async () => {
  sim = await startSim(clock);
  // A database whose one token (alice's) is sealed under key A, as the connect modal stores a token the server
  // accepted (the bot's own store and sealer; no process needs to start for it).
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-keys-'));
  const engine = await openEngine({ databasePath: path.join(dataDir, 'bot.db'), databaseUrl: null });
  try {
    await createTokenStore(engine, createSealer({ key: Buffer.from(keyA, 'base64') })).save({
      teamId: TEAM.id,
      userId: PEOPLE.alice.id,
      token: TOKENS.alice,
      serverUrl: sim.url,
      verifiedAt: new Date(),
      username: PEOPLE.alice.name,
    });
  } finally {
    await engine.close();
  }
}, 60_000);
afterAll(async () => {
  await sim?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The JSON log lines of the process that carry `msg` matching. */
const lines = (bot: SpawnedBot, msg: RegExp) =>
  bot
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: string; msg: string })
    .filter((l) => msg.test(l.msg));

describe('keys that do not open the stored tokens', () => {
  it.each([
    ['a database sealed under another key', {}, /sealed under another key than TOKEN_ENCRYPTION_KEY/],
    [
      'a wrong TOKEN_ENCRYPTION_KEY_PREVIOUS',
      { TOKEN_ENCRYPTION_KEY_PREVIOUS: crypto.randomBytes(32).toString('base64') },
      /TOKEN_ENCRYPTION_KEY_PREVIOUS is probably not the key used before/,
    ],
  ])(
    '(%s) start the bot with one warning naming the variable; the person is asked to connect again',
    async (_what, env, warning) => {
      const keyB = crypto.randomBytes(32).toString('base64');
      const bot = await spawnBot({ gitlabUrl: sim.url, dataDir, env: { TOKEN_ENCRYPTION_KEY: keyB, ...env } });
      try {
        const found = lines(bot, warning);
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({ level: 'warn', unreadable: 1, total: 1 });
        expect(found[0]?.msg).toMatch(/restart|connect again/);

        const whoami = await bot.slack.command(PEOPLE.alice, 'whoami');
        expect(await whoami.waitForMessage((t) => /can't be read/.test(t))).not.toBeNull();
        const jobs = await bot.slack.command(PEOPLE.alice, 'jobs demo/web');
        expect(await jobs.waitForMessage((t) => /Connect again/.test(t))).not.toBeNull();
        expect(bot.output()).not.toContain(keyB);
        expect(bot.output()).not.toContain(keyA);
      } finally {
        await bot.close({ keepData: true });
      }
    },
    60_000,
  );

  it('restarted with the right key as TOKEN_ENCRYPTION_KEY_PREVIOUS, the token is read and moved to the new key', async () => {
    const keyC = crypto.randomBytes(32).toString('base64');
    const bot = await spawnBot({
      gitlabUrl: sim.url,
      dataDir,
      env: { TOKEN_ENCRYPTION_KEY: keyC, TOKEN_ENCRYPTION_KEY_PREVIOUS: keyA },
    });
    try {
      expect(lines(bot, /re-sealed stored tokens/)).toEqual([expect.objectContaining({ count: 1 })]);
      expect(lines(bot, /TOKEN_ENCRYPTION_KEY/)).toEqual([]);
      const whoami = await bot.slack.command(PEOPLE.alice, 'whoami');
      expect(await whoami.waitForMessage((t) => /You're connected/.test(t))).not.toBeNull();
    } finally {
      await bot.close({ keepData: true });
    }
  }, 60_000);
});
