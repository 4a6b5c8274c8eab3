import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_RUN_LEASE_MS } from '../../../src/steps/service.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createStepStore } from '../../../src/store/step-store.js';
import { fakeClock } from '../../support/clock.js';
import { migratedPostgresUrl } from '../../support/postgres.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE, type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim } from '../../support/start-sim.js';

// Issue 46, on PostgreSQL (workflow-steps.test.ts has it on SQLite): a step whose replica died while it ran is
// failed with a sentence by the first sweep after its lease, by one replica of two, and its person is told.

const clock = fakeClock();
let sim: RunningSimulator;
let a: StartedApp;
let b: StartedApp;

beforeAll(async () => {
  sim = await startSim(clock);
  const databaseUrl = await migratedPostgresUrl();
  a = await startApp({ gitlabUrl: sim.url, databaseUrl, now: clock.now });
  b = await startApp({
    gitlabUrl: sim.url,
    databaseUrl,
    fake: a.fake,
    encryptionKey: a.config.encryption.key.toString('base64'),
    now: clock.now,
  });
}, 60_000);
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await sim?.close();
});

describe('a step whose replica died while it ran, on PostgreSQL', () => {
  it('is failed once within its lease, with a sentence, and its person told', async () => {
    const inputs = { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id };
    const { executionId, token } = a.fake.startFunctionExecution('run_pipeline', inputs);
    // What the dying replica did: stored the execution and started it under alice's "Always", then nothing.
    const dying = createStepStore(a.engine, createSealer(a.config.encryption), clock.now);
    await dying.receive({
      executionId,
      teamId: 'T0TEST',
      userId: PEOPLE.alice.id,
      step: 'run_pipeline',
      project: 'demo/web',
      inputs,
      workflowExecutionId: 'WxDYING',
      scope: 'step:run_pipeline:demo/web:ref:main',
      token,
      expiresAt: new Date(clock.now().getTime() + 60 * 60 * 1000),
    });
    expect(await dying.startAllowed(executionId, STEP_RUN_LEASE_MS)).not.toBeNull();
    const from = a.fake.lastSeq;

    clock.advance(STEP_RUN_LEASE_MS - 1);
    await Promise.all([a.bot.steps.sweep(), b.bot.steps.sweep()]);
    const ends = () =>
      a.fake.records.filter(
        (r) => r.method.startsWith('functions.complete') && r.body.function_execution_id === executionId,
      );
    expect(ends()).toEqual([]);

    clock.advance(1);
    await Promise.all([a.bot.steps.sweep(), b.bot.steps.sweep()]);
    expect(ends().map((r) => [r.method, r.ok, r.body.error])).toEqual([
      [
        'functions.completeError',
        true,
        'the bot restarted while this step ran; check demo/web for whether it ran (it was not run again).',
      ],
    ]);
    const told = a.fake
      .since(from, (r) => r.method === 'chat.postMessage' && r.ok)
      .filter((r) => r.message?.channel === a.fake.dmFor(PEOPLE.alice.id));
    expect(told).toHaveLength(1);
    expect(messageText(told[0]?.message as never)).toContain('The step failed: the bot restarted while this step ran');
    expect(sim.requests()).toEqual([]);
  });
});
