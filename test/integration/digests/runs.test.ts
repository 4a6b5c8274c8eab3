import { afterEach, describe, expect, it } from 'vitest';
import type { RunOutcome } from '../../../src/operations/digest-service.js';
import { formatAbsolute } from '../../../src/views/format.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { messageText } from '../../support/slack-driver.js';
import { call, useCiBot } from '../ci/harness.js';

// Scheduled runs on the test's clock: what each digest posts (exactly what is new, in the digest's zone), what it
// reads (one call when nothing is new, with the owner's token), and what happens when the server refuses.

const h = useCiBot({ digests: { timer: 'manual' } });

const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);
const EVENTS = '/api/v4/projects/1/events';
const events = (after: string) => call('GET', EVENTS, 'alice', { query: { sort: 'desc', per_page: '20', after } });
/** Before events are posted in a channel: which of their issues are confidential, one list read (issue 46). */
const confidentialRead = (iids: number[]) =>
  call('GET', '/api/v4/projects/1/issues', 'alice', {
    query: { iids: iids.map(String), state: 'all', per_page: '100' },
  });

function postsIn(channel: string): FakeMessage[] {
  return [...h.bot.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral);
}

async function openIssue(person: 'alice' | 'bob' | 'eve', title: string): Promise<number> {
  const res = await h.api(person, 'projects/demo%2Fweb/issues', { method: 'POST', form: { title } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { iid: number }).iid;
}

async function closeIssue(person: 'alice' | 'bob', iid: number): Promise<void> {
  const res = await h.api(person, `projects/demo%2Fweb/issues/${iid}`, {
    method: 'PUT',
    form: { state_event: 'close' },
  });
  expect(res.status).toBe(200);
}

const kinds = (runs: { outcome: RunOutcome }[]) => runs.map((r) => r.outcome.kind);

// Each test's digests go with it, so that the next one's due runs and reads are its own.
afterEach(async () => {
  for (const { id } of h.bot.db.prepare('SELECT id FROM digests').all() as { id: number }[]) {
    await h.bot.bot.digests.remove(id);
  }
  h.sim.setFaults({});
});

describe('an events digest across its scheduled times', () => {
  it('posts exactly what is new at each time, in the digest’s zone across the spring change, and nothing when nothing happened', async () => {
    h.clock.set('2026-03-27T10:00:00Z'); // Friday, 11:00 in Berlin
    const made = await h.ask('alice', 'digest events demo/web --cron "0 9 * * *" --tz Europe/Berlin', /Digest #/, {
      channel: 'C0DGSC1',
    });
    const id = idOf(made.text);
    h.clock.set('2026-03-27T10:30:00Z');
    const alpha = await openIssue('bob', 'Alpha: search by SKU');
    h.clock.set('2026-03-27T11:00:00Z');
    const beta = await openIssue('eve', 'Beta: <b>bold</b> & co');
    h.clock.set('2026-03-27T11:30:00Z');
    await closeIssue('alice', alpha);

    // Saturday 09:00 Berlin is 08:00 UTC (still winter time).
    h.clock.set('2026-03-28T07:59:00Z');
    let from = h.calls().length;
    expect(await h.bot.bot.digests.runDue()).toEqual([]);
    h.clock.set('2026-03-28T08:00:00Z');
    const first = await h.bot.bot.digests.runDue();
    expect(kinds(first)).toEqual(['posted']);
    expect(h.calls(from)).toEqual([events('2026-03-25'), confidentialRead([alpha, beta])]);
    const [post1] = postsIn('C0DGSC1');
    const text1 = messageText(post1 as FakeMessage);
    expect(text1).toContain(':newspaper: demo/web: what happened');
    const since = Math.floor(Date.parse('2026-03-27T10:00:00Z') / 1000);
    const until = Math.floor(Date.parse('2026-03-28T08:00:00Z') / 1000);
    expect(text1).toContain(
      `3 events from <!date^${since}^{date_short_pretty} {time}|27 Mar 2026, 11:00 Europe/Berlin> to <!date^${until}^{date_short_pretty} {time}|28 Mar 2026, 09:00 Europe/Berlin> · digest #${id}`,
    );
    // Grouped by what they happened to, newest last.
    const lines = text1.split('\n').filter((l) => /issues\/\d+\|/.test(l));
    expect(lines).toEqual([
      `<${h.sim.url}/demo/web/issues/${beta}|#${beta}> *Beta: &lt;b&gt;bold&lt;/b&gt; &amp; co*: opened by @eve`,
      `<${h.sim.url}/demo/web/issues/${alpha}|#${alpha}> *Alpha: search by SKU*: opened by @bob, closed by @alice`,
    ]);
    expect(post1?.metadata).toMatchObject({ event_type: 'gl_digest_run', event_payload: { digest: id } });

    // Asked again within the same minute, nothing is due any more.
    from = h.calls().length;
    expect(await h.bot.bot.digests.runDue()).toEqual([]);
    expect(h.calls(from)).toEqual([]);

    h.clock.set('2026-03-28T12:00:00Z');
    const gamma = await openIssue('bob', 'Gamma: wishlist');

    // Sunday 09:00 Berlin is 07:00 UTC: the clocks went forward at 01:00 UTC.
    h.clock.set('2026-03-29T06:59:00Z');
    expect(await h.bot.bot.digests.runDue()).toEqual([]);
    h.clock.set('2026-03-29T07:00:00Z');
    from = h.calls().length;
    expect(kinds(await h.bot.bot.digests.runDue())).toEqual(['posted']);
    expect(h.calls(from)).toEqual([events('2026-03-25'), confidentialRead([gamma])]);
    const post2 = postsIn('C0DGSC1')[1] as FakeMessage;
    const text2 = messageText(post2);
    expect(text2).toContain('1 event from <!date^');
    expect(text2).toContain('|27 Mar 2026, 12:30 Europe/Berlin> to ');
    expect(text2).toContain('|29 Mar 2026, 09:00 Europe/Berlin>');
    expect(text2).toContain(`|#${gamma}> *Gamma: wishlist*: opened by @bob`);
    expect(text2).not.toMatch(/Alpha|Beta/);

    // Monday: nothing happened, so one read and no post.
    h.clock.set('2026-03-30T07:00:00Z');
    from = h.calls().length;
    expect(kinds(await h.bot.bot.digests.runDue())).toEqual(['empty']);
    expect(h.calls(from)).toEqual([events('2026-03-26')]);
    expect(postsIn('C0DGSC1')).toHaveLength(2);

    const card = await h.ask('alice', 'digest list', /Digests/, { channel: 'C0DGSC1' });
    expect(card.text).toContain(`next ${formatAbsolute(new Date('2026-03-31T07:00:00Z'), 'Europe/Berlin')} · in `);
    expect(card.text).toMatch(/last run: nothing new \d{1,2} \w{3} \d{4}, \d\d:\d\d · just now/);

    // One log line per run: digest, outcome, items and duration, and never a token.
    const runs = h.bot.logs.filter((l) => l.includes('"msg":"digest run"') && l.includes(`"digest":${id},`));
    expect(runs.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ digest: id, reason: 'scheduled', outcome: 'posted', items: 3, ms: expect.any(Number) }),
      expect.objectContaining({ digest: id, reason: 'scheduled', outcome: 'posted', items: 1 }),
      expect.objectContaining({ digest: id, reason: 'scheduled', outcome: 'empty', items: 0 }),
    ]);
    expect(h.bot.logs.join('\n')).not.toMatch(/sim-\w+-token/);
  });
});

