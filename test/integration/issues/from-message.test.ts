import { describe, expect, it } from 'vitest';
import { ShortcutIds } from '../../../src/ids.js';
import { call, useBot, WEB } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf, type Interaction } from '../../support/slack-driver.js';
import { PEOPLE, type PersonName } from '../../support/start-app.js';

// The message shortcut "Create issue", through the whole app: a person's message in Slack, the shortcut's signed
// request, the prefilled issue form, its submission, the issue on the simulator (as the person), the thread reply.

const h = useBot();

type View = Record<string, unknown> & { id: string; blocks: Record<string, unknown>[] };

const shortcut = (person: PersonName, m: FakeMessage) =>
  h.bot.slack.shortcut(PEOPLE[person], ShortcutIds.issueFromMessage, m);

async function formOf(it: Interaction): Promise<View> {
  const opened = await it.waitFor((r) => r.method === 'views.open' && r.ok, 5000);
  if (!opened?.view) expect.fail(`no form opened; the person saw:\n${it.text() || '(nothing)'}`);
  return opened.view as View;
}

const initial = (view: View, id: string) =>
  (view.blocks.find((b) => b.block_id === id)?.element as { initial_value?: string } | undefined)?.initial_value;

/** The message the bot posted in `channel`'s thread `threadTs`, once it is there. */
async function threadReply(channel: string, threadTs: string): Promise<FakeMessage> {
  const rec = await h.bot.fake.waitFor(
    (r) => r.method === 'chat.postMessage' && r.ok && r.message?.channel === channel && r.message.threadTs === threadTs,
  );
  if (!rec?.message) expect.fail(`no reply in the thread ${threadTs} of ${channel}`);
  return rec.message;
}

const permalinkOf = (m: FakeMessage) => `https://test-team.slack.com/archives/${m.channel}/p${m.ts.replace('.', '')}`;

