import { describe, expect, it } from 'vitest';
import { functionExecutedEvent } from '../../../src/console/payloads.js';
import { createWorkPlaces, REQUEST_WORK_PLACES } from '../../../src/slack/transport/work-places.js';
import { STEP_RUN_LEASE_MS } from '../../../src/steps/service.js';
import { createSealer } from '../../../src/store/sealer.js';
import { createStepStore } from '../../../src/store/step-store.js';
import { buttonOf, call, useBot, WEB } from '../../support/app-harness.js';
import type { FakeMessage, FakeRecord } from '../../support/fake-slack.js';
import { buttonsOf, buttonsOfView, messageText } from '../../support/slack-driver.js';
import { PEOPLE, type PersonName, startApp } from '../../support/start-app.js';

// Workflow Builder steps through the whole app: Slack's signed function_executed → the bot → the person's consent
// DM → the simulator (with that person's token) → functions.completeSuccess / completeError on the fake Slack.

const workPlaces = createWorkPlaces(REQUEST_WORK_PLACES);
const h = useBot({ workPlaces });
const RUN = { callbackId: 'run_pipeline', title: 'Run a pipeline' };
const ISSUE = { callbackId: 'create_issue', title: 'Create an issue' };
const HOUR = 60 * 60 * 1000;

const fake = () => h.bot.fake;
const dmOf = (person: PersonName) => fake().dmFor(PEOPLE[person].id);

/** A workflow reaches a step: what Slack sends, and the consent DM it leads to (when it leads to one). */
async function runStep(step: typeof RUN, inputs: Record<string, unknown>) {
  const from = fake().lastSeq;
  const started = await h.bot.slack.runStep(step, inputs);
  expect(started.it.ack.status).toBe(200);
  return { ...started, from };
}

