import { beforeEach, describe, expect, it } from 'vitest';
import { buttonOf, call, useBot } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { buttonsOf, messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { openHome } from '../home/support.js';

// `/gl notify` through the whole app: signed commands and clicks, the simulator (its log says whose token read
// what), the fake Slack (what alice sees in her DM). Polls are driven with the test's clock (`timer: 'manual'`).

const h = useBot({ alerts: { timer: 'manual', channelIntervalMs: 0 } });
const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;
const dms = () => [...h.bot.fake.messages.values()].filter((m) => m.channel === ALICE_DM && !m.ephemeral);
const todosCall = (perPage: number) =>
  call('GET', '/api/v4/todos', 'alice', { query: { state: 'pending', per_page: String(perPage) } });
const minutes = (n: number) => h.clock.advance(n * 60_000);
const poll = () => h.bot.bot.alerts.pollDue();

beforeEach(async () => {
  // Settings live in the bot's database, which outlives each test's reset of the simulator.
  await h.bot.bot.alerts.disable('T0TEST', PEOPLE.alice.id);
  for (const m of dms()) h.bot.fake.messages.delete(m.key);
});

describe('/gl notify', () => {
  it('shows alerts off, turns them on with one read as the caller, shows the setting, and turns them off', async () => {
    const off = await h.ask('alice', 'notify', /Todo alerts are off/);
    expect(off.text).toContain('/gl notify on');
    expect(h.calls()).toEqual([]);

    const on = await h.ask('alice', 'notify on', /Todo alerts are on/);
    expect(on.text).toContain('for every action');
    expect(on.text).toContain('Quiet hours: none.');
    expect(on.text).toContain('Last delivery: none yet.');
    expect(h.calls()).toEqual([todosCall(20)]);

    const shown = await h.ask('alice', 'notify', /Todo alerts are on/);
    expect(shown.text).toContain('for every action');
    expect(h.calls()).toHaveLength(1);

    const stopped = await h.ask('alice', 'notify off', /Todo alerts are off/);
    expect(stopped.text).not.toContain('off already');
    expect(h.calls()).toHaveLength(1);
    const again = await h.ask('alice', 'notify off', /Todo alerts are off/);
    expect(again.text).toContain('Todo alerts were off already.');
  });

  it('takes actions and quiet hours, and says how they read', async () => {
    const on = await h.ask('alice', 'notify on --actions assigned,mentioned --quiet 19:00-08:00', /alerts are on/);
    expect(on.text).toContain('for assigned, mentioned');
    expect(on.text).toContain('Quiet hours: 19:00-08:00 in Europe/Berlin');
    const changed = await h.ask('alice', 'notify on --actions build_failed', /alerts are on/);
    expect(changed.text).toContain('for build failed');
    expect(changed.text).toContain('Quiet hours: none.');
    expect(changed.text).toMatch(/Updated by <@U0ALICE>/);
  });

  it('refuses an unknown action or a malformed quiet range with a clear message, and changes nothing', async () => {
    const action = await h.ask('alice', 'notify on --actions assigned,pinged', /pinged/);
    expect(action.text).toMatch(/assigned.*mentioned.*build_failed.*marked.*approval_required/s);
    for (const bad of ['25:00-08:00', '19:00', '19:00-19:00', 'evening']) {
      const quiet = await h.ask('alice', `notify on --quiet ${bad}`, /quiet hours/i);
      expect(quiet.text).toMatch(/HH:MM-HH:MM|same time/);
      expect(quiet.text).toContain('19:00-08:00');
    }
    expect(h.calls()).toEqual([]);
    await h.ask('alice', 'notify', /Todo alerts are off/);
  });
});

describe('Home and whoami', () => {
  it('show the person’s alert setting', async () => {
    expect((await openHome(h, 'alice')).text).toContain('Todo alerts: off');
    expect((await h.ask('alice', 'whoami', /connected/)).text).toContain('Todo alerts: off');
    await h.ask('alice', 'notify on --actions assigned --quiet 19:00-08:00', /alerts are on/);
    const home = await openHome(h, 'alice');
    expect(home.text).toContain(
      'Todo alerts: on (assigned) · quiet 19:00-08:00 (Europe/Berlin) · nothing delivered yet',
    );
    expect((await h.ask('alice', 'whoami', /connected/)).text).toContain(
      'Todo alerts: on (assigned) · quiet 19:00-08:00 (Europe/Berlin)',
    );
  });
});

describe('todo alerts', () => {
  it('sends nothing for todos pending when alerts were turned on, and a todo arriving between two polls once', async () => {
    await h.ask('alice', 'notify on', /alerts are on/);
    minutes(1);
    let from = h.calls().length;
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'idle' }]);
    // An idle poll is one call: the newest pending todo, as alice.
    expect(h.calls(from)).toEqual([todosCall(1)]);
    expect(dms()).toEqual([]);

    h.sim.tick();
    minutes(1);
    from = h.calls().length;
    expect((await poll()).map((p) => p.outcome.kind)).toEqual(['delivered']);
    expect(h.calls(from)).toEqual([todosCall(1), todosCall(20)]);
    const [dm] = dms();
    expect(dms()).toHaveLength(1);
    const text = messageText(dm as FakeMessage);
    expect(text).toContain('New todo: Mentioned by @bob on demo/web#');
    expect(text).toContain('in demo/web');
    expect(buttonsOf(dm as FakeMessage).map((b) => b.text)).toEqual(['Done', 'Open']);
    expect(buttonOf(dm as FakeMessage, /Open/).url).toMatch(new RegExp(`^${h.sim.url}/demo/web/issues/\\d+`));

    minutes(1);
    from = h.calls().length;
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'idle' }]);
    expect(h.calls(from)).toEqual([todosCall(1)]);
    expect(dms()).toHaveLength(1);

    const shown = await h.ask('alice', 'notify', /alerts are on/);
    // In alice's Slack zone (Europe/Berlin), the house style every card uses; not in UTC.
    expect(shown.text).toContain('Last delivery: 1 todo, 2 Mar 2026, 11:02 · 1 minute ago.');
    expect((await openHome(h, 'alice')).text).toContain('last delivery 2 Mar 2026, 11:02 · 1 minute ago');
    expect((await h.ask('alice', 'whoami', /connected/)).text).toContain(
      'last delivery 2 Mar 2026, 11:02 · 1 minute ago',
    );
  });

  it('groups several todos arriving at once into one message', async () => {
    await h.ask('alice', 'notify on', /alerts are on/);
    h.sim.tick();
    h.sim.tick();
    minutes(1);
    await poll();
    expect(dms()).toHaveLength(1);
    const dm = dms()[0] as FakeMessage;
    expect(messageText(dm)).toContain('2 new todos');
    expect(buttonsOf(dm).map((b) => b.text)).toEqual(['Done', 'Open', 'Done', 'Open']);
  });

  it('sends only the actions asked for, and moves past the others', async () => {
    await h.ask('alice', 'notify on --actions assigned', /alerts are on/);
    h.sim.tick();
    minutes(1);
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'idle' }]);
    expect(dms()).toEqual([]);
    minutes(1);
    const from = h.calls().length;
    await poll();
    expect(h.calls(from)).toEqual([todosCall(1)]);
  });

  it('Done marks the todo done with the clicker’s token and redraws the alert; Done in a group redraws the rest', async () => {
    await h.ask('alice', 'notify on', /alerts are on/);
    h.sim.tick();
    minutes(1);
    await poll();
    const single = dms()[0] as FakeMessage;
    const doneButton = buttonOf(single, /^Done/);
    const id = /"t":(\d+)/.exec(doneButton.value ?? '')?.[1];
    let from = h.calls().length;
    const done = await h.press('alice', doneButton, /Marked done by/);
    expect(h.calls(from)).toEqual([call('POST', `/api/v4/todos/${id}/mark_as_done`, 'alice', { status: 201 })]);
    expect(done.text).toMatch(/Marked done by <@U0ALICE>/);
    expect(buttonsOf(done.message).map((b) => b.text)).toEqual(['Open']);
    // Redrawn in alice's zone (Europe/Berlin), as the DM was drawn, not in UTC (issue 47).
    expect(done.text).not.toContain('UTC');
    expect(messageText(single)).not.toContain('UTC');

    h.sim.tick();
    h.sim.tick();
    minutes(1);
    await poll();
    const group = dms().at(-1) as FakeMessage;
    from = h.calls().length;
    const redrawn = await h.press('alice', buttonOf(group, /^Done/), /Marked done by/);
    expect(h.calls(from).map((c) => [c.method, c.path, c.user])).toEqual([
      ['POST', expect.stringMatching(/^\/api\/v4\/todos\/\d+\/mark_as_done$/), 'alice'],
      ['GET', '/api/v4/todos', 'alice'],
    ]);
    expect(buttonsOf(redrawn.message).map((b) => b.text)).toEqual(['Open', 'Done', 'Open']);
  });

  it('holds todos during quiet hours in the person’s zone and sends them as one message when the quiet ends', async () => {
    // 10:00 UTC is 11:00 in Berlin, alice's zone.
    await h.ask('alice', 'notify on --quiet 11:00-12:00', /alerts are on/);
    h.sim.tick();
    minutes(1);
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'held', items: 1 }]);
    h.sim.tick();
    minutes(1);
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'held', items: 1 }]);
    minutes(1);
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'idle' }]);
    expect(dms()).toEqual([]);

    h.clock.set('2026-03-02T11:00:00Z');
    expect((await poll()).map((p) => p.outcome.kind)).toEqual(['delivered']);
    expect(dms()).toHaveLength(1);
    expect(messageText(dms()[0] as FakeMessage)).toContain('2 todos arrived during your quiet hours');
    minutes(1);
    await poll();
    expect(dms()).toHaveLength(1);
  });

  it('says in one log line a minute when polls fall behind, and then polls everyone overdue, oldest first', async () => {
    await h.ask('alice', 'notify on', /alerts are on/);
    await h.ask('bob', 'notify on', /alerts are on/);
    // Nobody polled for three minutes (a server too slow for the minute): both are overdue.
    minutes(3);
    const from = h.bot.logs.length;
    const polled = await poll();
    expect(polled.map((p) => p.userId)).toEqual([PEOPLE.alice.id, PEOPLE.bob.id]);
    await poll();
    const behind = h.bot.logs.slice(from).filter((l) => l.includes('todo alert polls are behind'));
    expect(behind).toHaveLength(1);
    expect(behind[0]).toContain('"behind":2');
    minutes(1);
    await poll();
    expect(h.bot.logs.slice(from).filter((l) => l.includes('todo alert polls are behind'))).toHaveLength(1);
    await h.bot.bot.alerts.disable('T0TEST', PEOPLE.bob.id);
  });

  it('pauses with one DM when the server refuses the token, and resumes (nothing lost, told once) on connecting again', async () => {
    await h.ask('alice', 'notify on', /alerts are on/);
    h.sim.revoke('alice');
    h.sim.tick();
    minutes(1);
    expect((await poll()).map((p) => p.outcome)).toEqual([{ kind: 'paused' }]);
    expect(dms()).toHaveLength(1);
    const pause = dms()[0] as FakeMessage;
    expect(messageText(pause)).toContain(
      'refused your token (401), so your todo alerts are paused until the server accepts your token again',
    );
    // A refusal may be the server's trouble: the person is not told to connect again (only one with no token is).
    expect(messageText(pause)).not.toMatch(/Connect again to resume|Connect a new token and/);
    expect(buttonsOf(pause).map((b) => b.text)).toEqual(['Connect']);

    minutes(1);
    const from = h.calls().length;
    expect(await poll()).toEqual([]);
    expect(h.calls(from)).toEqual([]);
    expect(dms()).toHaveLength(1);
    expect((await h.ask('alice', 'notify', /alerts are on/)).text).toContain(
      'Paused until the server accepts your token again',
    );

    h.sim.revoke('alice', { restore: true });
    const { submission } = await h.bot.connect(PEOPLE.alice, TOKENS.alice);
    expect(submission.ack.json).toMatchObject({ response_action: 'update' });
    minutes(1);
    expect(messageText(dms()[1] as FakeMessage)).toContain('You are connected again, so your todo alerts are on again');
    expect((await poll()).map((p) => p.outcome.kind)).toEqual(['delivered']);
    expect(dms()).toHaveLength(3);
    expect(messageText(dms()[2] as FakeMessage)).toContain('New todo: Mentioned by @bob');
  });
});
