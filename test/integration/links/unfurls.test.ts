import { describe, expect, it, vi } from 'vitest';
import type { FakeMessage, FakeRecord } from '../../support/fake-slack.js';
import { type Interaction, messageText } from '../../support/slack-driver.js';
import { PEOPLE, type PersonName } from '../../support/start-app.js';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';

// Link previews through the whole app: a person posts links of the server in a channel (the fake Slack keeps
// their message, Slack sends link_shared), the bot reads them with the poster's token and unfurls them, or
// first asks the poster when the project is not public. The fake's chat.unfurl refuses a URL that is not in
// the message, and the harness checks every unfurl's blocks against Slack's limits.

const h = useCiBot();
const SECRET = '/api/v4/projects/demo%2Fsecret';

const url = (path: string) => `${h.sim.url}/${path}`;

/** A message with these links posted by `person` in `channel`, and the bot's answer to link_shared settled. */
async function post(person: PersonName, paths: string[], channel = 'C0TEST') {
  const urls = paths.map(url);
  const fromSeq = h.bot.fake.lastSeq;
  const { message, it } = await h.bot.slack.shareLinks(PEOPLE[person], channel, urls);
  expect(it.ack.status).toBe(200);
  return { message, it, urls, fromSeq };
}

/** Waits until the bot has answered a link_shared with an unfurl or a prompt (or `quietly` nothing at all). */
async function answer(it: Interaction, what: 'chat.unfurl' | 'chat.postEphemeral'): Promise<FakeRecord> {
  const r = await it.waitFor((x) => x.method === what);
  if (!r)
    expect.fail(
      `no ${what}; Slack saw ${
        it
          .records()
          .map((x) => x.method)
          .join(', ') || 'nothing'
      }`,
    );
  expect(r.ok).toBe(true);
  return r;
}

/** Proves that nothing was sent: a later command's answer arrives first, with nothing from the link before it. */
async function settleWithNothing(fromSeq: number) {
  await h.ask('bob', 'help', /help/i);
  const sent = h.bot.fake.since(fromSeq).filter((r) => r.method !== 'response_url');
  expect(sent.map((r) => r.method)).toEqual([]);
}

const unfurlText = (m: FakeMessage, u: string) =>
  messageText({ blocks: (h.bot.fake.messages.get(m.key)?.unfurls?.[u]?.blocks as unknown[]) ?? [] });

