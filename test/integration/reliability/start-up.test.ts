import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';

// Start-up mistakes of an operator, at process level: the bot stops at once with one message that names
// the variable and the remedy, and never prints the secret it is about.
// Defect 9 of issue 17: on 1388a11 a GITLAB_URL with user:password started the bot and logged the URL with
// its password. Defect 13 (DATABASE_PATH): on 1388a11 the message named neither the variable nor the path.

/** Waits until the process ends (the expected outcome) or becomes healthy (the defect). */
async function outcome(bot: SpawnedBot): Promise<{ code: number | null; healthy: boolean }> {
  for (let i = 0; i < 1500; i++) {
    const done = await Promise.race([bot.exited, new Promise<'running'>((r) => setTimeout(() => r('running'), 20))]);
    if (done !== 'running') return { code: done, healthy: false };
    if ((await bot.health()).status === 200) return { code: null, healthy: true };
  }
  return { code: null, healthy: false };
}

describe('start-up refusals', () => {
  it('refuses a GITLAB_URL with a user name and password, naming the variable but not the password', async () => {
    // From the sources through tsx, as `npm run dev` starts it (the other cases run the build).
    const bot = await spawnBot({
      gitlabUrl: 'https://deploy:s3cret-pass-word@gitlab.example.com',
      waitHealthy: false,
      from: 'sources',
    });
    try {
      expect(await outcome(bot)).toEqual({ code: 1, healthy: false });
      expect(bot.output()).toContain(
        'GITLAB_URL must not contain a user name or password (https://user:password@host): remove them from the URL.',
      );
      expect(bot.output()).not.toMatch(/s3cret-pass-word|deploy:/);
    } finally {
      await bot.close();
    }
  }, 60_000);

  it('names DATABASE_PATH, the path and why when the database cannot be opened', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-dbpath-'));
    const blocker = path.join(dir, 'not-a-directory');
    fs.writeFileSync(blocker, 'a file where a directory should be');
    const dbPath = path.join(blocker, 'bot.db');
    const bot = await spawnBot({ gitlabUrl: 'http://127.0.0.1:9', env: { DATABASE_PATH: dbPath }, waitHealthy: false });
    try {
      expect(await outcome(bot)).toEqual({ code: 1, healthy: false });
      expect(bot.output().trim()).toBe(
        `The bot could not start: DATABASE_PATH (${dbPath}) cannot be used: a part of the path is a file, not a directory. Point DATABASE_PATH at a file in a directory the bot may write to (default ./data/bot.db).`,
      );
    } finally {
      await bot.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
