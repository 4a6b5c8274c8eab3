import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JobButtons } from '../../../src/buttons/ci.js';
import { type FakeSlack, startFakeSlack } from '../../../src/console/fake-slack.js';
import { actions, button, section } from '../../../src/views/blocks.js';
import { fakeClock } from '../../support/clock.js';

// The fake Slack Web API is what every test of the bot trusts; these tests hold it to what
// Slack documents for the methods the bot uses.

const TOKEN = 'xoxb-fake-slack-test';
const clock = fakeClock('2026-03-02T10:00:00Z');
const SECONDS = String(Date.parse('2026-03-02T10:00:00Z') / 1000);
let fake: FakeSlack;

beforeAll(async () => {
  fake = await startFakeSlack(TOKEN, [{ id: 'U0ALICE', name: 'alice' }], { now: clock.now });
});
afterAll(async () => {
  await fake?.close();
});
beforeEach(() => {
  clock.set('2026-03-02T10:00:00Z');
});

type Answer = { status: number; retryAfter: string | null; body: Record<string, unknown> };

async function call(
  method: string,
  body: Record<string, unknown> = {},
  o: { token?: string | null; form?: boolean } = {},
) {
  const token = o.token === undefined ? TOKEN : o.token;
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: string;
  if (o.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    payload = new URLSearchParams(
      Object.entries(body).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    ).toString();
  } else {
    headers['content-type'] = 'application/json; charset=utf-8';
    payload = JSON.stringify(body);
  }
  const res = await fetch(`${fake.apiUrl}${method}`, { method: 'POST', headers, body: payload });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as Record<string, unknown>,
  } satisfies Answer;
}

let channelNo = 0;
/** A channel of its own for each test, so histories do not mix. */
const freshChannel = () => `C0FAKE${++channelNo}`;

const post = async (channel: string, text: string, extra: Record<string, unknown> = {}) => {
  const r = await call('chat.postMessage', { channel, text, ...extra });
  expect(r.body.ok, JSON.stringify(r.body)).toBe(true);
  return r.body.ts as string;
};

const history = async (channel: string, extra: Record<string, unknown> = {}) =>
  (await call('conversations.history', { channel, ...extra })).body;

const texts = (h: Record<string, unknown>) => (h.messages as { text: string }[]).map((m) => m.text);

describe('authentication', () => {
  it('answers auth.test for the bot token, invalid_auth for any other token and not_authed without one', async () => {
    expect((await call('auth.test')).body).toMatchObject({ ok: true, user_id: 'U0BOT', bot_id: 'B0BOT' });
    expect((await call('auth.test', {}, { token: 'xoxb-someone-else' })).body).toEqual({
      ok: false,
      error: 'invalid_auth',
    });
    expect((await call('auth.test', {}, { token: 'xoxp-a-user-token' })).body.error).toBe('invalid_auth');
    expect((await call('auth.test', {}, { token: null })).body).toEqual({ ok: false, error: 'not_authed' });
  });

  it('stores nothing for a call with a wrong token', async () => {
    const channel = freshChannel();
    const r = await call('chat.postMessage', { channel, text: 'hi' }, { token: 'xoxb-wrong' });
    expect(r.body.error).toBe('invalid_auth');
    expect(texts(await history(channel))).toEqual([]);
  });
});

