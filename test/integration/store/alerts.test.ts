import { afterEach, describe, expect, it } from 'vitest';
import { createAlertStore } from '../../../src/store/alert-store.js';
import type { SqlEngine } from '../../../src/store/engine.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: todo alerts (settings, leases of polls, held todos, delivery intents) mean the same on SQLite
// and on PostgreSQL.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const input = (userId: string) => ({
  teamId: 'T1',
  userId,
  actions: ['assigned', 'mentioned'] as ('assigned' | 'mentioned')[],
  quiet: { from: 19 * 60, to: 8 * 60 },
  tz: 'Europe/Berlin',
});

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  const stores = async () => {
    const d = await under.database();
    made.push(d);
    const engine = await d.open();
    open.push(engine);
    return createAlertStore(engine);
  };
  afterEach(async () => {
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('turns alerts on from a mark, keeps the mark when changed while on, and starts again after off', async () => {
    const alerts = await stores();
    const first = await alerts.enable(input('U1'), 40, t0);
    expect(first.wasOn).toBe(false);
    expect(first.setting).toMatchObject({
      active: true,
      actions: ['assigned', 'mentioned'],
      quiet: { from: 1140, to: 480 },
      tz: 'Europe/Berlin',
      seenTodoId: 40,
      pausedReason: null,
      nextPollAt: t0,
      lastDeliveryAt: null,
    });
    await alerts.advance('T1', 'U1', 45);
    const changed = await alerts.enable({ ...input('U1'), quiet: null, actions: ['assigned'] }, 99, later(1000));
    expect(changed.wasOn).toBe(true);
    expect(changed.setting).toMatchObject({ seenTodoId: 45, quiet: null, actions: ['assigned'] });
    expect(await alerts.disable('T1', 'U1', later(2000))).toBe(true);
    expect(await alerts.disable('T1', 'U1', later(2000))).toBe(false);
    expect((await alerts.get('T1', 'U1'))?.active).toBe(false);
    const again = await alerts.enable(input('U1'), 50, later(3000));
    expect(again).toMatchObject({ wasOn: false, setting: { seenTodoId: 50 } });
    expect(await alerts.get('T1', 'U9')).toBeNull();
  });

  it('leases due polls to one replica in batches, oldest first, until recorded or run out', async () => {
    const alerts = await stores();
    for (const u of ['U1', 'U2', 'U3']) await alerts.enable(input(u), 0, t0);
    const a = await alerts.claimDue('replica-a', later(10), later(60_000), 2);
    expect(a.map((c) => c.setting.userId)).toEqual(['U1', 'U2']);
    expect(a[0]).toMatchObject({ held: 0, openDelivery: false });
    const b = await alerts.claimDue('replica-b', later(20), later(60_000), 10);
    expect(b.map((c) => c.setting.userId)).toEqual(['U3']);
    expect(await alerts.claimDue('replica-b', later(30), later(60_000), 10)).toEqual([]);
    expect(
      await alerts.claim({ teamId: 'T1', userId: 'U1', owner: 'replica-b', now: later(30), until: later(60_000) }),
    ).toBeNull();

    const next = later(60_000);
    await alerts.recordPolls('replica-a', [['T1', 'U1', { at: later(40), nextPollAt: next, result: 'idle' }]]);
    // Recorded by someone who does not hold it: nothing changes.
    await alerts.recordPolls('replica-a', [['T1', 'U3', { at: later(40), nextPollAt: next, result: 'idle' }]]);
    expect((await alerts.get('T1', 'U1'))?.nextPollAt).toEqual(next);
    expect((await alerts.get('T1', 'U1'))?.lastResult).toBe('idle');
    // U1 is not due before its next poll; U2's replica died and its lease has not run out yet.
    expect(await alerts.claimDue('replica-b', later(50_000), later(120_000), 10)).toEqual([]);
    // Once it has, another replica takes U2 (and U3, its own lease run out too), and U1 is due again.
    const taken = await alerts.claimDue('replica-b', later(61_000), later(120_000), 10);
    expect(taken.map((c) => c.setting.userId)).toEqual(['U2', 'U3', 'U1']);
    expect(await alerts.renew('replica-b', later(200_000))).toBe(3);
    await alerts.releaseAll('replica-b');
    expect((await alerts.claimDue('replica-c', later(62_000), later(120_000), 10)).length).toBe(3);
  });

  it('records a batch of finished polls at once, each with its own next poll, only where the lease is held', async () => {
    const alerts = await stores();
    for (const u of ['U1', 'U2', 'U3', 'U4']) await alerts.enable(input(u), 0, t0);
    const [first, ...others] = await alerts.claimDue('replica-a', later(10), later(60_000), 3);
    expect(others.length).toBe(2);
    // A claim carries what a poll reads, not the whole row.
    expect(first).toEqual({
      setting: {
        teamId: 'T1',
        userId: 'U1',
        actions: ['assigned', 'mentioned'],
        quiet: { from: 1140, to: 480 },
        tz: 'Europe/Berlin',
        seenTodoId: 0,
        dmChannel: null,
        nextPollAt: t0,
        lastDeliveryTs: null,
      },
      held: 0,
      openDelivery: false,
      leaseGen: 1,
      busyPolls: 0,
    });
    expect((await alerts.claimDue('replica-b', later(10), later(120_000), 3)).length).toBe(1);
    await alerts.recordPolls('replica-a', [
      ['T1', 'U1', { at: later(40), nextPollAt: later(61_000), result: 'idle' }],
      ['T1', 'U2', { at: later(50), nextPollAt: later(62_000), result: 'delivered' }],
      ['T1', 'U3', { at: later(60), nextPollAt: later(63_000), result: 'failed' }],
      // U4 is replica-b's: nothing of it changes.
      ['T1', 'U4', { at: later(70), nextPollAt: later(64_000), result: 'idle' }],
    ]);
    const polled = await Promise.all(['U1', 'U2', 'U3', 'U4'].map((u) => alerts.get('T1', u)));
    expect(polled.map((s) => [s?.nextPollAt, s?.lastPollAt, s?.lastResult])).toEqual([
      [later(61_000), later(40), 'idle'],
      [later(62_000), later(50), 'delivered'],
      [later(63_000), later(60), 'failed'],
      [t0, null, null],
    ]);
    // Their leases are let go (U4's is not): another replica takes them as soon as they are due.
    expect(
      (await alerts.claimDue('replica-c', later(63_000), later(120_000), 10)).map((c) => c.setting.userId),
    ).toEqual(['U1', 'U2', 'U3']);
  });

  it('holds todos with the mark in one step, carries them in a delivery and drops them with its commit', async () => {
    const alerts = await stores();
    await alerts.enable(input('U1'), 10, t0);
    await alerts.hold({
      teamId: 'T1',
      userId: 'U1',
      todos: [
        { todoId: 11, todo: '{"id":11}' },
        { todoId: 12, todo: '{"id":12}' },
      ],
      seenTodoId: 12,
      now: t0,
    });
    await alerts.hold({
      teamId: 'T1',
      userId: 'U1',
      todos: [{ todoId: 12, todo: '{"id":12}' }],
      seenTodoId: 12,
      now: t0,
    });
    expect(await alerts.held('T1', 'U1')).toEqual([
      { todoId: 11, todo: '{"id":11}' },
      { todoId: 12, todo: '{"id":12}' },
    ]);
    const [claimed] = await alerts.claimDue('r', later(1), later(60_000), 10);
    expect(claimed).toMatchObject({ held: 2, openDelivery: false, setting: { seenTodoId: 12 } });

    await alerts.openDelivery(
      { runKey: 'run-1', teamId: 'T1', userId: 'U1', channelId: 'D1', seenTodoId: 14, todoIds: [11, 12], items: 3 },
      t0,
    );
    expect(
      (await alerts.claim({ teamId: 'T1', userId: 'U1', owner: 'r', now: later(2), until: later(60_000) }))
        ?.openDelivery,
    ).toBe(true);
    expect(await alerts.openDeliveryOf('T1', 'U1')).toMatchObject({
      runKey: 'run-1',
      state: 'pending',
      messageTs: null,
      seenTodoId: 14,
      todoIds: [11, 12],
      items: 3,
    });
    await alerts.markPosted('run-1', '1700000000.000100');
    await alerts.commitDelivery('run-1', later(5));
    expect(await alerts.openDeliveryOf('T1', 'U1')).toBeNull();
    expect(await alerts.held('T1', 'U1')).toEqual([]);
    expect(await alerts.get('T1', 'U1')).toMatchObject({
      seenTodoId: 14,
      lastDeliveryAt: later(5),
      lastDeliveryItems: 3,
      lastDeliveryTs: '1700000000.000100',
    });

    // A dropped intent moves nothing.
    await alerts.openDelivery(
      { runKey: 'run-2', teamId: 'T1', userId: 'U1', channelId: 'D1', seenTodoId: 20, todoIds: [], items: 1 },
      t0,
    );
    await alerts.dropDelivery('run-2');
    expect((await alerts.get('T1', 'U1'))?.seenTodoId).toBe(14);
  });

  it('pauses polling for a refused token once, resumes it once, and counts who is overdue', async () => {
    const alerts = await stores();
    await alerts.enable(input('U1'), 0, t0);
    await alerts.enable(input('U2'), 0, later(30_000));
    expect(await alerts.backlog(later(60_000))).toEqual({ polling: 2, overdue: 2, oldest: t0 });
    expect(await alerts.pauseForToken('T1', 'U1', t0)).toBe(true);
    expect(await alerts.pauseForToken('T1', 'U1', t0)).toBe(false);
    expect((await alerts.claimDue('r', later(60_000), later(120_000), 10)).map((c) => c.setting.userId)).toEqual([
      'U2',
    ]);
    expect(await alerts.backlog(later(60_000))).toMatchObject({ polling: 1 });
    expect(await alerts.resumeAfterToken('T1', 'U1', later(90_000))).toBe(true);
    expect(await alerts.resumeAfterToken('T1', 'U1', later(90_000))).toBe(false);
    expect((await alerts.get('T1', 'U1'))?.nextPollAt).toEqual(later(90_000));
  });
});
