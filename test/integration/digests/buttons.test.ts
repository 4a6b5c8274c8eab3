import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../../src/views/format.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, confirmText, type Seen, useCiBot } from '../ci/harness.js';

// Every digest button, end to end: on the list, on a digest's card, on a posted digest, and the Done and Mark all
// done buttons of a todos digest, each acting as the person who clicks.

const h = useCiBot({ digests: { timer: 'manual' } });

const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);
const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);

/** The buttons of one digest's row in a list (each row's buttons sit right under it). */
function rowButton(list: Seen, id: number, label: RegExp) {
  const found = buttonsOf(list.message).find((b) => label.test(b.text) && JSON.parse(b.value ?? '{}').d === id);
  if (!found) expect.fail(`no ${label} button for digest #${id}`);
  return found;
}

async function makeEvents(channel: string) {
  const seen = await h.ask('alice', 'digest events demo/web --cron "0 9 * * *"', /Digest #\d+/, { channel });
  return idOf(seen.text);
}

describe('the buttons of the list', () => {
  it('pause and resume a digest and redraw the list in place', async () => {
    const id = await makeEvents('C0DGBL1');
    const list = await h.ask('alice', 'digest list', /Digests/, { channel: 'C0DGBL1' });
    const paused = await h.press('alice', rowButton(list, id, /^Pause$/), /Paused by/);
    expect(paused.message.key).toBe(list.message.key);
    expect(paused.text).toContain(`:arrows_counterclockwise: Paused by <@U0ALICE> · digest #${id}`);
    expect(paused.text).toContain(':double_vertical_bar: paused by <@U0ALICE>');
    const resumed = await h.press('alice', rowButton(paused, id, /^Resume$/), /Resumed by/);
    expect(resumed.text).toContain(`Resumed by <@U0ALICE> · digest #${id}`);
    expect(resumed.text).toContain('next ');
    // A second click on the old Pause button finds the digest running already paused again: it says so.
    const stalePause = await h.press('alice', rowButton(list, id, /^Pause$/), /Paused by|already/);
    expect(stalePause.text).toContain('Paused by');
    expect(h.calls().slice(1)).toEqual([]);
  });

  it('runs a digest now and says what came of it', async () => {
    const id = await makeEvents('C0DGBL2');
    const list = await h.ask('bob', 'digest list', /Digests/, { channel: 'C0DGBL2' });
    const empty = await h.press('bob', rowButton(list, id, /^Run now$/), /Run by/);
    expect(empty.text).toContain(
      `Run by <@U0BOB> · nothing new since ${formatDateTime(h.clock.now(), 'America/New_York')}; nothing posted`,
    );
    await h.api('eve', 'projects/demo%2Fweb/issues', { method: 'POST', form: { title: 'Gift cards' } });
    const from = h.calls().length;
    const ran = await h.press('bob', rowButton(empty, id, /^Run now$/), /1 item posted/);
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/projects/1/events', 'alice', {
        query: { sort: 'desc', per_page: '20', after: '2026-02-28' },
      }),
      // Posted in the channel: which of its issues are confidential, one list read (issue 46).
      expect.objectContaining({ method: 'GET', path: '/api/v4/projects/1/issues', user: 'alice' }),
    ]);
    expect(ran.text).toMatch(/last run: 1 item posted \d{1,2} \w{3} \d{4}, \d\d:\d\d · just now/);
    const post = ran.it.messages().find((m) => !m.ephemeral);
    expect(post?.channel).toBe('C0DGBL2');
    expect(JSON.stringify(post?.blocks)).toContain('*Gift cards*: opened by @eve');
  });

  it('removes a digest after the confirmation and redraws the list without it', async () => {
    const id = await makeEvents('C0DGBL3');
    const list = await h.ask('alice', 'digest list', /Digests/, { channel: 'C0DGBL3' });
    const remove = rowButton(list, id, /^Remove$/);
    expect(confirmText(remove)).toContain(`Remove digest #${id} (events of demo/web in <#C0DGBL3>)?`);
    const after = await h.press('alice', remove, /Removed by/);
    expect(after.text).toContain(`Removed by <@U0ALICE> · digest #${id}`);
    expect(after.text).toContain('No digests post in this channel.');
    const again = await h.press('alice', remove, /already removed/);
    expect(again.text).toContain(`Digest #${id} was already removed. Nothing was changed.`);
  });

  it('refuse a person who may not manage the digest, and change nothing', async () => {
    const id = await makeEvents('C0DGBL4');
    const list = await h.ask('eve', 'digest list', /Digests/, { channel: 'C0DGBL4' });
    const seen = await h.press('eve', rowButton(list, id, /^Pause$/), /only its owner/);
    expect(seen.text).toContain(`Digest ${id}: only its owner or a workspace admin may pause it.`);
    expect(h.bot.bot.digests.isArmed(id)).toBe(true);
  });
});