describe('chat.postMessage with metadata', () => {
  it('stores the metadata and answers with the message, its ts taken from the clock', async () => {
    const channel = freshChannel();
    const metadata = { event_type: 'gl_digest', event_payload: { project: 'demo/web', since: 42 } };
    const r = await call('chat.postMessage', { channel, text: 'Digest', metadata });
    expect(r.body).toMatchObject({
      ok: true,
      channel,
      message: { type: 'message', text: 'Digest', bot_id: 'B0BOT', user: 'U0BOT', metadata },
    });
    const ts = r.body.ts as string;
    expect(ts).toMatch(new RegExp(`^${SECONDS}\\.\\d{6}$`));
    expect((r.body.message as { ts: string }).ts).toBe(ts);
    expect(fake.messages.get(`${channel}:${ts}`)?.metadata).toEqual(metadata);
  });

  it('reads metadata sent as a form field', async () => {
    const channel = freshChannel();
    const metadata = { event_type: 'gl_card', event_payload: { job: 8 } };
    const r = await call('chat.postMessage', { channel, text: 'Card', metadata }, { form: true });
    expect(r.body.ok).toBe(true);
    expect((r.body.message as { metadata: unknown }).metadata).toEqual(metadata);
  });

  it('refuses metadata that is not JSON or lacks event_type or an event_payload object, storing nothing', async () => {
    const channel = freshChannel();
    expect(
      (await call('chat.postMessage', { channel, text: 'x', metadata: '{"event_type":' }, { form: true })).body,
    ).toEqual({ ok: false, error: 'invalid_metadata_format' });
    for (const metadata of [
      { event_payload: {} },
      { event_type: 'x' },
      { event_type: '', event_payload: {} },
      { event_type: 'x', event_payload: [1] },
    ])
      expect((await call('chat.postMessage', { channel, text: 'x', metadata })).body.error).toBe(
        'invalid_metadata_schema',
      );
    expect(texts(await history(channel))).toEqual([]);
  });

  it('keeps metadata through a chat.update that does not mention it, and replaces it when one does', async () => {
    const channel = freshChannel();
    const first = { event_type: 'gl_card', event_payload: { v: 1 } };
    const ts = await post(channel, 'v1', { metadata: first });
    expect((await call('chat.update', { channel, ts, text: 'v2' })).body).toMatchObject({ ok: true, ts });
    expect(fake.messages.get(`${channel}:${ts}`)?.metadata).toEqual(first);
    const second = { event_type: 'gl_card', event_payload: { v: 2 } };
    await call('chat.update', { channel, ts, text: 'v3', metadata: second });
    expect(fake.messages.get(`${channel}:${ts}`)).toMatchObject({ text: 'v3', version: 3, metadata: second });
  });
});

describe('conversations.history', () => {
  it('answers newest first, without ephemeral or deleted messages, metadata only when asked for', async () => {
    const channel = freshChannel();
    const metadata = { event_type: 'gl_digest', event_payload: { n: 1 } };
    await post(channel, 'one', { metadata });
    clock.advance(5_000);
    await post(channel, 'two');
    await call('chat.postEphemeral', { channel, user: 'U0ALICE', text: 'only alice' });
    const gone = await post(channel, 'three');
    await call('chat.delete', { channel, ts: gone });
    await post(freshChannel(), 'elsewhere');

    const plain = await history(channel);
    expect(plain).toMatchObject({ ok: true, has_more: false, response_metadata: { next_cursor: '' } });
    expect(texts(plain)).toEqual(['two', 'one']);
    expect((plain.messages as Record<string, unknown>[]).some((m) => 'metadata' in m)).toBe(false);

    const withMeta = await history(channel, { include_all_metadata: true });
    expect((withMeta.messages as Record<string, unknown>[])[1]).toMatchObject({ text: 'one', metadata });
    const asForm = (await call('conversations.history', { channel, include_all_metadata: 'true' }, { form: true }))
      .body;
    expect((asForm.messages as Record<string, unknown>[])[1]?.metadata).toEqual(metadata);
  });

  it('pages with limit and cursor, and refuses a cursor it did not give', async () => {
    const channel = freshChannel();
    for (const t of ['a', 'b', 'c', 'd', 'e']) await post(channel, t);
    const first = await history(channel, { limit: 2 });
    expect(texts(first)).toEqual(['e', 'd']);
    expect(first.has_more).toBe(true);
    const cursor = (first.response_metadata as { next_cursor: string }).next_cursor;
    const second = await history(channel, { limit: 2, cursor });
    expect(texts(second)).toEqual(['c', 'b']);
    const third = await history(channel, {
      limit: 2,
      cursor: (second.response_metadata as { next_cursor: string }).next_cursor,
    });
    expect(texts(third)).toEqual(['a']);
    expect(third.has_more).toBe(false);
    expect((await history(channel, { cursor: 'bm9wZQ==' })).error).toBe('invalid_cursor');
    expect((await history(channel, { limit: 'many' })).error).toBe('invalid_arguments');
  });

  it('keeps to oldest and latest, exclusive unless inclusive', async () => {
    const channel = freshChannel();
    const ts = [];
    for (const t of ['a', 'b', 'c', 'd']) ts.push(await post(channel, t));
    expect(texts(await history(channel, { oldest: ts[0], latest: ts[3] }))).toEqual(['c', 'b']);
    expect(texts(await history(channel, { oldest: ts[0], latest: ts[3], inclusive: true }))).toEqual([
      'd',
      'c',
      'b',
      'a',
    ]);
    expect(texts(await history(channel, { oldest: ts[2] }))).toEqual(['d']);
    expect((await history(channel, { oldest: 'yesterday' })).error).toBe('invalid_ts_oldest');
    expect((await history(channel, { latest: '1.2.3' })).error).toBe('invalid_ts_latest');
  });

  it('gives messages increasing timestamps while the clock stands still, and after it went back', async () => {
    const channel = freshChannel();
    const a = await post(channel, 'a');
    const b = await post(channel, 'b');
    clock.set('2026-03-01T00:00:00Z');
    const c = await post(channel, 'c');
    const seconds = a.split('.')[0];
    expect(Number(seconds)).toBeGreaterThanOrEqual(Number(SECONDS));
    expect([b, c].map((t) => t.split('.')[0])).toEqual([seconds, seconds]);
    expect(texts(await history(channel))).toEqual(['c', 'b', 'a']);
  });

  it('answers channel_not_found without a channel', async () => {
    expect((await call('conversations.history', {})).body).toEqual({ ok: false, error: 'channel_not_found' });
  });
});

