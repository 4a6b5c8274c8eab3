import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyIdOf } from '../../../src/store/sealer.js';
import { fakeClock } from '../../support/clock.js';
import { PEOPLE, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

let sim: RunningSimulator;
const clock = fakeClock();
beforeAll(async () => {
  sim = await startSim(clock);
});
afterAll(async () => {
  await sim?.close();
});

describe('rotating the encryption key', () => {
  it('reads a token sealed under key A after a restart with key B (A as previous) and re-seals it under B', async () => {
    const keyA = crypto.randomBytes(32).toString('base64');
    const keyB = crypto.randomBytes(32).toString('base64');
    const first = await startApp({ gitlabUrl: sim.url, encryptionKey: keyA, now: clock.now });
    await first.connect(PEOPLE.alice, TOKENS.alice);
    const dataDir = first.dataDir;
    await first.stop();

    const second = await startApp({
      gitlabUrl: sim.url,
      dataDir,
      encryptionKey: keyB,
      previousEncryptionKey: keyA,
      now: clock.now,
    });
    try {
      const row = second.db.prepare('SELECT key_id FROM user_tokens').get() as { key_id: string };
      expect(row.key_id).toBe(keyIdOf(Buffer.from(keyB, 'base64')));
      sim.reset();
      const jobs = await second.slack.command(PEOPLE.alice, 'jobs demo/web');
      expect(await jobs.waitForMessage((t) => /Jobs in demo\/web/.test(t))).not.toBeNull();
      expect(sim.requests()[0]?.user).toBe('alice');
    } finally {
      await second.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