/** The question the person was sent, once the execution waits for it (the bot noted where it asked). */
async function questionFor(person: PersonName, from: number): Promise<FakeMessage> {
  const r = await fake().waitFor(
    (x) => x.method === 'chat.postMessage' && x.ok && x.message?.channel === dmOf(person),
    { fromSeq: from },
  );
  if (!r?.message) expect.fail(`${person} was not asked`);
  const { channel, ts } = r.message;
  for (const end = Date.now() + 15_000; Date.now() < end; ) {
    const row = await h.bot.engine.get('SELECT 1 AS ok FROM step_executions WHERE dm_channel = $1 AND dm_ts = $2', [
      channel,
      ts,
    ]);
    if (row) return r.message;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return expect.fail(`the step never noted that it asked ${person}`);
}

/** How the execution ended on Slack's side (completeSuccess / completeError), once it did. */
async function endOf(executionId: string): Promise<FakeRecord['body']> {
  const r = await fake().waitFor(
    (x) => x.method.startsWith('functions.complete') && x.ok && x.body.function_execution_id === executionId,
  );
  if (!r) expect.fail(`execution ${executionId} never ended`);
  const { outputs, ...rest } = r.body;
  // The Web API client sends objects as JSON text in a form.
  return {
    method: r.method,
    ...rest,
    ...(outputs ? { outputs: typeof outputs === 'string' ? JSON.parse(outputs) : outputs } : {}),
  };
}

const completions = (executionId: string) =>
  fake()
    .records.filter((r) => r.method.startsWith('functions.complete') && r.body.function_execution_id === executionId)
    .map((r) => ({ method: r.method, ok: r.ok }));

/** The DM once redrawn (chat.update), as its person reads it. */
async function redrawn(m: FakeMessage, from: number): Promise<string> {
  const r = await fake().waitFor((x) => x.method === 'chat.update' && x.ok && x.message?.key === m.key, {
    fromSeq: from,
  });
  if (!r?.message) expect.fail('the question was not redrawn');
  return messageText(r.message);
}

/** Nothing more is under way: every request Slack sent has finished (not a real wait). */
const settle = () => h.idle();

/** The DM that tells a person a step acted as them under their "Always". */
async function noticeFor(person: PersonName, from: number): Promise<FakeMessage> {
  const r = await fake().waitFor(
    (x) =>
      x.method === 'chat.postMessage' &&
      x.ok &&
      x.message?.channel === dmOf(person) &&
      messageText(x.message).includes('A workflow step acted as you'),
    { fromSeq: from },
  );
  if (!r?.message) return expect.fail(`${person} was not told`);
  return r.message;
}

describe('Run a pipeline', () => {
  it("asks the person first, then runs the pipeline with their token and completes with the pipeline's outputs", async () => {
    const { executionId, from } = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
    const question = await questionFor('alice', from);
    const text = messageText(question);
    expect(text).toContain('A workflow asks to act as you: Run a pipeline');
    expect(text).toMatch(/run `WxFAKE\d+`/);
    expect(text).toContain('*Project*\ndemo/web');
    expect(text).toContain('*Branch or tag*\nmain');
    expect(question.blocks && JSON.stringify(question.blocks)).not.toContain('xwfp-');
    const labels = (question.blocks as { type: string; elements?: { text: { text: string } }[] }[])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => (b.elements ?? []).map((e) => e.text.text));
    expect(labels).toEqual(['Allow once', 'Always for Run a pipeline on demo/web at main', 'Deny']);
    // Nothing is done on the builder's word.
    await settle();
    expect(h.calls()).toEqual([]);
    expect(completions(executionId)).toEqual([]);

    const clicked = fake().lastSeq;
    await h.click('alice', buttonOf(question, /^Allow once$/));
    const end = await endOf(executionId);
    const calls = h.calls();
    expect(calls).toEqual([call('POST', `${WEB}/pipeline`, 'alice', { body: { ref: 'main' }, status: 201 })]);
    expect(end).toMatchObject({
      method: 'functions.completeSuccess',
      outputs: {
        pipeline_id: expect.any(Number),
        pipeline_url: expect.stringMatching(/\/demo\/web\/-\/pipelines\/\d+$/),
      },
    });
    const outputs = (end as { outputs: Record<string, unknown> }).outputs;
    expect(typeof outputs.status).toBe('string');
    expect(Object.keys(outputs).sort()).toEqual(['pipeline_id', 'pipeline_url', 'status']);
    const after = await redrawn(question, clicked);
    expect(after).toContain('You allowed it once.');
    expect(after).toContain(`Started <`);
    expect(after).not.toContain('[Allow once]');

    // No workflow token reaches the bot's log.
    const tokens = [...fake().workflowTokens.keys()];
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(h.bot.logs.join('\n')).not.toContain(token);

    // Once was once: the next run asks again.
    const again = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
    await questionFor('alice', again.from);
  });

  it('fails with a sentence, after the person allowed it, when the ref or the project does not exist or the server refuses', async () => {
    const cases: [PersonName, Record<string, string>, RegExp][] = [
      ['alice', { project: 'demo/web', ref: 'no-such-branch' }, /^demo\/web has no branch or tag no-such-branch\.$/],
      ['alice', { project: 'demo/nope', ref: 'main' }, /^No project demo\/nope on .+, or @alice cannot see it\.$/],
      ['eve', { project: 'demo/web', ref: 'main' }, /^The server refused it for @eve \(403\)/],
    ];
    for (const [person, inputs, sentence] of cases) {
      const { executionId, from } = await runStep(RUN, { ...inputs, user_id: PEOPLE[person].id });
      const question = await questionFor(person, from);
      const clicked = fake().lastSeq;
      await h.click(person, buttonOf(question, /^Allow once$/));
      const end = await endOf(executionId);
      expect(end.method).toBe('functions.completeError');
      expect(end.error).toMatch(sentence);
      expect(await redrawn(question, clicked)).toContain('The step failed:');
    }
  });

  it('fails at once, asking nobody, when the person is not connected or the inputs cannot be used', async () => {
    const carol = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.carol.id });
    expect(await endOf(carol.executionId)).toMatchObject({
      method: 'functions.completeError',
      error: expect.stringMatching(/^@carol is not connected to .+; they can connect with \/gl connect\.$/),
    });
    const nobody = await runStep(RUN, { project: 'demo/web', ref: 'main' });
    expect(await endOf(nobody.executionId)).toMatchObject({
      method: 'functions.completeError',
      error: "The step's inputs cannot be used: user_id is missing.",
    });
    const traversal = await runStep(RUN, { project: 'demo/../admin', ref: 'main', user_id: PEOPLE.alice.id });
    expect((await endOf(traversal.executionId)).error).toMatch(/project must be a path like group\/project/);
    expect(fake().since(carol.from, (r) => r.method === 'chat.postMessage')).toEqual([]);
    expect(h.calls()).toEqual([]);
  });
});