describe('a link of a public project', () => {
  it('is unfurled at once with a compact card read with the poster’s token', async () => {
    const { message, it, urls } = await post('alice', [
      'demo/web/-/issues/4',
      'demo/web/-/merge_requests/3',
      'demo/web/-/jobs/8',
      'demo/web/-/pipelines/2',
    ]);
    const unfurl = await answer(it, 'chat.unfurl');
    expect(unfurl.body).toMatchObject({ channel: 'C0TEST', ts: message.ts });
    expect(Object.keys(unfurl.body.unfurls as object).sort()).toEqual([...urls].sort());
    // Each link: the project (public?) and the resource, as alice.
    const calls = h.calls();
    expect(calls).toEqual(
      expect.arrayContaining([
        call('GET', WEB, 'alice'),
        call('GET', `${WEB}/issues/4`, 'alice'),
        call('GET', `${WEB}/merge_requests/3`, 'alice'),
        call('GET', `${WEB}/jobs/8`, 'alice'),
        call('GET', `${WEB}/pipelines/2`, 'alice'),
      ]),
    );
    expect(calls.every((c) => c.method === 'GET' && c.user === 'alice')).toBe(true);
    expect(unfurlText(message, urls[0] as string)).toMatch(/demo\/web#4\S* Cart total is off by one cent/);
    expect(unfurlText(message, urls[0] as string)).toMatch(/Issue · open · opened by @bob/);
    expect(unfurlText(message, urls[1] as string)).toMatch(/demo\/web!3\S* Fix currency rounding/);
    expect(unfurlText(message, urls[1] as string)).toContain(':white_check_mark: can be merged');
    expect(unfurlText(message, urls[2] as string)).toMatch(/Job #8/);
    expect(unfurlText(message, urls[3] as string)).toMatch(/Pipeline #2/);
    // Compact: no buttons in a preview everyone in the channel sees.
    const blocks = JSON.stringify(h.bot.fake.messages.get(message.key)?.unfurls);
    expect(blocks).not.toContain('"button"');
    expect(it.records((r) => r.method === 'chat.postEphemeral')).toEqual([]);
  });

  it('of a schedule is unfurled too', async () => {
    const { message, it, urls } = await post('bob', ['demo/web/-/pipeline_schedules/1/edit']);
    await answer(it, 'chat.unfurl');
    expect(unfurlText(message, urls[0] as string)).toMatch(/Schedule #1/);
    expect(h.calls()).toEqual(
      expect.arrayContaining([call('GET', `${WEB}/pipeline_schedules/1`, 'bob'), call('GET', WEB, 'bob')]),
    );
  });
});

describe('a link of a private project', () => {
  it('asks the poster first and unfurls only after Show', async () => {
    const { message, it, urls } = await post('alice', ['demo/secret/issues/1']);
    const prompt = await answer(it, 'chat.postEphemeral');
    expect(prompt.body).toMatchObject({ channel: 'C0TEST', user: PEOPLE.alice.id });
    const asked = prompt.message as FakeMessage;
    expect(messageText(asked)).toContain('Show a preview of this private link to <#C0TEST>?');
    expect(messageText(asked)).toContain('demo/secret#1');
    expect(it.records((r) => r.method === 'chat.unfurl')).toEqual([]);
    expect(h.calls()).toEqual(
      expect.arrayContaining([call('GET', SECRET, 'alice'), call('GET', `${SECRET}/issues/1`, 'alice')]),
    );
    // Only the poster may answer.
    const nope = await h.press('bob', buttonOf(asked, /^Show$/), /This question is for <@U0ALICE>/);
    expect(nope.text).toContain('Nothing was shown');
    expect(h.bot.fake.messages.get(message.key)?.unfurls).toBeUndefined();

    const from = h.calls().length;
    const shown = await h.press('alice', buttonOf(asked, /^Show$/), /preview is now shown in <#C0TEST>/);
    expect(shown.message.key).toBe(asked.key);
    expect(h.calls(from)).toEqual(
      expect.arrayContaining([call('GET', SECRET, 'alice'), call('GET', `${SECRET}/issues/1`, 'alice')]),
    );
    expect(unfurlText(message, urls[0] as string)).toMatch(/demo\/secret#1\S* Rotate the payment provider API keys/);
  });

  it('is not shown after Not now: the prompt goes and nothing else happens', async () => {
    const { message, it } = await post('alice', ['demo/secret/-/issues/1']);
    const asked = (await answer(it, 'chat.postEphemeral')).message as FakeMessage;
    const from = h.calls().length;
    // Only the poster may answer, Not now too: anyone else is told whose question it is, and the prompt stays.
    const nope = await h.press('bob', buttonOf(asked, /^Not now$/), /This question is for <@U0ALICE>/);
    expect(nope.text).toContain('Nothing was shown');
    expect(h.bot.fake.messages.get(asked.key)?.deleted).toBeFalsy();
    const click = await h.click('alice', buttonOf(asked, /^Not now$/));
    const gone = await click.waitFor((r) => r.kind === 'response_url' && r.body.delete_original === true);
    expect(gone?.ok).toBe(true);
    expect(h.bot.fake.messages.get(asked.key)?.deleted).toBe(true);
    expect(h.calls(from)).toEqual([]);
    expect(h.bot.fake.messages.get(message.key)?.unfurls).toBeUndefined();
  });

  it('is shown without asking after Always in this channel, until `unfurl private off` there', async () => {
    const first = await post('alice', ['demo/secret/-/issues/1'], 'C0ALWAYS');
    const asked = (await answer(first.it, 'chat.postEphemeral')).message as FakeMessage;
    const nope = await h.press('bob', buttonOf(asked, /^Always in this channel$/), /This question is for <@U0ALICE>/);
    expect(nope.text).toContain('Nothing was shown');
    expect(h.bot.fake.messages.get(first.message.key)?.unfurls).toBeUndefined();
    await h.press('alice', buttonOf(asked, /^Always in this channel$/), /will be shown without asking/);
    expect(h.bot.fake.messages.get(first.message.key)?.unfurls).toBeDefined();

    // The next private link in that channel: unfurled straight away, no prompt.
    const second = await post('alice', ['demo/secret/-/issues/2'], 'C0ALWAYS');
    const unfurl = await answer(second.it, 'chat.unfurl');
    expect(Object.keys(unfurl.body.unfurls as object)).toEqual(second.urls);
    expect(second.it.records((r) => r.method === 'chat.postEphemeral')).toEqual([]);

    // Another channel still asks.
    const elsewhere = await post('alice', ['demo/secret/-/issues/2'], 'C0TEST');
    await answer(elsewhere.it, 'chat.postEphemeral');

    // Taken back in that channel: asked again.
    const off = await h.ask('alice', 'unfurl private off', /asked again/, { channel: 'C0ALWAYS' });
    expect(off.text).toContain('<#C0ALWAYS>');
    const third = await post('alice', ['demo/secret/-/issues/2'], 'C0ALWAYS');
    await answer(third.it, 'chat.postEphemeral');
    expect(third.it.records((r) => r.method === 'chat.unfurl')).toEqual([]);

    // And `on` gives it without a prompt.
    await h.ask('alice', 'unfurl private on', /shown from now on without asking/, { channel: 'C0ALWAYS' });
    const fourth = await post('alice', ['demo/secret/-/issues/2'], 'C0ALWAYS');
    await answer(fourth.it, 'chat.unfurl');
    await h.ask('alice', 'unfurl private off', /asked again/, { channel: 'C0ALWAYS' });
  });

  it('next to a public one: the public one is unfurled at once, the private one asked about', async () => {
    const { it, urls } = await post('alice', ['demo/web/-/issues/4', 'demo/secret/-/issues/1']);
    const unfurl = await answer(it, 'chat.unfurl');
    expect(Object.keys(unfurl.body.unfurls as object)).toEqual([urls[0]]);
    const asked = (await answer(it, 'chat.postEphemeral')).message as FakeMessage;
    expect(messageText(asked)).toContain('demo/secret#1');
    expect(messageText(asked)).not.toContain('demo/web#4');
  });
});

describe('links that are not previewed', () => {
  it('of a poster who is not connected: nothing at all, not even a word', async () => {
    const { fromSeq } = await post('carol', ['demo/web/-/issues/4', 'demo/secret/-/issues/1']);
    await settleWithNothing(fromSeq);
    expect(h.calls()).toEqual([]);
  });

  it('to another host, or to pages that are not previewed: nothing', async () => {
    const fromSeq = h.bot.fake.lastSeq;
    const other = h.bot.fake.addMessage({
      channel: 'C0TEST',
      text: '<https://gitlab.example.com/demo/web/-/issues/4>',
      ephemeral: false,
      visibleTo: null,
      source: 'person',
      user: PEOPLE.alice.id,
    });
    const it = await h.bot.slack.event({
      type: 'link_shared',
      user: PEOPLE.alice.id,
      channel: 'C0TEST',
      message_ts: other.ts,
      links: [
        { url: 'https://gitlab.example.com/demo/web/-/issues/4', domain: 'gitlab.example.com' },
        { url: url('demo/web'), domain: '127.0.0.1' },
        { url: url('demo/web/-/snippets/1'), domain: '127.0.0.1' },
      ],
    });
    expect(it.ack.status).toBe(200);
    await settleWithNothing(fromSeq);
    expect(h.calls()).toEqual([]);
  });

  it('in an event the bot cannot read (no message, no links): nothing, and no error', async () => {
    // Without its links at all, it is no body Slack sends: refused at once (issue 46), nothing done.
    const fromSeq = h.bot.fake.lastSeq;
    const bare = await h.bot.slack.event({ type: 'link_shared', user: PEOPLE.alice.id, channel: 'C0TEST' });
    expect(bare.ack.status).toBe(400);
    // With an empty list of links it is taken, logged as not handled, and nothing is said.
    const empty = await h.bot.slack.event({ type: 'link_shared', user: PEOPLE.alice.id, channel: 'C0TEST', links: [] });
    expect(empty.ack.status).toBe(200);
    await settleWithNothing(fromSeq);
    expect(h.calls()).toEqual([]);
    await vi.waitFor(() =>
      expect(h.bot.logs.some((l) => /an event was not handled: the link_shared event/.test(l))).toBe(true),
    );
  });

  it('that cannot be read with the poster’s token: left out, and nothing said', async () => {
    // eve is no member of demo/secret: the server answers 404, and the channel learns nothing.
    const { fromSeq } = await post('eve', ['demo/secret/-/issues/1']);
    await settleWithNothing(fromSeq);
    expect(h.calls().map((c) => [c.path, c.user, c.status])).toEqual(expect.arrayContaining([[SECRET, 'eve', 404]]));
  });
});

describe('links still being typed (link_shared from the composer)', () => {
  it('of a public project: unfurled by unfurl_id and source, never by a channel and ts', async () => {
    const fromSeq = h.bot.fake.lastSeq;
    const urls = [url('demo/web/-/issues/4')];
    const { unfurlId, it } = await h.bot.slack.composeLinks(PEOPLE.alice, urls);
    expect(it.ack.status).toBe(200);
    const unfurl = await answer(it, 'chat.unfurl');
    expect(unfurl.body).toMatchObject({ unfurl_id: unfurlId, source: 'composer' });
    expect(unfurl.body).not.toHaveProperty('channel');
    expect(unfurl.body).not.toHaveProperty('ts');
    const shown = h.bot.fake.composing.get(unfurlId)?.unfurls?.[urls[0] as string];
    expect(messageText({ blocks: (shown?.blocks as unknown[]) ?? [] })).toMatch(/demo\/web#4\S* Cart total is off/);
    expect(h.bot.fake.since(fromSeq).filter((r) => r.method === 'chat.postEphemeral')).toEqual([]);
    expect(h.calls().every((c) => c.method === 'GET' && c.user === 'alice')).toBe(true);
  });

  it('of a private project: no preview and no question, since there is no channel to ask about yet', async () => {
    const fromSeq = h.bot.fake.lastSeq;
    const { unfurlId, it } = await h.bot.slack.composeLinks(PEOPLE.alice, [url('demo/secret/issues/1')]);
    expect(it.ack.status).toBe(200);
    await settleWithNothing(fromSeq);
    expect(h.bot.fake.composing.get(unfurlId)?.unfurls).toBeUndefined();
  });

  it('mixed: only the public link is previewed', async () => {
    const urls = [url('demo/web/-/merge_requests/3'), url('demo/secret/issues/1')];
    const { unfurlId, it } = await h.bot.slack.composeLinks(PEOPLE.alice, urls);
    await answer(it, 'chat.unfurl');
    expect(Object.keys(h.bot.fake.composing.get(unfurlId)?.unfurls ?? {})).toEqual([urls[0]]);
    expect(it.records((r) => r.method === 'chat.postEphemeral')).toEqual([]);
  });
});