describe('chat.delete', () => {
  it("deletes the app's own message once; a person's message or an ephemeral one it cannot", async () => {
    const channel = freshChannel();
    const ts = await post(channel, 'bye');
    expect((await call('chat.delete', { channel, ts })).body).toEqual({ ok: true, channel, ts });
    expect(fake.messages.get(`${channel}:${ts}`)?.deleted).toBe(true);
    expect((await call('chat.delete', { channel, ts })).body.error).toBe('message_not_found');

    const theirs = fake.addMessage({
      channel,
      text: 'mine',
      ephemeral: false,
      visibleTo: null,
      source: 'user',
      user: 'U0ALICE',
    });
    expect((await call('chat.delete', { channel, ts: theirs.ts })).body.error).toBe('cant_delete_message');
    expect((await call('chat.update', { channel, ts: theirs.ts, text: 'edited' })).body.error).toBe(
      'cant_update_message',
    );
    const eph = await call('chat.postEphemeral', { channel, user: 'U0ALICE', text: 'psst' });
    expect((await call('chat.delete', { channel, ts: eph.body.message_ts })).body.error).toBe('message_not_found');
    expect((await call('chat.delete', { ts })).body.error).toBe('channel_not_found');
  });
});

describe('chat.unfurl', () => {
  const URL_A = 'https://gitlab.example.com/demo/web/-/jobs/8';
  const URL_B = 'https://gitlab.example.com/demo/web/-/pipelines/2';
  const personSays = (channel: string, text: string) =>
    fake.addMessage({ channel, text, ephemeral: false, visibleTo: null, source: 'user', user: 'U0ALICE' });
  const unfurlOf = (title: string) => ({ blocks: [section(title)] });

  it('records unfurls against the message, a later call replacing the same URL, and shows them in history', async () => {
    const channel = freshChannel();
    const m = personSays(channel, `look <${URL_A}> and <${URL_B}|pipeline 2>`);
    const first = await call('chat.unfurl', {
      channel,
      ts: m.ts,
      unfurls: { [URL_A]: unfurlOf('Job #8 failed') },
      user_auth_message: 'Connect to see more',
      user_auth_required: true,
      user_auth_url: 'https://bot.example.com/connect',
    });
    expect(first.body).toEqual({ ok: true });
    await call(
      'chat.unfurl',
      { channel, ts: m.ts, unfurls: { [URL_A]: unfurlOf('Job #8 retried'), [URL_B]: unfurlOf('Pipeline #2') } },
      { form: true },
    );
    expect(fake.messages.get(m.key)?.unfurls).toEqual({
      [URL_A]: unfurlOf('Job #8 retried'),
      [URL_B]: unfurlOf('Pipeline #2'),
    });
    const [shown] = (await history(channel)).messages as { user: string; attachments: Record<string, unknown>[] }[];
    expect(shown?.user).toBe('U0ALICE');
    expect(shown?.attachments.map((a) => a.from_url)).toEqual([URL_A, URL_B]);
  });

  it('refuses a URL the message does not carry, an unknown message, bad JSON and blocks over the limits', async () => {
    const channel = freshChannel();
    const m = personSays(channel, `see <${URL_A}>`);
    const refused = async (body: Record<string, unknown>, form = false) =>
      (await call('chat.unfurl', body, { form })).body.error;
    expect(await refused({ channel, ts: m.ts, unfurls: { [URL_B]: unfurlOf('x') } })).toBe('cannot_unfurl_message');
    expect(await refused({ channel, ts: '1.000001', unfurls: { [URL_A]: unfurlOf('x') } })).toBe('cannot_find_message');
    expect(await refused({ channel, ts: m.ts, unfurls: '{"oops' }, true)).toBe('invalid_unfurls_format');
    expect(await refused({ channel, ts: m.ts })).toBe('missing_unfurls');
    expect(await refused({ ts: m.ts, unfurls: { [URL_A]: unfurlOf('x') } })).toBe('missing_channel');
    expect(await refused({ channel, unfurls: { [URL_A]: unfurlOf('x') } })).toBe('missing_ts');
    const tooMany = { blocks: Array.from({ length: 51 }, (_, i) => section(`row ${i}`)) };
    const seq = fake.lastSeq;
    expect(await refused({ channel, ts: m.ts, unfurls: { [URL_A]: tooMany } })).toBe('invalid_blocks');
    expect(fake.since(seq)[0]?.violations).toEqual([`${URL_A}: 51 blocks > 50`]);
    expect(fake.messages.get(m.key)?.unfurls).toBeUndefined();
  });

  it('addresses links still in the composer by unfurl_id and source, never mixed with channel and ts', async () => {
    const id = fake.startComposing([URL_A]);
    const refused = async (body: Record<string, unknown>) => (await call('chat.unfurl', body)).body.error;
    const unfurls = { [URL_A]: unfurlOf('Job #8') };
    expect(await refused({ unfurl_id: id, source: 'composer', channel: 'C0TEST', ts: '1.000001', unfurls })).toBe(
      'invalid_arguments',
    );
    expect(await refused({ unfurl_id: id, unfurls })).toBe('invalid_source');
    expect(await refused({ source: 'composer', unfurls })).toBe('invalid_arguments');
    expect(await refused({ unfurl_id: 'nope', source: 'composer', unfurls })).toBe('cannot_find_message');
    expect(await refused({ unfurl_id: id, source: 'composer', unfurls: { [URL_B]: unfurlOf('x') } })).toBe(
      'cannot_unfurl_message',
    );
    expect(fake.composing.get(id)?.unfurls).toBeUndefined();
    expect((await call('chat.unfurl', { unfurl_id: id, source: 'composer', unfurls })).body).toEqual({ ok: true });
    expect(fake.composing.get(id)?.unfurls).toEqual(unfurls);
  });
});