describe('a timer that fires for a time the digest already ran for', () => {
  it('is skipped, so a todos digest is not posted twice', async () => {
    const made = await h.ask('alice', 'digest todos --here', /Digest #/, { channel: 'C0DGSK1' });
    const id = idOf(made.text);
    expect(await h.bot.bot.digests.run(id, 'manual')).toMatchObject({ kind: 'posted', items: 5 });
    const from = h.calls().length;
    expect(await h.bot.bot.digests.run(id, 'scheduled')).toEqual({ kind: 'skipped' });
    expect(h.calls(from)).toEqual([]);
    expect(postsIn('C0DGSK1')).toHaveLength(1);
  });
});

describe('events at the same instant', () => {
  for (const ids of [false, true]) {
    it(`are posted once each, whether the server sends event ids or not (ids: ${ids})`, async () => {
      h.sim.setEventIds(ids);
      const made = await h.ask('alice', 'digest events demo/web', /Digest #/, { channel: `C0DGSI${Number(ids)}` });
      const id = idOf(made.text);
      h.clock.advance(60_000);
      await openIssue('bob', 'One');
      await openIssue('bob', 'Two');
      const first = await h.bot.bot.digests.run(id);
      expect(first).toMatchObject({ kind: 'posted', items: 2 });
      // Still the same instant: a third event after the run.
      await openIssue('eve', 'Three');
      expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 1 });
      expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'empty' });
      const texts = postsIn(`C0DGSI${Number(ids)}`).map(messageText);
      expect(texts).toHaveLength(2);
      expect(texts[0]).toMatch(/One\*[\s\S]*Two\*/);
      expect(texts[0]).not.toContain('Three');
      expect(texts[1]).toContain('*Three*: opened by @eve');
      expect(texts[1]).not.toMatch(/\*One\*|\*Two\*/);
      const [sample] = (await (await h.api('alice', 'projects/demo%2Fweb/events?per_page=1')).json()) as object[];
      expect(sample !== undefined && 'id' in sample).toBe(ids);
    });
  }
});