describe('consent', () => {
  it('Deny fails the step with "not allowed by @alice" and sends nothing to the server', async () => {
    const { executionId, from } = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
    const question = await questionFor('alice', from);
    const clicked = fake().lastSeq;
    await h.click('alice', buttonOf(question, /^Deny$/));
    expect(await endOf(executionId)).toMatchObject({
      method: 'functions.completeError',
      error: 'not allowed by @alice',
    });
    expect(await redrawn(question, clicked)).toContain('You denied it');
    expect(h.calls()).toEqual([]);
  });

  it('fails a step nobody answered within the hour, by the clock, and a late click does nothing', async () => {
    const { executionId, from } = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
    const question = await questionFor('alice', from);
    const allow = buttonOf(question, /^Allow once$/);
    h.clock.advance(HOUR - 1000);
    await h.bot.bot.steps.sweep();
    expect(completions(executionId)).toEqual([]);
    h.clock.advance(1000);
    const swept = fake().lastSeq;
    await h.bot.bot.steps.sweep();
    expect(await endOf(executionId)).toMatchObject({
      method: 'functions.completeError',
      error: 'not allowed by @alice: no answer within an hour',
    });
    expect(await redrawn(question, swept)).toContain('Nobody answered within an hour');
    await h.click('alice', allow);
    await settle();
    expect(completions(executionId)).toEqual([{ method: 'functions.completeError', ok: true }]);
    expect(h.calls()).toEqual([]);
  });

  it('a question is answered only by its person; anyone else is told whose it is, and nothing changes', async () => {
    const { executionId, from } = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
    const question = await questionFor('alice', from);
    for (const answer of [/^Allow once$/, /^Always for /, /^Deny$/]) {
      const byBob = await h.click('bob', buttonOf(question, answer));
      const told = await byBob.waitForMessage((t) => /only they can answer it/.test(t));
      expect(told && messageText(told)).toContain(
        `This question is for <@${PEOPLE.alice.id}>, whom the step would act as: only they can answer it. Nothing was done.`,
      );
    }
    await settle();
    expect(completions(executionId)).toEqual([]);
    expect(question.version).toBe(1);
    expect(h.calls()).toEqual([]);
    await h.click('alice', buttonOf(question, /^Deny$/));
    await endOf(executionId);
  });
});