describe('the buttons of a digest’s card', () => {
  it('pause, run and remove, redrawing the card in place', async () => {
    const card = await h.ask('alice', 'digest todos --here --cron "0 9 * * *"', /Digest #\d+/, {
      channel: 'C0DGBC1',
    });
    const id = idOf(card.text);
    const paused = await h.press('alice', buttonOf(card, /^Pause$/), /Paused by/);
    expect(paused.message.key).toBe(card.message.key);
    expect(labels(paused.message)).toEqual(['Resume', 'Run now', 'Remove']);
    const ran = await h.press('alice', buttonOf(paused, /^Run now$/), /Run by/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/todos', 'alice', { query: { state: 'pending', per_page: '100' } }),
    ]);
    expect(ran.text).toContain('Run by <@U0ALICE> · 5 items posted');
    const removed = await h.press('alice', buttonOf(ran, /^Remove$/), /was removed/);
    expect(removed.message.key).toBe(card.message.key);
    expect(removed.text).toContain(`Digest #${id} (pending todos → <#C0DGBC1>) was removed by <@U0ALICE>.`);
  });
});

describe('the buttons of a posted digest', () => {
  async function posted(channel: string): Promise<{ id: number; post: Seen }> {
    const id = await makeEvents(channel);
    await h.api('bob', 'projects/demo%2Fweb/issues', { method: 'POST', form: { title: 'Dark mode' } });
    const post = await h.ask('alice', `digest run ${id}`, /what happened/, { channel });
    return { id, post };
  }

  it('pause and remove leave the post as it is and answer the clicker with the digest’s card', async () => {
    const { id, post } = await posted('C0DGBP1');
    expect(labels(post.message)).toEqual(['All activity', 'Pause', 'Remove']);
    const paused = await h.press('alice', buttonOf(post, /^Pause$/), /Paused by/);
    expect(paused.message.key).not.toBe(post.message.key);
    expect(paused.message.ephemeral).toBe(true);
    expect(h.bot.fake.messages.get(post.message.key)?.version).toBe(1);
    const removed = await h.press('alice', buttonOf(post, /^Remove$/), /was removed/);
    expect(removed.message.ephemeral).toBe(true);
    expect(removed.text).toContain(`Digest #${id} (events of demo/web → <#C0DGBP1>) was removed by <@U0ALICE>.`);
  });

  it('are refused to someone who is not the owner', async () => {
    const { id, post } = await posted('C0DGBP2');
    const seen = await h.press('bob', buttonOf(post, /^Pause$/), /only its owner/);
    expect(seen.text).toContain(`Digest ${id}: only its owner or a workspace admin may pause it.`);
  });
});

