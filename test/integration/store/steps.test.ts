import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { SqlEngine } from '../../../src/store/engine.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createStepStore, type NewStepExecution, type StepStore } from '../../../src/store/step-store.js';
import { ENGINES, type TestDatabase } from './engines.js';

// Store conformance: Workflow Builder step executions (claimed once, decided once, swept once) and "Always"
// consents mean the same on SQLite and on PostgreSQL.

const t0 = new Date('2026-03-02T09:00:00.000Z');
const HOUR = 60 * 60 * 1000;
/** How long a running execution holds its lease (the service's STEP_RUN_LEASE_MS). */
const LEASE = 2 * 60 * 1000;
const key = crypto.randomBytes(32);
const TOKEN = 'xwfp-conformance-workflow-token-0123456789';

const execution = (o: Partial<NewStepExecution> = {}): NewStepExecution => ({
  executionId: 'Fx1',
  teamId: 'T1',
  userId: 'U1',
  step: 'run_pipeline',
  project: 'demo/web',
  inputs: { project: 'demo/web', ref: 'main', user_id: 'U1' },
  workflowExecutionId: 'Wx1',
  scope: 'step:run_pipeline:demo/web',
  token: TOKEN,
  expiresAt: new Date(t0.getTime() + HOUR),
  ...o,
});