describe('views.publish', () => {
  const home = (n: number) => ({ type: 'home', blocks: Array.from({ length: n }, (_, i) => section(`line ${i}`)) });

  it('publishes a home view of up to 100 blocks and refuses 101', async () => {
    expect((await call('views.publish', { user_id: 'U0ALICE', view: home(100) })).body.ok).toBe(true);
    const seq = fake.lastSeq;
    expect((await call('views.publish', { user_id: 'U0ALICE', view: home(101) })).body.error).toBe('invalid_arguments');
    expect(fake.since(seq)[0]?.violations).toEqual(['101 blocks > 100']);
  });

  it('wants a known user_id and a home view', async () => {
    expect((await call('views.publish', { view: home(1) })).body).toEqual({
      ok: false,
      error: 'invalid_arguments',
      response_metadata: { messages: ['invalid `user_id`'] },
    });
    expect((await call('views.publish', { user_id: 'U0NOBODY', view: home(1) })).body.error).toBe('invalid_arguments');
    const modal = { type: 'modal', title: { type: 'plain_text', text: 'Hi' }, blocks: [section('x')] };
    expect((await call('views.publish', { user_id: 'U0ALICE', view: modal })).body.error).toBe('invalid_arguments');
  });
});

describe('rate limits', () => {
  it('answers a method 429 ratelimited with Retry-After the number of times asked, other methods as usual', async () => {
    const channel = freshChannel();
    fake.rateLimit('chat.postMessage', { times: 2, retryAfter: 3 });
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) answers.push(await call('chat.postMessage', { channel, text: `try ${i}` }));
    expect(answers.map((a) => [a.status, a.retryAfter, a.body.ok, a.body.error])).toEqual([
      [429, '3', false, 'ratelimited'],
      [429, '3', false, 'ratelimited'],
      [200, null, true, undefined],
    ]);
    expect(texts(await history(channel))).toEqual(['try 2']);
    expect(
      fake
        .calls('chat.postMessage')
        .slice(-3)
        .map((r) => r.error ?? 'ok'),
    ).toEqual(['ratelimited', 'ratelimited', 'ok']);
  });

  it('can be called off, and refuses nonsense', async () => {
    fake.rateLimit('auth.test', { times: 5 });
    fake.rateLimit('auth.test', { times: 0 });
    expect((await call('auth.test')).status).toBe(200);
    expect(() => fake.rateLimit('auth.test', { times: -1 })).toThrow(/times/);
    expect(() => fake.rateLimit('auth.test', { times: 1, retryAfter: 0.5 })).toThrow(/retryAfter/);
  });
});

