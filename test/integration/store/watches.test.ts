import { afterEach, describe, expect, it } from 'vitest';
import type { SqlEngine } from '../../../src/store/engine.js';
import { createWatchStore, type NewWatch } from '../../../src/store/watch-store.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: pipeline watches, their leases, what a poll remembers and the cards on their way mean the
// same on SQLite and on PostgreSQL.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const at = (s: number) => new Date(t0.getTime() + s * 1000);

const input = (o: Partial<NewWatch> = {}): NewWatch => ({
  teamId: 'T1',
  channelId: 'C1',
  creatorId: 'U1',
  project: { id: 1, path: 'demo/web' },
  ref: null,
  statusFilter: 'failed',
  seen: '12:success 11:failed',
  floorId: 12,
  nextPollAt: at(60),
  ...o,
});

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  const store = async () => {
    const d = await under.database();
    made.push(d);
    const engine = await d.open();
    open.push(engine);
    return createWatchStore(engine);
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('creates watches, finds the same one (a null ref equals a null ref) and lists them by channel and creator', async () => {
    const s = await store();
    const a = await s.create(input(), t0);
    const b = await s.create(input({ ref: 'main', creatorId: 'U2' }), t0);
    const c = await s.create(input({ channelId: 'C2', statusFilter: 'finished' }), t0);
    expect(a).toMatchObject({
      teamId: 'T1',
      channelId: 'C1',
      creatorId: 'U1',
      project: { id: 1, path: 'demo/web' },
      ref: null,
      statusFilter: 'failed',
      active: true,
      pausedReason: null,
      pausedBy: null,
      createdAt: t0,
      seen: '12:success 11:failed',
      floorId: 12,
      nextPollAt: at(60),
      lastPollAt: null,
    });
    expect(await s.get(a.id)).toEqual(a);
    expect(await s.get(9999)).toBeNull();
    expect((await s.findSame(input()))?.id).toBe(a.id);
    expect((await s.findSame(input({ ref: 'main' })))?.id).toBe(b.id);
    expect(await s.findSame(input({ ref: 'other' }))).toBeNull();
    expect((await s.listForChannel('T1', 'C1')).map((w) => w.id)).toEqual([a.id, b.id]);
    expect((await s.listForCreator('T1', 'U1')).map((w) => w.id)).toEqual([a.id, c.id]);
    expect(await s.count()).toBe(3);
  });

  it('leases due watches to one replica at a time, oldest due first; a lease that ran out is taken over', async () => {
    const s = await store();
    const a = await s.create(input({ nextPollAt: at(30) }), t0);
    const b = await s.create(input({ channelId: 'C2', nextPollAt: at(10) }), t0);
    await s.create(input({ channelId: 'C3', nextPollAt: at(600) }), t0);
    const first = await s.claimDue({ owner: 'r1', now: at(60), until: at(120), limit: 10, dueBy: at(60) });
    expect(first.map((c) => c.watch.id)).toEqual([b.id, a.id]);
    expect(first.every((c) => !c.open)).toBe(true);
    expect(await s.claimDue({ owner: 'r2', now: at(61), until: at(121), limit: 10, dueBy: at(61) })).toEqual([]);
    // r1 dies: after its lease, r2 takes both.
    expect(
      (await s.claimDue({ owner: 'r2', now: at(121), until: at(181), limit: 10, dueBy: at(121) })).map(
        (c) => c.watch.id,
      ),
    ).toEqual([b.id, a.id]);
    // One released by its holder goes to whoever asks next.
    await s.release(a.id, 'r2');
    expect(
      (await s.claimDue({ owner: 'r3', now: at(122), until: at(182), limit: 1, dueBy: at(122) })).map(
        (c) => c.watch.id,
      ),
    ).toEqual([a.id]);
    await s.releaseAll('r2');
    await s.releaseAll('r3');
    // Renewed leases hold.
    await s.claimDue({ owner: 'r1', now: at(200), until: at(260), limit: 10, dueBy: at(200) });
    expect(await s.renew('r1', at(400))).toBe(2);
    expect(await s.claimDue({ owner: 'r2', now: at(300), until: at(360), limit: 10, dueBy: at(300) })).toEqual([]);
  });

  it('moves idle polls on and releases them in one transaction; a lost lease writes nothing', async () => {
    const s = await store();
    const a = await s.create(input({ nextPollAt: at(10) }), t0);
    await s.claimDue({ owner: 'r1', now: at(20), until: at(80), limit: 10, dueBy: at(20) });
    await s.recordIdle('r1', [[a.id, { at: at(20), nextPollAt: at(70), result: 'ok' }]]);
    expect(await s.get(a.id)).toMatchObject({ nextPollAt: at(70), lastPollAt: at(20), lastResult: 'ok' });
    expect(await s.claimDue({ owner: 'r2', now: at(30), until: at(90), limit: 10, dueBy: at(30) })).toEqual([]);
    expect((await s.claimDue({ owner: 'r2', now: at(70), until: at(130), limit: 10, dueBy: at(70) })).length).toBe(1);
    // r1 no longer holds it: what it would commit is not written.
    const lost = await s.commitPoll(a.id, 'r1', {
      seen: '13:failed',
      poll: { at: at(71), nextPollAt: at(130), result: 'found 1' },
      cards: [{ key: 'k1', pipelineId: 13, ref: 'main', status: 'failed', sha: 'abc', jobs: [] }],
      fixes: [],
    });
    expect(lost).toBe(false);
    expect(await s.openCards(a.id)).toEqual([]);
    expect((await s.get(a.id))?.seen).toBe('12:success 11:failed');
  });

  it('commits a poll with its cards, marks them posted, and fixes the failures of a ref up to the success', async () => {
    const s = await store();
    const w = await s.create(input({ nextPollAt: at(10) }), t0);
    await s.claimDue({ owner: 'r1', now: at(20), until: at(80), limit: 10, dueBy: at(20) });
    const jobs = [{ id: 7, name: 'unit-tests', stage: 'test' }];
    expect(
      await s.commitPoll(w.id, 'r1', {
        seen: '15:success 14:failed 13:failed',
        poll: { at: at(20), nextPollAt: at(70), result: 'found 3' },
        cards: [
          { key: 'k13', pipelineId: 13, ref: 'main', status: 'failed', sha: 'a', jobs },
          { key: 'k14', pipelineId: 14, ref: 'dev', status: 'failed', sha: 'b', jobs: [] },
          { key: 'k15', pipelineId: 15, ref: 'main', status: 'success', sha: 'c', jobs: [] },
        ],
        fixes: [],
      }),
    ).toBe(true);
    // The lease is kept while the cards go out.
    expect(await s.claimDue({ owner: 'r2', now: at(75), until: at(135), limit: 10, dueBy: at(75) })).toEqual([]);
    const open = await s.openCards(w.id);
    expect(open.map((c) => [c.key, c.state])).toEqual([
      ['k13', 'pending'],
      ['k14', 'pending'],
      ['k15', 'pending'],
    ]);
    expect(open[0]).toMatchObject({ watchId: w.id, pipelineId: 13, ref: 'main', sha: 'a', jobs, seenAt: at(20) });
    expect(await s.cardPosted('k13', '100.1')).toBe('posted');
    expect(await s.cardPosted('k14', '100.2')).toBe('posted');
    // A success needs nothing more once posted.
    expect(await s.cardPosted('k15', '100.3')).toBe('done');
    expect((await s.awaitingFix(w.id)).map((c) => [c.key, c.messageTs])).toEqual([
      ['k13', '100.1'],
      ['k14', '100.2'],
    ]);
    await s.release(w.id, 'r1');
    const claimed = await s.claimDue({ owner: 'r1', now: at(70), until: at(130), limit: 10, dueBy: at(70) });
    expect(claimed[0]?.open).toBe(false);
    await s.commitPoll(w.id, 'r1', {
      seen: '16:success',
      poll: { at: at(70), nextPollAt: at(130), result: 'ok' },
      cards: [],
      fixes: [{ ref: 'main', by: 16 }],
    });
    const fixing = await s.openCards(w.id);
    expect(fixing.map((c) => [c.key, c.state, c.fixedBy, c.fixedAt?.toISOString()])).toEqual([
      ['k13', 'fixing', 16, at(70).toISOString()],
    ]);
    await s.release(w.id, 'r1');
    expect((await s.claimDue({ owner: 'r2', now: at(130), until: at(190), limit: 10, dueBy: at(130) }))[0]?.open).toBe(
      true,
    );
    await s.finishCard('k13');
    expect((await s.awaitingFix(w.id)).map((c) => c.key)).toEqual(['k14']);
    // A pipeline's card is meant once, whatever commits it again.
    await s.commitPoll(w.id, 'r2', {
      seen: '14:failed',
      poll: { at: at(130), nextPollAt: at(190), result: 'ok' },
      cards: [{ key: 'again', pipelineId: 14, ref: 'dev', status: 'failed', sha: 'b', jobs: [] }],
      fixes: [],
    });
    expect(await s.openCards(w.id)).toEqual([]);
    // A failure fixed before its card went out is posted, then redrawn.
    await s.commitPoll(w.id, 'r2', {
      seen: '18:success 17:failed',
      poll: { at: at(131), nextPollAt: at(190), result: 'ok' },
      cards: [{ key: 'k17', pipelineId: 17, ref: 'dev', status: 'failed', sha: 'd', jobs: [] }],
      fixes: [{ ref: 'dev', by: 18 }],
    });
    expect(await s.cardPosted('k17', '100.9')).toBe('fixing');
    expect(await s.remove(w.id)).toBe(true);
    expect(await s.openCards(w.id)).toEqual([]);
    expect(await s.remove(w.id)).toBe(false);
  });

  it('pauses and resumes one watch or all of a creator’s, each change said once', async () => {
    const s = await store();
    const a = await s.create(input(), t0);
    const b = await s.create(input({ channelId: 'C2' }), t0);
    const other = await s.create(input({ creatorId: 'U2' }), t0);
    expect(await s.pause(a.id, 'person', 'U9', at(1))).toMatchObject({
      active: false,
      pausedReason: 'person',
      pausedBy: 'U9',
    });
    expect(await s.pause(a.id, 'person', 'U9', at(2))).toBeNull();
    expect((await s.pauseCreator('T1', 'U1', 'token', at(3))).map((w) => w.id)).toEqual([b.id]);
    expect(await s.pauseCreator('T1', 'U1', 'token', at(4))).toEqual([]);
    expect(await s.claimDue({ owner: 'r1', now: at(100), until: at(160), limit: 10, dueBy: at(100) })).toHaveLength(1);
    expect(
      (await s.resumeCreator({ teamId: 'T1', creatorId: 'U1', reasons: ['token'], nextPollAt: at(5), now: at(5) })).map(
        (w) => w.id,
      ),
    ).toEqual([b.id]);
    expect((await s.get(a.id))?.active).toBe(false);
    expect(await s.resume(a.id, at(6), at(6))).toMatchObject({ active: true, pausedReason: null, nextPollAt: at(6) });
    expect(await s.resume(a.id, at(6), at(6))).toBeNull();
    expect((await s.get(other.id))?.active).toBe(true);
    expect(await s.backlog(at(100), 20_000)).toEqual({ late: 3, oldest: at(5) });
    expect(await s.backlog(at(100), 95_000)).toEqual({ late: 1, oldest: at(5) });
  });
});
