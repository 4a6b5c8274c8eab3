import { afterEach, describe, expect, it } from 'vitest';
import { createClaimStore } from '../../../src/store/claim-store.js';
import { openDatabase } from '../../../src/store/database.js';
import { createSqliteEngine, type SqlEngine } from '../../../src/store/engine.js';
import { createPostgresEngine, openPostgres } from '../../../src/store/postgres-engine.js';
import { fakeClock } from '../../support/clock.js';
import { borrowPostgresUrl, giveBackPostgresUrl } from '../../support/postgres-reuse.js';

// The claims table: the first to insert a key holds it until its time, whichever process asks; written
// against the SqlEngine port, so the same cases run on every engine.

/** What each test opened, closed after it (and its database given back for the next test). */
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
const closing = (engine: SqlEngine): SqlEngine => {
  cleanups.unshift(() => engine.close());
  return engine;
};

const ENGINES: [string, () => Promise<{ engine: SqlEngine; second: () => SqlEngine }>][] = [
  [
    'SQLite (two connections to one file)',
    async () => {
      const fs = await import('node:fs');
      const os = await import('node:os');
      const path = await import('node:path');
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-claims-')), 'bot.db');
      return {
        engine: closing(createSqliteEngine(openDatabase(file))),
        second: () => closing(createSqliteEngine(openDatabase(file))),
      };
    },
  ],
  [
    'PostgreSQL (two pools on one database)',
    async () => {
      const url = await borrowPostgresUrl();
      cleanups.push(async () => giveBackPostgresUrl(url));
      const engine = closing(await openPostgres(url));
      return { engine, second: () => closing(createPostgresEngine(url)) };
    },
  ],
];

describe.each(ENGINES)('claims on %s', (_name, open) => {
  const at = (clock: ReturnType<typeof fakeClock>, ms: number) => new Date(clock.now().getTime() + ms);

  it('gives a key to the first claim only, on any connection, until its time has passed', async () => {
    const clock = fakeClock();
    const { engine, second } = await open();
    const one = createClaimStore(engine, clock.now);
    const two = createClaimStore(second(), clock.now);
    expect(await one.claim('sig:abc', at(clock, 300_000))).toBe(true);
    expect(await two.claim('sig:abc', at(clock, 300_000))).toBe(false);
    expect(await one.claim('sig:abc', at(clock, 300_000))).toBe(false);
    expect(await two.claim('sig:other', at(clock, 300_000))).toBe(true);
    clock.advance(300_000);
    expect(await two.claim('sig:abc', at(clock, 1000))).toBe(true);
  });

  it('lets a released key be claimed again at once', async () => {
    const clock = fakeClock();
    const { engine, second } = await open();
    const one = createClaimStore(engine, clock.now);
    const two = createClaimStore(second(), clock.now);
    expect(await one.claim('click:k', at(clock, 120_000))).toBe(true);
    expect(await two.claim('click:k', at(clock, 120_000))).toBe(false);
    await one.release('click:k');
    expect(await two.claim('click:k', at(clock, 120_000))).toBe(true);
  });

  it('forgets keys whose time has passed when pruning, and only those', async () => {
    const clock = fakeClock();
    const { engine } = await open();
    const claims = createClaimStore(engine, clock.now);
    await claims.claim('a', at(clock, 1000));
    await claims.claim('b', at(clock, 60_000));
    clock.advance(1000);
    expect(await claims.prune()).toBe(1);
    expect(await engine.all('SELECT claim_key FROM claims ORDER BY claim_key')).toEqual([{ claim_key: 'b' }]);
  });

  it('gives a key contested by many claims at once to exactly one', async () => {
    const clock = fakeClock();
    const { engine, second } = await open();
    const stores = [createClaimStore(engine, clock.now), createClaimStore(second(), clock.now)];
    const won = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (stores[i % 2] as (typeof stores)[0]).claim('event:Ev1', at(clock, 1000))),
    );
    expect(won.filter(Boolean)).toHaveLength(1);
  });
});
