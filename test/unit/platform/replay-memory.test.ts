import { describe, expect, it } from 'vitest';
import {
  createReplayMemory,
  createStoredReplayMemory,
  type ReplayMemory,
  SIGNING_WINDOW_SEC,
} from '../../../src/slack/transport/request-guard.js';
import { fakeClock } from '../../support/clock.js';

describe('the memory of signatures', () => {
  it('knows a signature again within the signing window, and forgets it after', () => {
    const m = createReplayMemory();
    expect(m.seenBefore('v0=a', 1000, 1000)).toBe(false);
    expect(m.seenBefore('v0=a', 1000, 1000 + SIGNING_WINDOW_SEC)).toBe(true);
    // Past the window the timestamp alone refuses the request; the entry is swept.
    expect(m.seenBefore('v0=b', 2000, 1000 + SIGNING_WINDOW_SEC + 1)).toBe(false);
    expect(m.size).toBe(1);
  });

  it('stays within its bound, dropping the oldest', () => {
    const m = createReplayMemory(3);
    for (const sig of ['a', 'b', 'c', 'd']) m.seenBefore(sig, 1000, 1000);
    expect(m.size).toBe(3);
    expect(m.seenBefore('a', 1000, 1000)).toBe(false);
    expect(m.seenBefore('d', 1000, 1000)).toBe(true);
  });

  it('tells signatures apart by all their digits, remembered in a compact form', () => {
    const m = createReplayMemory();
    const first = 'ab'.repeat(32);
    const lastDigitDiffers = `${'ab'.repeat(31)}ac`;
    expect(m.seenBefore(first, 1000, 1000)).toBe(false);
    expect(m.seenBefore(lastDigitDiffers, 1000, 1000)).toBe(false);
    expect(m.seenBefore(first, 1000, 1000)).toBe(true);
    expect(m.seenBefore(lastDigitDiffers, 1000, 1000)).toBe(true);
    expect(m.size).toBe(2);
  });
});

describe('the stored memory of signatures (every replica, and after a restart)', () => {
  // Two replicas (two connections to one SQLite file), each with its own memory in front of the shared claims.
  async function replicas(now: () => Date) {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { openDatabase } = await import('../../../src/store/database.js');
    const { createSqliteEngine } = await import('../../../src/store/engine.js');
    const { createClaimStore } = await import('../../../src/store/claim-store.js');
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-replay-')), 'bot.db');
    const dbs = [openDatabase(file), openDatabase(file)];
    const unavailable: unknown[] = [];
    const [one, two] = dbs.map((db) =>
      createStoredReplayMemory(createClaimStore(createSqliteEngine(db), now), (err) => unavailable.push(err)),
    ) as [ReplayMemory, ReplayMemory];
    return {
      one,
      two,
      unavailable,
      close: () => {
        for (const db of dbs) db.close();
      },
    };
  }

  it('refuses on one replica a signature the other accepted, up to the last second of its window', async () => {
    const signature = 'cd'.repeat(32);
    const timestamp = 1_800_000_000;
    const clock = fakeClock(new Date(timestamp * 1000));
    const r = await replicas(clock.now);
    try {
      expect(await r.one.seenBefore(signature, timestamp, timestamp)).toBe(false);
      // The last second the timestamp is still inside the window (the guard refuses it as stale one second later).
      clock.set(new Date((timestamp + SIGNING_WINDOW_SEC) * 1000 + 500));
      expect(await r.two.seenBefore(signature, timestamp, timestamp + SIGNING_WINDOW_SEC)).toBe(true);
      expect(r.unavailable).toEqual([]);
    } finally {
      r.close();
    }
  });
});