describe('Create an issue: asked every time', () => {
  // Issue 46: on aefc319 alice's "Always" for create_issue on demo/web let a different workflow create an issue
  // titled "Planted by another workflow <!channel>" as her. The event names no workflow that runs again and the
  // title is the workflow's free text: there is no "Always" for this step, only Allow once.
  it('creates the issue with the inputs once allowed, offers no Always, and asks again the next time', async () => {
    const inputs = {
      project: 'demo/web',
      title: 'Broken <!channel> build',
      description: 'Seen in *prod*',
      labels: ' bug, ops ,, ',
      user_id: PEOPLE.bob.id,
    };
    const first = await runStep(ISSUE, inputs);
    const question = await questionFor('bob', first.from);
    const text = messageText(question);
    expect(text).toContain('*Title*\nBroken &lt;!channel&gt; build');
    expect(text).toContain('*Labels*\nbug, ops ,,');
    expect(text).toContain('There is no “Always” for this step');
    expect(buttonsOf(question).map((b) => b.text)).toEqual(['Allow once', 'Deny']);
    await h.click('bob', buttonOf(question, /^Allow once$/));
    const end = await endOf(first.executionId);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues`, 'bob', {
        body: { title: 'Broken <!channel> build', description: 'Seen in *prod*', labels: 'bug,ops' },
        status: 201,
      }),
    ]);
    expect(end).toMatchObject({
      method: 'functions.completeSuccess',
      outputs: { issue_iid: expect.any(Number), issue_url: expect.stringMatching(/\/demo\/web\/(-\/)?issues\/\d+$/) },
    });

    // Another workflow, the same project: asked again, and nothing is created before bob answers.
    const planted = await runStep(ISSUE, { ...inputs, title: 'Planted by another workflow <!channel>' });
    const asked = await questionFor('bob', planted.from);
    expect(messageText(asked)).toContain('Planted by another workflow &lt;!channel&gt;');
    await settle();
    expect(h.calls()).toHaveLength(1);
    expect(completions(planted.executionId)).toEqual([]);
  });
});

describe('"Always" for a pipeline', () => {
  // Issue 46: on aefc319 bob's "Always" for run_pipeline on ref=main let another execution run a pipeline on
  // eve-branch as him. It now covers the step, the project and the ref the question showed.
  it('covers that ref of that project only: another ref or project asks first; runs under it are listed with Revoke', async () => {
    const inputs = { project: 'demo/web', ref: 'main', user_id: PEOPLE.bob.id };
    const first = await runStep(RUN, inputs);
    const question = await questionFor('bob', first.from);
    await h.click('bob', buttonOf(question, /^Always for Run a pipeline on demo\/web at main$/));
    expect((await endOf(first.executionId)).method).toBe('functions.completeSuccess');

    // A second execution on main runs without a question (bob is told afterwards).
    const second = await runStep(RUN, inputs);
    expect((await endOf(second.executionId)).method).toBe('functions.completeSuccess');
    await noticeFor('bob', second.from);

    // A third on eve-branch, and one on another project, ask first and do nothing meanwhile.
    const calls = h.calls().length;
    const branch = await runStep(RUN, { ...inputs, ref: 'eve-branch' });
    const branchQuestion = await questionFor('bob', branch.from);
    expect(buttonsOf(branchQuestion).map((b) => b.text)).toContain(
      'Always for Run a pipeline on demo/web at eve-branch',
    );
    const other = await runStep(RUN, { ...inputs, project: 'demo/docs' });
    await questionFor('bob', other.from);
    await settle();
    expect(h.calls()).toHaveLength(calls);
    expect(completions(branch.executionId)).toEqual([]);
    expect(completions(other.executionId)).toEqual([]);

    // whoami lists the consent and the run made under it, with Revoke; revoking makes main ask again.
    const whoami = await h.ask('bob', 'whoami', /Workflow steps you always allow/);
    expect(whoami.text).toContain('Run a pipeline on demo/web at main');
    expect(whoami.text).toMatch(
      /Run a pipeline on demo\/web at main · since [^\n]*\n\[Revoke\]\nRan under it: once in the last day, the latest .* \(completed\)/,
    );
    const revoked = await h.press('bob', buttonOf(whoami, /^Revoke$/), /Revoked/);
    expect(revoked.text).toContain('Run a pipeline on demo/web at main asks you again');
    const third = await runStep(RUN, inputs);
    await questionFor('bob', third.from);
  });

  it('lists the consents on the Home tab, where Revoke draws the Home again without them', async () => {
    const first = await runStep(RUN, { project: 'demo/shop', ref: 'main', user_id: PEOPLE.alice.id });
    const question = await questionFor('alice', first.from);
    await h.click('alice', buttonOf(question, /^Always for/));
    await endOf(first.executionId);
    const from = fake().lastSeq;
    await h.bot.slack.openHome(PEOPLE.alice);
    const home = await fake().waitFor((r) => r.method === 'views.publish' && r.ok, { fromSeq: from });
    if (!home?.view) return expect.fail('no Home was published');
    const blocks = JSON.stringify(home.view.blocks);
    expect(blocks).toContain('Workflow steps you always allow');
    expect(blocks).toContain('Run a pipeline on demo/shop at main');
    const revoke = buttonsOfView(home.view).find((b) => b.text === 'Revoke');
    if (!revoke) return expect.fail('no Revoke on the Home');
    const clicked = fake().lastSeq;
    await h.bot.slack.clickInView(PEOPLE.alice, revoke);
    const again = await fake().waitFor((r) => r.method === 'views.publish' && r.ok, { fromSeq: clicked });
    const after = JSON.stringify(again?.view?.blocks ?? []);
    expect(after).toContain('Revoked: Run a pipeline on demo/shop at main asks you again');
    expect(after).not.toContain('Workflow steps you always allow');
    const next = await runStep(RUN, { project: 'demo/shop', ref: 'main', user_id: PEOPLE.alice.id });
    await questionFor('alice', next.from);
  });
});

describe('a step waiting in the database', () => {
  it('is answered on another replica (or after a restart), and swept there with the token stored by the first', async () => {
    const { executionId, from } = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
    const question = await questionFor('alice', from);
    // A second bot on the same database and key, behind the same Slack app.
    const replica = await startApp({
      gitlabUrl: h.sim.url,
      dataDir: h.bot.dataDir,
      fake: fake(),
      encryptionKey: h.bot.config.encryption.key.toString('base64'),
      now: h.clock.now,
    });
    try {
      const clicked = await replica.slack.click(PEOPLE.alice, buttonOf(question, /^Allow once$/));
      expect(clicked.ack.status).toBe(200);
      expect((await endOf(executionId)).method).toBe('functions.completeSuccess');
      expect(h.calls()).toEqual([call('POST', `${WEB}/pipeline`, 'alice', { body: { ref: 'main' }, status: 201 })]);
      // One nobody answers is failed by the other replica's sweep, with the workflow token stored (sealed) by the first.
      const second = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
      await questionFor('alice', second.from);
      h.clock.advance(HOUR);
      await replica.bot.steps.sweep();
      expect(await endOf(second.executionId)).toMatchObject({
        error: 'not allowed by @alice: no answer within an hour',
      });
      const ended = fake().records.find(
        (r) => r.method === 'functions.completeError' && r.body.function_execution_id === second.executionId,
      );
      expect(ended?.viaExecution).toBe(second.executionId);
    } finally {
      await replica.stop();
    }
  });
});

describe('once', () => {
  it('runs nothing twice for a function_executed delivered again, by a retry or as another event', async () => {
    const { executionId, from, deliver } = await runStep(RUN, {
      project: 'demo/web',
      ref: 'main',
      user_id: PEOPLE.alice.id,
    });
    const question = await questionFor('alice', from);
    // Slack's retry: the same callback, acknowledged at once.
    const retried = await deliver({ retry: 1 });
    expect(retried.status).toBe(200);
    // The same execution in another callback (another event id): the execution id is claimed too.
    const execution = fake().functionExecutions.get(executionId);
    const copy = await h.bot.slack.event(
      functionExecutedEvent({
        callbackId: RUN.callbackId,
        title: RUN.title,
        inputs: execution?.inputs ?? {},
        executionId,
        workflowExecutionId: 'WxCOPY',
        token: fake().issueWorkflowToken(executionId),
      }),
    );
    expect(copy.ack.status).toBe(200);
    await settle();
    expect(fake().since(from, (r) => r.method === 'chat.postMessage')).toHaveLength(1);
    // The repeated deliveries were acknowledged and went no further: neither keeps a place among the requests at work.
    expect(workPlaces.inUse).toBe(0);

    // A double click (two requests at once) acts once.
    await Promise.all([
      h.click('alice', buttonOf(question, /^Allow once$/)),
      h.click('alice', buttonOf(question, /^Allow once$/)),
    ]);
    await endOf(executionId);
    await settle();
    expect(h.calls()).toHaveLength(1);
    expect(completions(executionId)).toEqual([{ method: 'functions.completeSuccess', ok: true }]);
  });
});

describe('a step acting under an "Always"', () => {
  it('tells its person once, with what ran, a link to it and Revoke; the question path and a redelivery do not', async () => {
    const inputs = { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id };
    const first = await runStep(RUN, inputs);
    const question = await questionFor('alice', first.from);
    await h.click('alice', buttonOf(question, /^Always for Run a pipeline on demo\/web at main$/));
    await endOf(first.executionId);
    await settle();
    // Answering the question tells the person already (the question is redrawn): no second DM.
    expect(fake().since(first.from, (r) => r.method === 'chat.postMessage')).toHaveLength(1);

    const second = await runStep(RUN, inputs);
    const end = await endOf(second.executionId);
    const notice = await noticeFor('alice', second.from);
    const text = messageText(notice);
    const url = String((end.outputs as { pipeline_url: string }).pipeline_url);
    const id = String((end.outputs as { pipeline_id: number }).pipeline_id);
    expect(url.startsWith(`${h.sim.url}/`)).toBe(true);
    expect(text).toContain('reached its step *Run a pipeline* and it acted as you on `demo/web`');
    expect(text).toContain('under your “Always for Run a pipeline on demo/web at main”');
    expect(text).toContain(`:rocket: Started <${url}|pipeline #${id}>`);
    expect(buttonsOf(notice).map((b) => b.text)).toEqual(['Revoke']);

    // Slack delivers the same execution again (a retry, another event): nobody is told twice, nothing runs again.
    const calls = h.calls().length;
    expect((await second.deliver({ retry: 1 })).status).toBe(200);
    const execution = fake().functionExecutions.get(second.executionId);
    const copy = await h.bot.slack.event(
      functionExecutedEvent({
        callbackId: RUN.callbackId,
        title: RUN.title,
        inputs: execution?.inputs ?? {},
        executionId: second.executionId,
        workflowExecutionId: 'WxCOPY',
        token: fake().issueWorkflowToken(second.executionId),
      }),
    );
    expect(copy.ack.status).toBe(200);
    await settle();
    expect(fake().since(second.from, (r) => r.method === 'chat.postMessage')).toHaveLength(1);
    expect(h.calls()).toHaveLength(calls);
    const row = await h.bot.engine.get<{ consent_notice: string }>(
      'SELECT consent_notice FROM step_executions WHERE execution_id = $1',
      [second.executionId],
    );
    expect(row?.consent_notice).toBe('sent');

    // Its Revoke is the one Home and whoami have: the next run asks again.
    const revoked = await h.press('alice', buttonOf(notice, /^Revoke$/), /Revoked/);
    expect(revoked.text).toContain('Run a pipeline on demo/web at main asks you again');
    const third = await runStep(RUN, inputs);
    await questionFor('alice', third.from);
  });

  it('tells its person when the step failed too, without a link', async () => {
    const inputs = { project: 'demo/web', ref: 'no-such-branch', user_id: PEOPLE.bob.id };
    const first = await runStep(RUN, inputs);
    await h.click('bob', buttonOf(await questionFor('bob', first.from), /^Always for/));
    await endOf(first.executionId);
    const second = await runStep(RUN, inputs);
    expect((await endOf(second.executionId)).method).toBe('functions.completeError');
    const text = messageText(await noticeFor('bob', second.from));
    expect(text).toContain('reached its step *Run a pipeline* and it acted as you on `demo/web`');
    expect(text).toContain(':warning: The step failed: demo/web has no branch or tag no-such-branch.');
    expect(text).not.toMatch(/<http/);
  });
});

