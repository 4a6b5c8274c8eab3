import { afterEach, describe, expect, it } from 'vitest';
import type { SqlEngine } from '../../../src/store/engine.js';
import { createTroubleStore } from '../../../src/store/trouble-store.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: the evidence that the server refused many people at once, shared by replicas, means the same on
// SQLite and on PostgreSQL: what one replica notes, another sees.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe.each(ENGINES)('the server’s trouble on $name', (under) => {
  const made: TestDatabase[] = [];
  const open: SqlEngine[] = [];
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });
  const twoReplicas = async () => {
    const d = await under.database();
    made.push(d);
    const a = await d.open();
    const b = await d.open();
    open.push(a, b);
    return [createTroubleStore(a), createTroubleStore(b)] as const;
  };

  it('tells a replica confirming one person’s 401 that someone else was refused on another replica meanwhile', async () => {
    const [a, b] = await twoReplicas();
    await a.note('T:alice', at(100));
    // Only alice's own refusals: nothing says the server is in trouble.
    expect(await b.othersSince(at(0), 'T:alice')).toBe(false);
    await b.note('T:bob', at(200));
    expect(await a.othersSince(at(0), 'T:alice')).toBe(true);
    // Trouble before the call began is not evidence about it.
    expect(await a.othersSince(at(200), 'T:alice')).toBe(false);
    await b.note('(server)', at(300));
    expect(await a.othersSince(at(250), 'T:alice')).toBe(true);
  });

  it('forgets what is older than asked', async () => {
    const [a, b] = await twoReplicas();
    await a.note('T:bob', at(100));
    expect(await b.prune(at(150))).toBe(1);
    expect(await b.othersSince(at(0), 'T:alice')).toBe(false);
  });
});