describe('blocks with buttons', () => {
  it('still refuses a message that breaks the limits, with the violation recorded', async () => {
    const seq = fake.lastSeq;
    const dupes = actions([
      button({ text: 'A', def: JobButtons.retry, value: { p: 'demo/web', j: 1 } }),
      button({ text: 'B', def: JobButtons.retry, value: { p: 'demo/web', j: 2 } }),
    ]);
    expect((await call('chat.postMessage', { channel: freshChannel(), text: 'x', blocks: [dupes] })).body.error).toBe(
      'invalid_blocks',
    );
    expect(fake.since(seq)[0]?.violations[0]).toMatch(/duplicate action_id/);
  });
});

describe('threads and permalinks', () => {
  it('posts a reply into a thread, keeps it out of the channel history, and links to messages and replies', async () => {
    const channel = freshChannel();
    const parent = await post(channel, 'Parent');
    const reply = await post(channel, 'Reply', { thread_ts: parent });
    expect(fake.messages.get(`${channel}:${reply}`)?.threadTs).toBe(parent);
    const history = await call('conversations.history', { channel });
    expect((history.body.messages as { text: string }[]).map((m) => m.text)).toEqual(['Parent']);

    const link = await call('chat.getPermalink', { channel, message_ts: parent });
    expect(link.body).toEqual({
      ok: true,
      channel,
      permalink: `https://test-team.slack.com/archives/${channel}/p${parent.replace('.', '')}`,
    });
    const inThread = await call('chat.getPermalink', { channel, message_ts: reply });
    expect(inThread.body.permalink).toBe(
      `https://test-team.slack.com/archives/${channel}/p${reply.replace('.', '')}?thread_ts=${parent}&cid=${channel}`,
    );
    expect((await call('chat.getPermalink', { channel, message_ts: '1.000001' })).body).toEqual({
      ok: false,
      error: 'message_not_found',
    });
  });
});

describe("Slack's external upload", () => {
  it("takes a binary file through WebClient's filesUploadV2, bytes intact, with its alt text, into the channel", async () => {
    const { WebClient } = await import('@slack/web-api');
    const client = new WebClient(TOKEN, { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } });
    const channel = freshChannel();
    // Every byte value, NULs and bytes that are not UTF-8 included, as a PNG carries them.
    const bytes = Buffer.from(Array.from({ length: 600 }, (_, i) => (i * 7) % 256));
    await client.filesUploadV2({
      channel_id: channel,
      file: bytes,
      filename: 'chart.png',
      title: 'Chart',
      alt_text: 'weekly deployments: 3, 4, 5',
    });
    const shared = [...fake.messages.values()].find((m) => m.channel === channel);
    const file = shared?.files?.[0];
    expect(file?.name).toBe('chart.png');
    expect(file?.bytes.equals(bytes)).toBe(true);
    expect(file?.altText).toBe('weekly deployments: 3, 4, 5');
  });
});
