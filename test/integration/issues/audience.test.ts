import { describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../support/fake-slack.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { buttonOf, useCiBot } from '../ci/harness.js';

// Issue 46: what the bot posts where others read it shows nothing a member of the channel may not see. In the
// demo, demo/web#7 ("Session tokens appear in the access log") is confidential: bob may read it (a developer),
// eve may not. On aefc319 its title reached #demo through a todos digest --here, a shared list, a link preview
// (even after `/gl unfurl private off`) and Share, which asked nothing.

const h = useCiBot({ digests: { timer: 'manual' } });
const SECRET_TITLE = 'Session tokens appear in the access log';
const SECRET_WORDS = /Session tokens|access log|password reset/;

function postsIn(channel: string): FakeMessage[] {
  return [...h.bot.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral);
}

/** Everything anyone but the asker can read in the channel: its posts and their link previews. */
function channelText(channel: string): string {
  return postsIn(channel)
    .map((m) => `${messageText(m)}\n${JSON.stringify(h.bot.fake.messages.get(m.key)?.unfurls ?? {})}`)
    .join('\n');
}

describe('a confidential issue where others read', () => {
  it('is asked about before `--share` posts it, and nothing is posted on Never mind', async () => {
    const asked = await h.ask('alice', 'issue demo/web#7 --share', /is confidential/, { channel: 'C0AUD1' });
    expect(asked.message).toMatchObject({ ephemeral: true, visibleTo: PEOPLE.alice.id });
    expect(asked.text).toContain('demo/web#7 is confidential: share its title and description in <#C0AUD1>?');
    expect(asked.text).not.toContain(SECRET_TITLE);
    expect(postsIn('C0AUD1')).toEqual([]);
    await h.click('alice', buttonOf(asked, /^Never mind$/));
    const shared = await h.press('alice', buttonOf(asked, /^Yes, share it$/), new RegExp(SECRET_TITLE));
    expect(shared.message).toMatchObject({ ephemeral: false, channel: 'C0AUD1' });
  });

  it('is listed by number and state alone in a shared list, and in full in one only its person reads', async () => {
    await h.ask('alice', 'issues demo/web --share', /Issues in demo\/web/, { channel: 'C0AUD2' });
    const shown = channelText('C0AUD2');
    expect(shown).toMatch(/#7\b/);
    expect(shown).toContain('Confidential issue');
    expect(shown).not.toMatch(SECRET_WORDS);
    const own = await h.ask('alice', 'issues demo/web', /Issues in demo\/web/, { channel: 'C0AUD2' });
    expect(own.text).toContain(SECRET_TITLE);
  });

  it('is named by its number alone in a shared todo list', async () => {
    await h.ask('alice', 'todos --share', /todo/i, { channel: 'C0AUD6' });
    const shown = channelText('C0AUD6');
    expect(shown).toContain('Confidential issue');
    expect(shown).not.toMatch(SECRET_WORDS);
    const own = await h.ask('alice', 'todos', /todo/i, { channel: 'C0AUD6' });
    expect(own.text).toContain(SECRET_TITLE);
  });

  it('is named by its number alone in shared events, its comments left out', async () => {
    for (const page of [1, 2, 3]) {
      await h.ask('alice', `events demo/web --share --page ${page}`, /Events/, { channel: 'C0AUD5' });
    }
    const shown = channelText('C0AUD5');
    expect(shown).toMatch(/\/issues\/7(#note_\d+)?\|#7>/);
    expect(shown).toContain('Confidential issue');
    expect(shown).not.toMatch(SECRET_WORDS);
    expect(shown).not.toContain('nginx logs the full query string');
    const own = await h.ask('alice', 'events demo/web --page 2', /Events/, { channel: 'C0AUD5' });
    expect(own.text).toContain(SECRET_TITLE);
  });

  it('is left out of a todos digest posted in a channel, and kept in one sent by DM', async () => {
    const made = await h.ask('alice', 'digest todos --here', /Digest #\d+/, { channel: 'C0AUD3' });
    const id = Number(/Digest #(\d+)/.exec(made.text)?.[1]);
    await h.ask('alice', `digest run ${id}`, /./, { channel: 'C0AUD3' });
    await expect.poll(() => postsIn('C0AUD3').length).toBeGreaterThan(0);
    const shown = channelText('C0AUD3');
    expect(shown).toContain('Confidential issue');
    expect(shown).not.toMatch(SECRET_WORDS);

    const dm = await h.ask('alice', 'digest todos', /Digest #\d+/, { channel: 'C0AUD3' });
    const dmId = Number(/Digest #(\d+)/.exec(dm.text)?.[1]);
    await h.ask('alice', `digest run ${dmId}`, /./, { channel: 'C0AUD3' });
    await expect.poll(() => postsIn('D0ALICE').some((m) => messageText(m).includes(SECRET_TITLE))).toBe(true);
  });

  it('is not previewed in a channel without asking its poster, even after `/gl unfurl private on`', async () => {
    for (const setting of ['off', 'on']) {
      const channel = `C0AUDU${setting.toUpperCase()}`;
      await h.ask('alice', `unfurl private ${setting}`, /./, { channel });
      const link = `${h.sim.url}/demo/web/-/issues/7`;
      const { it } = await h.bot.slack.shareLinks(PEOPLE.alice, channel, [link]);
      const prompt = await it.waitFor((r) => r.method === 'chat.postEphemeral');
      const asked = prompt?.message as FakeMessage;
      expect(messageText(asked)).toContain('Show a preview of this confidential link');
      expect(messageText(asked)).not.toContain('Always in this channel');
      expect(it.records((r) => r.method === 'chat.unfurl')).toEqual([]);
      expect(channelText(channel)).not.toMatch(SECRET_WORDS);
    }
  });

  it('is named without its title in the thread reply of "Create issue" (the same rule)', async () => {
    const { issueFor } = await import('../../../src/views/audience.js');
    const issue = { iid: 7, title: SECRET_TITLE, confidential: true, description: 'x', labels: ['security'] };
    expect(issueFor('channel', issue)).toEqual({
      ...issue,
      title: 'Confidential issue',
      description: null,
      labels: [],
    });
    expect(issueFor('person', issue)).toBe(issue);
    expect(issueFor('channel', { ...issue, confidential: false })).toEqual({ ...issue, confidential: false });
  });
});