describe('a todos digest', () => {
  async function todos(channel: string): Promise<Seen> {
    const card = await h.ask('alice', 'digest todos --here', /Digest #\d+/, { channel });
    return h.ask('alice', `digest run ${idOf(card.text)}`, /pending todos of @alice/, { channel });
  }

  it('lists the owner’s pending todos by project, each linked with why it is there', async () => {
    const post = await todos('C0DGTO1');
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/todos', 'alice', { query: { state: 'pending', per_page: '100' } }),
    ]);
    expect(post.message).toMatchObject({ channel: 'C0DGTO1', ephemeral: false });
    expect(post.text).toContain(":ballot_box_with_check: @alice's pending todos");
    expect(post.text).toContain('5 pending as of <!date^');
    expect(post.text).toContain(`*<${h.sim.url}/demo/web|demo/web>*`);
    // The same words as the todo list: what it is about, why, who and when (posted in a channel, read by many:
    // the time is Slack's date markup, shown in each reader's zone).
    expect(post.text).toMatch(
      /\|!3>\* Fix currency rounding in cart totals · Mentioned by @bob · <!date\^\d+\^\{date_short_pretty\} \{time\}\|2 Mar 2026, \d\d:30 UTC> · 6 hours ago/,
    );
    expect(post.text).toContain('|#4>* Cart total is off by one cent for some EUR prices · Assigned to you by @bob');
    expect(post.text).toContain('|!4>* Upgrade to webpack 5 · Added by @alice');
    expect(labels(post.message)).toEqual(['Done', 'Done', 'Done', 'Done', 'Done', 'Mark all done', 'Pause', 'Remove']);
  });

  it('marks one todo done as the clicker and redraws the digest in place', async () => {
    const post = await todos('C0DGTO2');
    const from = h.calls().length;
    const done = buttonsOf(post.message).find((b) => b.text === 'Done' && /"t":1\b/.test(b.value ?? ''));
    if (!done) expect.fail('no Done button for todo 1');
    const after = await h.press('alice', done, /Marked done by/);
    expect(h.calls(from)).toEqual([
      call('POST', '/api/v4/todos/1/mark_as_done', 'alice', { status: 201 }),
      call('GET', '/api/v4/todos', 'alice', { query: { state: 'pending', per_page: '100' } }),
    ]);
    expect(after.message.key).toBe(post.message.key);
    expect(after.text).toContain('Marked done by <@U0ALICE> · todo #1');
    expect(after.text).not.toContain('Cart total is off by one cent');
    expect(after.text).toContain('4 pending as of');
    // The old button again: the todo is done already, so the digest is redrawn as it is.
    const stale = await h.press('alice', done, /already done/);
    expect(stale.text).toContain('Todo #1 is already done. Nothing was changed.');
  });

  it('marks all done once its owner says yes to the question the todo list asks (issue 47)', async () => {
    const post = await todos('C0DGTO3');
    // Slack asks before it sends the click: the same question as /gl todos' button and typed `todos done`.
    const markAll = buttonOf(post, /^Mark all done$/);
    expect(confirmText(markAll)).toContain('Mark every pending todo of yours done, including those not shown here?');
    expect(markAll.confirm).toMatchObject({ title: { text: 'Mark all todos done?' } });
    const from = h.calls().length;
    const after = await h.press('alice', buttonOf(post, /^Mark all done$/), /All todos marked done/);
    expect(h.calls(from)).toEqual([
      call('POST', '/api/v4/todos/mark_as_done', 'alice', { status: 204 }),
      call('GET', '/api/v4/todos', 'alice', { query: { state: 'pending', per_page: '100' } }),
    ]);
    expect(after.text).toContain(':tada: No pending todos.');
    expect(labels(after.message)).toEqual(['Pause', 'Remove']);
  });

  it('refuses Done to anyone but the owner, without a call', async () => {
    const post = await todos('C0DGTO4');
    const from = h.calls().length;
    const seen = await h.press('bob', buttonOf(post, /^Done$/), /someone else/);
    expect(seen.text).toContain("These are someone else's todos: only they can mark them done.");
    expect(h.calls(from)).toEqual([]);
  });

  it('is not posted when there is nothing pending', async () => {
    const card = await h.ask('eve', 'digest todos --here', /Digest #\d+/, { channel: 'C0DGTO5' });
    const seen = await h.ask('eve', `digest run ${idOf(card.text)}`, /nothing new/, { channel: 'C0DGTO5' });
    expect(seen.it.messages().filter((m) => !m.ephemeral)).toEqual([]);
  });
});