describe('"Create issue" on a message', () => {
  it('opens the issue form filled in from the message, and creates the issue as the person, answered in its thread', async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0SHORT' });
    const posted = h.bot.slack.writeMessage(PEOPLE.bob, {
      channel: 'C0SHORT',
      text:
        'Checkout fails for &lt;script&gt; names &amp; more, says <@U0BOB> to <@U0CAROL>\n' +
        'See <https://shop.example.com/cart|the cart>, <https://status.example.com> and <#C0OPS|ops>. <!here>',
      files: ['screenshot.png', 'checkout trace.log'],
    });
    const from = h.calls().length;
    const opening = await shortcut('alice', posted);
    expect(opening.ack.status).toBe(200);
    const view = await formOf(opening);
    expect(view.callback_id).toBe('gl:modal:issue.fromMessage');
    expect(JSON.parse(String(view.private_metadata))).toMatchObject({
      c: 'C0SHORT',
      v: { p: 'demo/web', th: posted.ts },
    });
    expect(opening.text()).toContain('In demo/web');
    const title = 'Checkout fails for <script> names & more, says @bob to `@carol`';
    expect(initial(view, 'title')).toBe(title);
    const description = [
      title,
      'See the cart (https://shop.example.com/cart), https://status.example.com and #ops. @here',
      '',
      'Files attached to the message in Slack:',
      '- screenshot.png',
      '- checkout trace.log',
      '',
      `From Slack: ${permalinkOf(posted)}`,
    ].join('\n');
    expect(initial(view, 'description')).toBe(description);
    // The project was checked before the form opened; the mentions came from the bot's own records and Slack.
    expect(h.calls(from)).toEqual([call('GET', '/api/v4/projects/demo%2Fweb', 'alice')]);
    expect(opening.records((r) => r.method === 'users.info').map((r) => r.body.user)).toEqual(['U0CAROL']);
    expectWithinLimits(opening);

    const sent = await h.bot.slack.submitView(PEOPLE.alice, view, { labels: 'bug' });
    expect(sent.ack.status).toBe(200);
    expect(sent.ack.json).toBeNull();
    const reply = await threadReply('C0SHORT', posted.ts);
    const created = h.calls(from + 1);
    expect(created).toEqual([
      call('POST', `${WEB}/issues`, 'alice', { body: { title, description, labels: 'bug' }, status: 201 }),
    ]);
    const iid = Number(/#(\d+)`/.exec(reply.text)?.[1]);
    expect(reply).toMatchObject({ ephemeral: false, channel: 'C0SHORT', threadTs: posted.ts });
    const escaped = title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    expect(reply.text).toBe(
      `Issue \`demo/web#${iid}\` *<${h.sim.url}/demo/web/issues/${iid}|${escaped}>* created by <@U0ALICE>`,
    );
    const issue = (await (await h.api('alice', `projects/demo%2Fweb/issues/${iid}`)).json()) as Record<string, unknown>;
    expect(issue).toMatchObject({ title, description, labels: ['bug'] });
    expect((issue.author as { username: string }).username).toBe('alice');

    // The same form submitted again (a double click on Create) creates nothing more.
    const twice = await h.bot.slack.submitView(PEOPLE.alice, view, { labels: 'bug' });
    expect(twice.ack.status).toBe(200);
    await h.idle();
    expect(h.calls(from + 1).filter((c) => c.method === 'POST')).toHaveLength(1);
    expect(twice.records((r) => r.method === 'chat.postMessage')).toEqual([]);
  });

  it('shows the Connect prompt, and no form, to someone who is not connected', async () => {
    const posted = h.bot.slack.writeMessage(PEOPLE.bob, { channel: 'C0SHORT', text: 'The build is red again' });
    const it = await shortcut('carol', posted);
    const told = await it.waitForMessage((t) => /not connected/.test(t));
    expect(told).toMatchObject({ ephemeral: true, visibleTo: 'U0CAROL', channel: 'C0SHORT' });
    expect(buttonsOf(told as FakeMessage).map((b) => b.text)).toEqual(['Connect']);
    expect(it.records((r) => r.method === 'views.open')).toEqual([]);
    expect(h.calls()).toEqual([]);
  });

  it('cuts a message too long for the description at a word, keeping the files and the link to it', async () => {
    const words = Array.from({ length: 1200 }, (_, i) => `word${i}`).join(' ');
    const posted = h.bot.slack.writeMessage(PEOPLE.bob, {
      channel: 'C0SHORT',
      text: `${'Very long title '.repeat(12)}\n${words}`,
      files: ['dump.txt'],
    });
    const view = await formOf(await shortcut('alice', posted));
    const title = initial(view, 'title') ?? '';
    expect(title.length).toBeLessThanOrEqual(100);
    expect(title).toMatch(/^Very long title .*title…$/);
    const description = initial(view, 'description') ?? '';
    expect(description.length).toBeLessThanOrEqual(3000);
    expect(description).toMatch(/word\d+… \(cut here: the whole message is in Slack\)\n\nFiles attached/);
    expect(description.endsWith(`- dump.txt\n\nFrom Slack: ${permalinkOf(posted)}`)).toBe(true);

    const from = h.calls().length;
    const sent = await h.bot.slack.submitView(PEOPLE.alice, view, {});
    await threadReply('C0SHORT', posted.ts);
    expect(sent.ack.json).toBeNull();
    expect(h.calls(from)).toEqual([
      call('POST', `${WEB}/issues`, 'alice', { body: { title, description }, status: 201 }),
    ]);
  });

  // Issue 46: the channel was told its default is "one that is not public"; the answer in the thread does not
  // name it either, and someone who cannot see it gets no form filled in with it.
  it('does not name a project that is not public in the thread, nor show it to someone who cannot see it', async () => {
    await h.ask('alice', 'use demo/secret', /default project/, { channel: 'C0SHHID' });
    const posted = h.bot.slack.writeMessage(PEOPLE.bob, { channel: 'C0SHHID', text: 'Rotate the keys' });
    const view = await formOf(await shortcut('alice', posted));
    await h.bot.slack.submitView(PEOPLE.alice, view, {});
    const answer = await threadReply('C0SHHID', posted.ts);
    expect(answer.text).toMatch(
      /^Issue #\d+ \(in a project that is not public\) \*<[^|]+\|Rotate the keys>\* created by <@U0ALICE>$/,
    );
    const refused = await shortcut('bob', posted);
    expect(await refused.waitForMessage((t) => /default project is one you can't see/.test(t))).not.toBeNull();
    expect(refused.records((r) => r.method === 'views.open')).toEqual([]);
  });

  it('answers a message in a thread in that thread, linking to the reply itself, without a confidential title', async () => {
    const parent = h.bot.slack.writeMessage(PEOPLE.bob, { channel: 'C0SHORT', text: 'Deploys are slow' });
    const reply = h.bot.slack.writeMessage(PEOPLE.eve, {
      channel: 'C0SHORT',
      text: 'Staging took 40 minutes today',
      threadTs: parent.ts,
    });
    const view = await formOf(await shortcut('bob', reply));
    expect(initial(view, 'title')).toBe('Staging took 40 minutes today');
    expect(initial(view, 'description')).toContain(
      `From Slack: ${permalinkOf(reply)}?thread_ts=${parent.ts}&cid=C0SHORT`,
    );
    expect(JSON.parse(String(view.private_metadata)).v.th).toBe(parent.ts);
    await h.bot.slack.submitView(PEOPLE.bob, view, { confidential: 'yes' });
    const answer = await threadReply('C0SHORT', parent.ts);
    // Everyone in the channel reads the reply: a confidential issue's title is not in it.
    expect(answer.text).toMatch(/^Issue `demo\/web#\d+` \*<[^|]+\|Confidential issue>\* created by <@U0BOB>$/);
    expect(h.calls().filter((c) => c.method === 'POST')).toEqual([
      call('POST', `${WEB}/issues`, 'bob', {
        body: expect.objectContaining({ title: 'Staging took 40 minutes today', confidential: 'true' }),
        status: 201,
      }),
    ]);
  });
});