describe('a digest with more new than one short page', () => {
  it('reads on in pages of 100 and posts every event once', async () => {
    const made = await h.ask('alice', 'digest events demo/web', /Digest #/, { channel: 'C0DGPG1' });
    const id = idOf(made.text);
    h.clock.advance(60_000);
    const opened: number[] = [];
    for (let i = 1; i <= 25; i++) opened.push(await openIssue('bob', `Busy day ${i}`));
    const from = h.calls().length;
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 25 });
    const page = (perPage: string) =>
      call('GET', EVENTS, 'alice', { query: { sort: 'desc', per_page: perPage, after: '2026-02-28' } });
    expect(h.calls(from)).toEqual([page('20'), page('100'), confidentialRead(opened)]);
    const text = messageText(postsIn('C0DGPG1')[0] as FakeMessage);
    for (let i = 1; i <= 25; i++) expect(text.split(`*Busy day ${i}*`)).toHaveLength(2);
  });
});

describe('a person’s events', () => {
  it('name the project of each, looked up once as the owner and remembered', async () => {
    const made = await h.ask('alice', 'digest events --user bob', /Digest #/, { channel: 'C0DGUE1' });
    const id = idOf(made.text);
    h.clock.advance(60_000);
    const iid = await openIssue('bob', 'Faster checkout');
    let from = h.calls().length;
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 1 });
    const userEvents = (after: string) =>
      call('GET', '/api/v4/users/3/events', 'alice', { query: { sort: 'desc', per_page: '20', after } });
    expect(h.calls(from)).toEqual([
      userEvents('2026-02-28'),
      confidentialRead([iid]),
      call('GET', '/api/v4/projects/1', 'alice'),
    ]);
    const text = messageText(postsIn('C0DGUE1')[0] as FakeMessage);
    expect(text).toContain(':newspaper: @bob: what they did');
    expect(text).toContain(`<${h.sim.url}/demo/web/issues/${iid}|demo/web#${iid}> *Faster checkout*: opened by @bob`);
    h.clock.advance(60_000);
    await closeIssue('bob', iid);
    from = h.calls().length;
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 1 });
    expect(h.calls(from)).toEqual([userEvents('2026-02-28'), confidentialRead([iid])]);
  });
});