describe('a step whose replica died while it ran', () => {
  // Issue 46: on aefc319 such a step hung for about 70 minutes (until the hour's sweep) while its DM still showed
  // live-looking buttons. Its run holds a lease of STEP_RUN_LEASE_MS; the first sweep after it fails it.
  it('is failed once, within its lease, with a sentence that says so, its DM redrawn, and never run again', async () => {
    const { executionId, from } = await runStep(RUN, { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id });
    const question = await questionFor('alice', from);
    const allowOnce = buttonOf(question, /^Allow once$/);
    // The replica that took alice's answer died before it finished: the row says running, under that replica's
    // lease, and nobody will finish it.
    const leaseEnd = new Date(h.clock.now().getTime() + STEP_RUN_LEASE_MS).toISOString();
    await h.bot.engine.run(
      `UPDATE step_executions SET state = 'running', outcome = 'once', expires_at = $2 WHERE execution_id = $1`,
      [executionId, leaseEnd],
    );
    h.clock.advance(STEP_RUN_LEASE_MS - 1);
    await h.bot.bot.steps.sweep();
    expect(completions(executionId)).toEqual([]);
    h.clock.advance(1);
    const swept = fake().lastSeq;
    // Two replicas sweep at once: one of them fails it.
    const replica = await startApp({
      gitlabUrl: h.sim.url,
      dataDir: h.bot.dataDir,
      fake: fake(),
      encryptionKey: h.bot.config.encryption.key.toString('base64'),
      now: h.clock.now,
    });
    try {
      await Promise.all([h.bot.bot.steps.sweep(), replica.bot.steps.sweep()]);
    } finally {
      await replica.stop();
    }
    expect(await endOf(executionId)).toMatchObject({
      method: 'functions.completeError',
      error: 'the bot restarted while this step ran; check demo/web for whether it ran (it was not run again).',
    });
    expect(await redrawn(question, swept)).toContain(
      'The step failed: the bot restarted while this step ran; check demo/web for whether it ran',
    );
    h.clock.advance(HOUR);
    await h.bot.bot.steps.sweep();
    expect(completions(executionId)).toEqual([{ method: 'functions.completeError', ok: true }]);
    expect(h.calls()).toEqual([]);
    const row = await h.bot.engine.get<{ state: string }>('SELECT state FROM step_executions WHERE execution_id = $1', [
      executionId,
    ]);
    expect(row?.state).toBe('done');

    // A button of the question, clicked now, says the step has ended.
    const late = await h.click('alice', allowOnce);
    expect(await late.waitForMessage((t) => /This step has ended already/.test(t))).not.toBeNull();
    expect(h.calls()).toEqual([]);
  });

  it('run under an "Always" is failed within its lease too, and its person told', async () => {
    // What a replica does before it dies in the middle of a run under alice's "Always": the execution stored and
    // started with the lease of its run (the same store the app uses), and nothing after.
    const inputs = { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id };
    const { executionId, token } = fake().startFunctionExecution(RUN.callbackId, inputs);
    const dying = createStepStore(h.bot.engine, createSealer(h.bot.config.encryption), h.clock.now);
    await dying.receive({
      executionId,
      teamId: 'T0TEST',
      userId: PEOPLE.alice.id,
      step: 'run_pipeline',
      project: 'demo/web',
      inputs: { project: 'demo/web', ref: 'main', user_id: PEOPLE.alice.id },
      workflowExecutionId: 'WxDYING',
      scope: 'step:run_pipeline:demo/web:ref:main',
      token,
      expiresAt: new Date(h.clock.now().getTime() + HOUR),
    });
    const from = fake().lastSeq;
    expect(await dying.startAllowed(executionId, STEP_RUN_LEASE_MS)).not.toBeNull();
    h.clock.advance(STEP_RUN_LEASE_MS);
    await h.bot.bot.steps.sweep();
    expect(await endOf(executionId)).toMatchObject({ method: 'functions.completeError' });
    const text = messageText(await noticeFor('alice', from));
    expect(text).toContain('The step failed: the bot restarted while this step ran');
    expect(h.calls()).toEqual([]);
  });
});
