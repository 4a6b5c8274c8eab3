import { afterEach, describe, expect, it } from 'vitest';
import { createDigestStore, type NewDigest } from '../../../src/store/digest-store.js';
import type { SqlEngine } from '../../../src/store/engine.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: digests, their runs' intents and their cursors mean the same on SQLite and on PostgreSQL.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const t1 = new Date('2026-03-03T09:00:00.000Z');
const now = () => t0;

const todos = (o: Partial<NewDigest> = {}): NewDigest => ({
  teamId: 'T1',
  ownerId: 'U1',
  channelId: 'D1',
  inDm: true,
  kind: 'todos',
  project: null,
  user: null,
  action: null,
  targetType: null,
  cron: '0 9 * * 1-5',
  tz: 'Europe/Berlin',
  nextRunAt: t1,
  cursor: { at: t0.toISOString(), keys: [] },
  ...o,
});

const projectEvents = (o: Partial<NewDigest> = {}): NewDigest =>
  todos({
    channelId: 'C1',
    inDm: false,
    kind: 'project_events',
    project: { id: 42, path: 'demo/web' },
    action: 'pushed',
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
    return { digests: createDigestStore(engine, now), engine };
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('creates digests with ids, finds the same one (nulls equal) and lists them by channel, owner and activity', async () => {
    const { digests } = await store();
    const a = await digests.create(todos());
    const b = await digests.create(projectEvents());
    const c = await digests.create(projectEvents({ ownerId: 'U2', action: null }));
    expect(a).toMatchObject({
      teamId: 'T1',
      ownerId: 'U1',
      channelId: 'D1',
      inDm: true,
      kind: 'todos',
      project: null,
      user: null,
      active: true,
      pausedReason: null,
      createdAt: t0,
      lastRunAt: null,
      nextRunAt: t1,
      cursor: { at: t0.toISOString(), keys: [] },
    });
    expect(b.project).toEqual({ id: 42, path: 'demo/web' });
    expect(typeof a.id).toBe('number');
    expect(b.id).toBeGreaterThan(a.id);
    expect(await digests.get(b.id)).toEqual(b);
    expect(await digests.get(9999)).toBeNull();

    expect((await digests.findSame(todos({ cron: '0 8 * * *' })))?.id).toBe(a.id);
    expect((await digests.findSame(projectEvents()))?.id).toBe(b.id);
    expect((await digests.findSame(projectEvents({ ownerId: 'U2', action: null })))?.id).toBe(c.id);
    expect(await digests.findSame(projectEvents({ action: 'merged' }))).toBeNull();
    expect(await digests.findSame(projectEvents({ project: { id: 43, path: 'demo/api' } }))).toBeNull();

    expect((await digests.listForChannel('T1', 'C1')).map((d) => d.id)).toEqual([b.id, c.id]);
    expect((await digests.listForOwner('T1', 'U1')).map((d) => d.id)).toEqual([a.id, b.id]);
    expect(await digests.count()).toBe(3);
    expect(await digests.pause(b.id, 'person', 'U1')).toMatchObject({
      active: false,
      pausedReason: 'person',
      pausedBy: 'U1',
    });
    expect(await digests.pause(b.id, 'person', 'U1')).toBeNull();
    expect((await digests.listActive()).map((d) => d.id)).toEqual([a.id, c.id]);
    expect(await digests.resume(b.id, t1)).toMatchObject({ active: true, pausedReason: null, pausedBy: null });
    expect(await digests.resume(b.id, t1)).toBeNull();
  });

  it('reschedules, pauses and resumes an owner at once, and removes a digest with its intents', async () => {
    const { digests, engine } = await store();
    const a = await digests.create(todos());
    const b = await digests.create(projectEvents());
    await digests.pause(b.id, 'person', 'U1');
    expect(await digests.reschedule(a.id, { cron: '30 7 * * *', tz: 'UTC', nextRunAt: null })).toMatchObject({
      cron: '30 7 * * *',
      tz: 'UTC',
      nextRunAt: null,
    });

    expect(await digests.refilter(b.id, 'pushed', 'issue')).toMatchObject({ action: 'pushed', targetType: 'issue' });
    expect(await digests.refilter(b.id, null, 'issue')).toMatchObject({ action: null, targetType: 'issue' });

    expect((await digests.pauseOwner('T1', 'U1', 'token')).map((d) => d.id)).toEqual([a.id]);
    expect((await digests.get(a.id))?.pausedReason).toBe('token');
    const resumed = await digests.resumeOwner({ teamId: 'T1', ownerId: 'U1', reasons: ['token'], nextRunAt: () => t1 });
    expect(resumed.map((d) => [d.id, d.nextRunAt])).toEqual([[a.id, t1]]);
    expect((await digests.get(b.id))?.pausedReason).toBe('person');

    await digests.openRun({
      runKey: `${a.id}:slot`,
      digestId: a.id,
      scheduledFor: t1,
      reason: 'schedule',
      channelId: 'D1',
      cursor: { at: t1.toISOString(), keys: ['k'] },
      items: 1,
      createdAt: t1,
    });
    expect(await digests.remove(a.id)).toBe(true);
    expect(await digests.remove(a.id)).toBe(false);
    expect(await digests.openRuns()).toEqual([]);
    expect((await engine.get<{ n: number }>('SELECT count(*) AS n FROM digest_runs'))?.n).toBe(0);
  });

  it('records runs that posted nothing without moving the cursor', async () => {
    const { digests } = await store();
    const a = await digests.create(todos());
    const b = await digests.create(projectEvents());
    await digests.recordRun(a.id, { at: t1, result: 'empty', items: 0, nextRunAt: t1 });
    await digests.recordRuns([
      [a.id, { at: t1, result: 'failed: server unavailable', items: 0, nextRunAt: null }],
      [b.id, { at: t1, result: 'empty', items: 0, nextRunAt: t1 }],
    ]);
    expect(await digests.get(a.id)).toMatchObject({
      lastRunAt: t1,
      lastResult: 'failed: server unavailable',
      lastItems: 0,
      nextRunAt: null,
      cursor: { at: t0.toISOString(), keys: [] },
    });
    expect((await digests.get(b.id))?.lastResult).toBe('empty');
  });

  it('moves the cursor to the intent and deletes the intent in one commit; a failure midway changes nothing', async () => {
    const { digests } = await store();
    const a = await digests.create(todos());
    const run = {
      runKey: `${a.id}:2026-03-03T09:00`,
      digestId: a.id,
      scheduledFor: t1,
      reason: 'schedule',
      channelId: 'D1',
      cursor: { at: '2026-03-03T08:59:00.000Z', keys: ['todo:1', 'todo:1'] },
      items: 2,
      createdAt: t1,
    };
    await digests.openRun(run);
    expect(await digests.openRunOf(a.id)).toMatchObject({ state: 'pending', messageTs: null, items: 2 });
    await digests.markPosted(run.runKey, '1700000000.000100');
    expect(await digests.openRuns()).toEqual([{ ...run, state: 'posted', messageTs: '1700000000.000100' }]);

    const record = { at: t1, result: 'posted', items: 2, nextRunAt: null };
    await expect(
      digests.commitRun(run.runKey, record, () => {
        throw new Error('killed while saving');
      }),
    ).rejects.toThrow('killed while saving');
    expect((await digests.get(a.id))?.cursor).toEqual({ at: t0.toISOString(), keys: [] });
    expect(await digests.openRunOf(a.id)).not.toBeNull();

    expect(await digests.commitRun(run.runKey, record)).toBe(true);
    expect(await digests.get(a.id)).toMatchObject({
      cursor: run.cursor,
      lastPostTs: '1700000000.000100',
      lastResult: 'posted',
      lastItems: 2,
    });
    expect(await digests.openRunOf(a.id)).toBeNull();
    expect(await digests.commitRun(run.runKey, record)).toBe(false);
  });

  it('lists open intents oldest first, the latest per digest, and drops one', async () => {
    const { digests } = await store();
    const a = await digests.create(todos());
    const intent = (key: string, at: Date) => ({
      runKey: key,
      digestId: a.id,
      scheduledFor: at,
      reason: 'schedule',
      channelId: 'D1',
      cursor: { at: at.toISOString(), keys: [] },
      items: 0,
      createdAt: at,
    });
    await digests.openRun(intent('b', t1));
    await digests.openRun(intent('a', t0));
    expect((await digests.openRuns()).map((r) => r.runKey)).toEqual(['a', 'b']);
    expect((await digests.openRunOf(a.id))?.runKey).toBe('b');
    await expect(digests.openRun(intent('a', t0))).rejects.toThrow();
    await digests.dropRun('b');
    expect((await digests.openRuns()).map((r) => r.runKey)).toEqual(['a']);
  });
});