describe('a digest the server refuses to read', () => {
  for (const status of [404, 403] as const) {
    it(`pauses on a ${status} and says why in its channel once`, async () => {
      const channel = `C0DGRF${status}`;
      const made = await h.ask('alice', 'digest events demo/web --cron "0 9 * * *"', /Digest #/, { channel });
      const id = idOf(made.text);
      h.sim.setFaults({ errorRate: 1, errorStatus: status });
      h.clock.set('2026-03-03T08:00:00Z');
      const from = h.calls().length;
      expect(await h.bot.bot.digests.runDue()).toEqual([
        { id, outcome: { kind: 'paused', reason: status === 404 ? 'not_found' : 'forbidden' } },
      ]);
      expect(h.calls(from)).toEqual([{ ...events('2026-02-28'), status }]);
      const notices = postsIn(channel).map(messageText);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toContain(`Digest #${id} (events of demo/web) is paused: `);
      expect(notices[0]).toContain(
        status === 404
          ? "the server did not find the project demo/web with <@U0ALICE>'s token (404): it is gone, or they lost access"
          : "the server refused <@U0ALICE>'s token for the project demo/web (403)",
      );
      expect(notices[0]).toContain(`\`/gl digest resume ${id}\``);
      expect(h.bot.bot.digests.isArmed(id)).toBe(false);
      // Paused, it runs no more and says nothing more.
      h.clock.set('2026-03-04T08:00:00Z');
      expect((await h.bot.bot.digests.runDue()).filter((r) => r.id === id)).toEqual([]);
      expect(postsIn(channel)).toHaveLength(1);
      h.sim.setFaults({});
      const resumed = await h.ask('alice', `digest resume ${id}`, /Resumed by/, { channel });
      expect(resumed.text).toContain('*State*\nactive');
    });
  }

  it('keeps its cursor when the server is down, and posts what it missed at the next time', async () => {
    const made = await h.ask('alice', 'digest events demo/web --cron "0 9 * * *"', /Digest #/, { channel: 'C0DGRF5' });
    const id = idOf(made.text);
    await openIssue('bob', 'Outage survivor');
    h.sim.setFaults({ errorRate: 1, errorStatus: 500 });
    h.clock.set('2026-03-03T08:00:00Z');
    const down = await h.bot.bot.digests.runDue();
    expect(down.filter((r) => r.id === id)).toEqual([{ id, outcome: { kind: 'failed', error: 'gitlab_unavailable' } }]);
    expect(postsIn('C0DGRF5')).toEqual([]);
    h.sim.setFaults({});
    h.clock.set('2026-03-04T08:00:00Z');
    const up = await h.bot.bot.digests.runDue();
    expect(up.filter((r) => r.id === id)).toEqual([
      { id, outcome: expect.objectContaining({ kind: 'posted', items: 1 }) },
    ]);
    expect(messageText(postsIn('C0DGRF5')[0] as FakeMessage)).toContain('*Outage survivor*: opened by @bob');
  });
});

describe('an events digest in a channel (issue 46)', () => {
  it('names a confidential issue by its number alone, without its title or comments', async () => {
    h.clock.set('2026-04-06T10:00:00Z');
    const made = await h.ask('alice', 'digest events demo/web --cron "0 9 * * *" --tz UTC', /Digest #/, {
      channel: 'C0DGCONF',
    });
    expect(idOf(made.text)).toBeGreaterThan(0);
    h.clock.set('2026-04-06T10:30:00Z');
    const res = await h.api('alice', 'projects/demo%2Fweb/issues', {
      method: 'POST',
      form: { title: 'Secret plan for the launch', confidential: 'true' },
    });
    expect(res.status).toBe(201);
    const open = await openIssue('bob', 'Public roadmap item');
    h.clock.set('2026-04-07T09:00:00Z');
    expect(kinds(await h.bot.bot.digests.runDue())).toEqual(['posted']);
    const text = messageText(postsIn('C0DGCONF')[0] as FakeMessage);
    expect(text).toContain('Public roadmap item');
    expect(text).not.toContain('Secret plan');
    expect(text).toMatch(new RegExp(`#${open}`));
  });
});
