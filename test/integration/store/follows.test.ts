import { afterEach, describe, expect, it } from 'vitest';
import type { SqlEngine } from '../../../src/store/engine.js';
import { createFollowStore, type NewFollow } from '../../../src/store/follow-store.js';
import { aFollow } from '../../support/store-rows.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: follows, their leases, the uses of a response_url and the final DM's intent mean the same on
// SQLite and on PostgreSQL.

const t0 = new Date('2026-03-02T10:00:00.000Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);

const follow = (o: Partial<NewFollow> = {}): NewFollow => aFollow(t0, o);

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  const store = async () => {
    const d = await under.database();
    made.push(d);
    const engine = await d.open();
    open.push(engine);
    return createFollowStore(engine);
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('stores a follow with its sealed response_url bound to its id, and reads it back', async () => {
    const follows = await store();
    const a = await follows.create(follow(), (id) => `sealed-for-${id}`);
    const b = await follows.create(follow({ kind: 'job', targetId: 8, card: { channel: 'C1', ts: '1.000100' } }));
    expect(a).toMatchObject({ kind: 'pipeline', targetId: 57, sealedResponseUrl: `sealed-for-${a.id}`, usesLeft: 4 });
    expect(b.id).toBeGreaterThan(a.id);
    expect(await follows.get(b.id)).toMatchObject({
      kind: 'job',
      card: { channel: 'C1', ts: '1.000100' },
      doneAt: null,
    });
    expect((await follows.get(a.id))?.urlUntil?.toISOString()).toBe(at(1800).toISOString());
    expect(await follows.countActive()).toBe(2);
  });

  it('pauses a follow for a refused token once (its follower told once), and lets a working read end the pause', async () => {
    const follows = await store();
    const a = await follows.create(follow());
    await follows.claimDue('r1', { dueBy: at(5), now: at(5), until: at(35), limit: 10 });
    expect(await follows.pauseForToken(a.id, 'r1', at(65))).toBe(true);
    // Released, waiting until its next read, still followed.
    expect(await follows.get(a.id)).toMatchObject({ outcome: 'token', leaseOwner: null, doneAt: null });
    expect((await follows.get(a.id))?.nextPollAt.toISOString()).toBe(at(65).toISOString());
    expect(await follows.countActive()).toBe(1);
    // Paused already: another refusal (here by another replica's claim) moves its next read, says nothing again.
    await follows.claimDue('r2', { dueBy: at(65), now: at(65), until: at(95), limit: 10 });
    expect(await follows.pauseForToken(a.id, 'r2', at(125))).toBe(false);
    // Only the holder of its next claim ends the pause, once.
    await follows.claimDue('r3', { dueBy: at(125), now: at(125), until: at(155), limit: 10 });
    expect(await follows.resumeFromToken(a.id, 'r2')).toBe(false);
    expect(await follows.resumeFromToken(a.id, 'r3')).toBe(true);
    expect(await follows.resumeFromToken(a.id, 'r3')).toBe(false);
    expect((await follows.get(a.id))?.outcome).toBeNull();
  });

  it('names the followers whose follows wait for their token, and makes those follows due when it is accepted', async () => {
    const follows = await store();
    const waiting = await follows.create(follow());
    const going = await follows.create(follow({ targetId: 58 }));
    const bobs = await follows.create(follow({ userId: 'U2', targetId: 59 }));
    await follows.claimDue('r1', { dueBy: at(5), now: at(5), until: at(35), limit: 10 });
    // Paused until their deadline: the kernel's re-check of the token makes them due sooner.
    await follows.pauseForToken(waiting.id, 'r1', at(3600));
    await follows.pauseForToken(bobs.id, 'r1', at(3600));
    await follows.drawn(going.id, 'r1', { drawn: null, drawnAt: null, nextPollAt: at(15) });
    expect(await follows.tokenPaused()).toEqual([
      { teamId: 'T1', userId: 'U1' },
      { teamId: 'T1', userId: 'U2' },
    ]);
    expect(await follows.dueAfterToken('T1', 'U1', at(300))).toBe(1);
    expect((await follows.get(waiting.id))?.nextPollAt).toEqual(at(300));
    expect((await follows.get(going.id))?.nextPollAt).toEqual(at(15));
    expect((await follows.get(bobs.id))?.nextPollAt).toEqual(at(3600));
    // The read that works ends the pause: nobody of U1 waits any more.
    await follows.claimDue('r2', { dueBy: at(300), now: at(300), until: at(330), limit: 10 });
    await follows.resumeFromToken(waiting.id, 'r2');
    expect(await follows.tokenPaused()).toEqual([{ teamId: 'T1', userId: 'U2' }]);
  });

  it('lets one replica claim what is due; another gets it only once the lease ran out', async () => {
    const follows = await store();
    const a = await follows.create(follow());
    const b = await follows.create(follow({ nextPollAt: at(60) }));
    expect(await follows.claimDue('r1', { dueBy: at(4), now: at(4), until: at(34), limit: 10 })).toEqual([]);
    const first = await follows.claimDue('r1', { dueBy: at(5), now: at(5), until: at(35), limit: 10 });
    expect(first.map((f) => f.id)).toEqual([a.id]);
    expect(first[0]?.leaseOwner).toBe('r1');
    expect(await follows.claimDue('r2', { dueBy: at(10), now: at(10), until: at(40), limit: 10 })).toEqual([]);
    // r1 keeps it while it renews; once it stops, r2 takes it over.
    expect(await follows.renew('r1', at(50))).toBe(1);
    expect(await follows.claimDue('r2', { dueBy: at(40), now: at(40), until: at(70), limit: 10 })).toEqual([]);
    const taken = await follows.claimDue('r2', { dueBy: at(51), now: at(51), until: at(81), limit: 10 });
    expect(taken.map((f) => f.id)).toEqual([a.id]);
    // A limit takes the earliest due first.
    await follows.releaseAll('r2');
    const limited = await follows.claimDue('r3', { dueBy: at(100), now: at(100), until: at(130), limit: 1 });
    expect(limited.map((f) => f.id)).toEqual([a.id]);
    const rest = await follows.claimDue('r3', { dueBy: at(100), now: at(100), until: at(130), limit: 5 });
    expect(rest.map((f) => f.id)).toEqual([b.id]);
  });

  it('records what was drawn and releases the lease; takes uses of the response_url only while some are left', async () => {
    const follows = await store();
    const a = await follows.create(follow({ usesLeft: 2 }));
    await follows.claimDue('r1', { dueBy: at(5), now: at(5), until: at(35), limit: 10 });
    expect(await follows.takeUse(a.id, 'r2')).toBe(false);
    expect(await follows.takeUse(a.id, 'r1')).toBe(true);
    expect(await follows.takeUse(a.id, 'r1')).toBe(true);
    expect(await follows.takeUse(a.id, 'r1')).toBe(false);
    await follows.drawn(a.id, 'r1', { drawn: '{"s":"running"}', drawnAt: at(5), nextPollAt: at(10) });
    expect(await follows.get(a.id)).toMatchObject({
      usesLeft: 0,
      drawn: '{"s":"running"}',
      drawnAt: at(5),
      nextPollAt: at(10),
      leaseOwner: null,
    });
  });

  it('keeps the final DM’s intent, its ts and the end; a done follow is never claimed again and is pruned later', async () => {
    const follows = await store();
    const a = await follows.create(follow(), () => 'sealed');
    await follows.claimDue('r1', { dueBy: at(5), now: at(5), until: at(35), limit: 10 });
    expect(await follows.openDm(a.id, 'r2', { key: 'k0', channel: 'D1', outcome: 'success' })).toBe(false);
    expect(await follows.openDm(a.id, 'r1', { key: 'k1', channel: 'D1', outcome: 'success' })).toBe(true);
    expect(await follows.get(a.id)).toMatchObject({ dmKey: 'k1', dmChannel: 'D1', dmTs: null, outcome: 'success' });
    await follows.dmPosted(a.id, 'r1', '9.000100');
    // Posted: no new intent replaces it.
    expect(await follows.openDm(a.id, 'r1', { key: 'k2', channel: 'D1', outcome: 'success' })).toBe(false);
    await follows.finish(a.id, 'r1', { outcome: 'success', at: at(6) });
    const done = await follows.get(a.id);
    expect(done).toMatchObject({ dmKey: 'k1', dmTs: '9.000100', doneAt: at(6), leaseOwner: null });
    // The response_url is forgotten with the follow.
    expect(done?.sealedResponseUrl).toBeNull();
    expect(await follows.claimDue('r1', { dueBy: at(9999), now: at(9999), until: at(99999), limit: 10 })).toEqual([]);
    expect(await follows.countActive()).toBe(0);
    expect(await follows.prune(at(5))).toBe(0);
    expect(await follows.prune(at(7))).toBe(1);
    expect(await follows.get(a.id)).toBeNull();
  });
});