describe.each(ENGINES)('on $name', (under) => {
  const open: SqlEngine[] = [];
  const made: TestDatabase[] = [];
  let at = t0;
  const now = () => at;
  /** Stores over `n` connections to one database (two stand for two replicas). */
  const stores = async (n: number) => {
    const d = await under.database();
    made.push(d);
    const out: { steps: StepStore; engine: SqlEngine }[] = [];
    for (let i = 0; i < n; i++) {
      const engine = await d.open();
      open.push(engine);
      out.push({ steps: createStepStore(engine, createSealer({ key }), now), engine });
    }
    return out;
  };
  const store = async () => (await stores(1))[0] as { steps: StepStore; engine: SqlEngine };
  const twoStores = async () => {
    const [a, b] = await stores(2);
    if (!a || !b) throw new Error('two connections');
    return [a.steps, b.steps] as const;
  };
  afterEach(async () => {
    at = t0;
    for (const e of open.splice(0)) await e.close();
    for (const d of made.splice(0)) d.drop();
  });

  it('stores an execution once, keeps its token sealed and forgets it when done', async () => {
    const { steps, engine } = await store();
    expect(await steps.receive(execution())).toBe(true);
    // Slack delivered it again (a retry, or to another replica): nothing new is stored.
    expect(await steps.receive(execution({ token: 'xwfp-another-token-of-a-redelivery' }))).toBe(false);
    const row = await engine.get<{ sealed_token: string }>('SELECT sealed_token FROM step_executions');
    expect(row?.sealed_token).not.toContain(TOKEN);
    const got = await steps.get('Fx1');
    expect(got).toMatchObject({
      teamId: 'T1',
      userId: 'U1',
      step: 'run_pipeline',
      project: 'demo/web',
      inputs: { project: 'demo/web', ref: 'main', user_id: 'U1' },
      workflowExecutionId: 'Wx1',
      state: 'new',
      dm: null,
      createdAt: t0,
    });
    expect(got?.openToken()).toBe(TOKEN);
    expect(await steps.asked('Fx1', { channel: 'D1', ts: '1.000001' })).toBe(true);
    expect(await steps.get('Fx1')).toMatchObject({ state: 'waiting', dm: { channel: 'D1', ts: '1.000001' } });
    await steps.decide('Fx1', 'U1', 'once', LEASE);
    await steps.finish('Fx1', 'completed');
    const done = await steps.get('Fx1');
    expect(done).toMatchObject({ state: 'done', outcome: 'completed' });
    expect(done?.openToken()).toBeNull();
  });

  it('decides a waiting execution once, only by its person and before it expires, across two connections', async () => {
    const [a, b] = await twoStores();
    await a.receive(execution());
    await a.asked('Fx1', { channel: 'D1', ts: '1.000001' });
    expect(await b.decide('Fx1', 'U2', 'once', LEASE)).toBeNull();
    const [first, second] = await Promise.all([
      a.decide('Fx1', 'U1', 'always', LEASE),
      b.decide('Fx1', 'U1', 'deny', LEASE),
    ]);
    const decided = [first, second].filter((x) => x !== null);
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({ state: 'running' });
    expect(decided[0]?.openToken()).toBe(TOKEN);
    // Past its hour an answer comes too late.
    await a.receive(execution({ executionId: 'Fx2' }));
    await a.asked('Fx2', { channel: 'D1', ts: '1.000002' });
    at = new Date(t0.getTime() + HOUR);
    expect(await a.decide('Fx2', 'U1', 'once', LEASE)).toBeNull();
  });

  it('starts an execution the person allowed already only once', async () => {
    const { steps } = await store();
    await steps.receive(execution());
    expect(await steps.startAllowed('Fx1', LEASE)).toMatchObject({ state: 'running', outcome: 'allowed' });
    expect(await steps.startAllowed('Fx1', LEASE)).toBeNull();
  });

  it('makes the DM of a step run under a consent due when it starts, and hands it to one caller once', async () => {
    const [a, b] = await twoStores();
    await a.receive(execution());
    await a.receive(execution({ executionId: 'Fx2' }));
    await a.asked('Fx2', { channel: 'D1', ts: '1.000001' });
    await a.decide('Fx2', 'U1', 'once', LEASE);
    // Only a start under a consent owes the DM; an answered question does not.
    expect(await a.claimConsentNotice('Fx1')).toBe(false);
    await a.startAllowed('Fx1', LEASE);
    const claims = await Promise.all([a.claimConsentNotice('Fx1'), b.claimConsentNotice('Fx1')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await a.claimConsentNotice('Fx1')).toBe(false);
    expect(await a.claimConsentNotice('Fx2')).toBe(false);
  });

  it('hands an execution left running past its lease to one sweep, and again only after another lease', async () => {
    const [a, b] = await twoStores();
    await a.receive(execution());
    await a.startAllowed('Fx1', LEASE);
    await a.receive(execution({ executionId: 'Fx2' }));
    // Issue 46: within the lease of its run, not after the hour a question waits.
    at = new Date(t0.getTime() + LEASE - 1);
    expect(await a.takeAbandoned(LEASE)).toEqual([]);
    at = new Date(t0.getTime() + LEASE);
    const [one, two] = await Promise.all([a.takeAbandoned(LEASE), b.takeAbandoned(LEASE)]);
    const taken = [...(one ?? []), ...(two ?? [])];
    // Fx2 was never started: it is the expiry sweep's, not this one's.
    expect(taken.map((e) => e.executionId)).toEqual(['Fx1']);
    expect(taken[0]?.openToken()).toBe(TOKEN);
    // Its taker died too: another takes it a lease later; once finished, nobody does.
    expect(await a.takeAbandoned(LEASE)).toEqual([]);
    at = new Date(at.getTime() + LEASE);
    expect((await b.takeAbandoned(LEASE)).map((e) => e.executionId)).toEqual(['Fx1']);
    await b.finish('Fx1', 'failed');
    at = new Date(t0.getTime() + HOUR);
    expect(await a.takeAbandoned(LEASE)).toEqual([]);
    // One the expiry sweep takes (the bot was down past its hour) is not taken over while it is settled.
    expect((await a.takeExpired(LEASE)).map((e) => e.executionId)).toEqual(['Fx2']);
    expect(await b.takeAbandoned(LEASE)).toEqual([]);
    await a.finish('Fx2', 'expired');
    // An answer holds a lease too.
    await a.receive(execution({ executionId: 'Fx3', expiresAt: new Date(at.getTime() + HOUR) }));
    await a.asked('Fx3', { channel: 'D1', ts: '1.000003' });
    await a.decide('Fx3', 'U1', 'once', LEASE);
    at = new Date(at.getTime() + LEASE);
    expect((await b.takeAbandoned(LEASE)).map((e) => e.executionId)).toEqual(['Fx3']);
  });

  it('lists the runs under a consent, newest first', async () => {
    const { steps } = await store();
    await steps.receive(execution());
    at = new Date(t0.getTime() + 1000);
    await steps.receive(execution({ executionId: 'Fx2' }));
    await steps.receive(execution({ executionId: 'Fx3' }));
    await steps.asked('Fx3', { channel: 'D1', ts: '1.000001' });
    await steps.startAllowed('Fx1', LEASE);
    await steps.startAllowed('Fx2', LEASE);
    await steps.decide('Fx3', 'U1', 'once', LEASE);
    expect((await steps.runsUnderConsent('T1', 'U1', 10)).map((e) => e.executionId)).toEqual(['Fx2', 'Fx1']);
    expect((await steps.runsUnderConsent('T1', 'U1', 1)).map((e) => e.executionId)).toEqual(['Fx2']);
    expect(await steps.runsUnderConsent('T1', 'U2', 10)).toEqual([]);
  });

  it('hands each execution past its hour to one sweep, and prunes finished ones a day later', async () => {
    const [a, b] = await twoStores();
    await a.receive(execution({ executionId: 'Fx1' }));
    await a.asked('Fx1', { channel: 'D1', ts: '1.000001' });
    await a.receive(execution({ executionId: 'Fx2' }));
    await a.receive(execution({ executionId: 'Fx3', expiresAt: new Date(t0.getTime() + 2 * HOUR) }));
    expect(await a.takeExpired(LEASE)).toEqual([]);
    at = new Date(t0.getTime() + HOUR);
    const [one, two] = await Promise.all([a.takeExpired(LEASE), b.takeExpired(LEASE)]);
    const taken = [...(one ?? []), ...(two ?? [])].map((e) => e.executionId).sort();
    expect(taken).toEqual(['Fx1', 'Fx2']);
    for (const id of taken) await a.finish(id, 'expired');
    // A day after the lease their expiry moved to.
    at = new Date(t0.getTime() + HOUR + LEASE + 24 * HOUR);
    expect(await a.prune()).toBe(2);
    expect(await a.get('Fx3')).toMatchObject({ state: 'new' });
  });

  it('keeps "Always" consents per person and scope, lists them and takes them back', async () => {
    const { steps } = await store();
    expect(await steps.allows('T1', 'U1', 'step:run_pipeline:demo/web')).toBe(false);
    expect(
      await steps.allow({
        teamId: 'T1',
        userId: 'U1',
        scope: 'step:run_pipeline:demo/web',
        label: 'Run a pipeline on demo/web',
      }),
    ).toBe(true);
    expect(
      await steps.allow({
        teamId: 'T1',
        userId: 'U1',
        scope: 'step:run_pipeline:demo/web',
        label: 'Run a pipeline on demo/web',
      }),
    ).toBe(false);
    at = new Date(t0.getTime() + 1000);
    await steps.allow({
      teamId: 'T1',
      userId: 'U1',
      scope: 'step:create_issue:demo/api',
      label: 'Create an issue in demo/api',
    });
    expect(await steps.allows('T1', 'U1', 'step:run_pipeline:demo/web')).toBe(true);
    expect(await steps.allows('T1', 'U2', 'step:run_pipeline:demo/web')).toBe(false);
    expect(await steps.consents('T1', 'U1')).toEqual([
      { scope: 'step:run_pipeline:demo/web', label: 'Run a pipeline on demo/web', grantedAt: t0, runs: [] },
      {
        scope: 'step:create_issue:demo/api',
        label: 'Create an issue in demo/api',
        grantedAt: new Date(t0.getTime() + 1000),
        runs: [],
      },
    ]);
    expect(await steps.revoke('T1', 'U1', 'step:run_pipeline:demo/web')).toBe(true);
    expect(await steps.revoke('T1', 'U1', 'step:run_pipeline:demo/web')).toBe(false);
    expect(await steps.allows('T1', 'U1', 'step:run_pipeline:demo/web')).toBe(false);
  });
});
