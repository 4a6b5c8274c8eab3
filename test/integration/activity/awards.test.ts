import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';

// Every award emoji command, end to end: on issues, merge requests, snippets and their notes, with the
// exact calls (method, path, parameters, whose token) and what the person sees.

const h = useCiBot();

const awardIds = (text: string) => [...text.matchAll(/· award (\d+)$/gm)].map((m) => Number(m[1]));

async function awardsOn(path: string): Promise<{ id: number; name: string; user: { username: string } }[]> {
  const res = await h.api('alice', `projects/demo%2Fweb/${path}/award_emoji`);
  expect(res.status).toBe(200);
  return (await res.json()) as { id: number; name: string; user: { username: string } }[];
}

describe('award lists', () => {
  it('lists the emoji of an issue: each the emoji itself, who and when, grouped by emoji with counts', async () => {
    // Interleaved on purpose: the list groups them by emoji, in the order each emoji first came.
    for (const [who, name] of [
      ['alice', 'heart'],
      ['root', 'thumbsup'],
    ] as const) {
      const res = await h.api(who, 'projects/demo%2Fweb/issues/4/award_emoji', { method: 'POST', form: { name } });
      expect(res.status).toBe(201);
    }
    const from = h.calls().length;
    const seen = await h.ask('alice', 'awards demo/web#4', /Award emoji on demo\/web#4/);
    expect(h.calls(from)).toEqual([call('GET', `${WEB}/issues/4/award_emoji`, 'alice')]);
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain(`:thumbsup: 3 · :heart: 1 · <${h.sim.url}/demo/web/issues/4|demo/web#4>`);
    expect(awardIds(seen.text)).toEqual([1, 2, 18, 17]);
    expect(seen.text).toContain(
      `:thumbsup: \`thumbsup\` by <${h.sim.url}/bob|@bob> · 25 Feb 2026, 11:00 · 5 days ago · award 1`,
    );
    expect(seen.text).toContain(
      `:heart: \`heart\` by <${h.sim.url}/alice|@alice> · 2 Mar 2026, 11:00 · just now · award 17`,
    );
    expect(seen.text).toContain('Page 1 · 4 in all · 4 shown');
    expectWithinLimits(seen.it);
  });

  it('lists the emoji of a merge request, a snippet ($id) and an issue note and a merge request note', async () => {
    const mr = await h.ask('alice', 'awards demo/web!2', /Award emoji on demo\/web!2/);
    const snippet = await h.ask('alice', 'awards demo/web$2', /Award emoji on demo\/web\$2/);
    const issueNote = await h.ask('alice', 'awards demo/web#4 --note 306', /Award emoji on note 306 of demo\/web#4/);
    const mrNote = await h.ask('alice', 'awards demo/web!4 --note 303', /Award emoji on note 303 of demo\/web!4/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/merge_requests/2/award_emoji`, 'alice'),
      call('GET', `${WEB}/snippets/2/award_emoji`, 'alice'),
      call('GET', `${WEB}/issues/4/notes/306/award_emoji`, 'alice'),
      call('GET', `${WEB}/merge_requests/4/notes/303/award_emoji`, 'alice'),
    ]);
    expect(mr.text).toContain(':thumbsup: 1 · :tada: 1');
    expect(awardIds(mr.text)).toEqual([7, 8]);
    expect(awardIds(snippet.text)).toEqual([11]);
    expect(snippet.text).toContain(`<${h.sim.url}/demo/web/snippets/2|demo/web$2>`);
    expect(issueNote.text).toContain(`:thumbsup: \`thumbsup\` by <${h.sim.url}/bob|@bob>`);
    expect(awardIds(issueNote.text)).toEqual([13]);
    expect(issueNote.text).toContain(`<${h.sim.url}/demo/web/issues/4#note_306|note 306 of demo/web#4>`);
    expect(awardIds(mrNote.text)).toEqual([14]);
  });

  it('says when there are none, and when the issue or the note is not there', async () => {
    const none = await h.ask('alice', 'awards demo/web#1', /Award emoji on demo\/web#1/);
    const noIssue = await h.ask('alice', 'awards demo/web#999', /not found/);
    const noNote = await h.ask('alice', 'awards demo/web#4 --note 999', /not found/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/1/award_emoji`, 'alice'),
      call('GET', `${WEB}/issues/999/award_emoji`, 'alice', { status: 404 }),
      call('GET', `${WEB}/issues/4/notes/999/award_emoji`, 'alice', { status: 404 }),
    ]);
    expect(none.text).toContain(`No award emoji on <${h.sim.url}/demo/web/issues/1|demo/web#1> yet.`);
    expect(noIssue.text).toContain('Issue demo/web#999 was not found, or you have no access to it (404).');
    expect(noNote.text).toContain('Note 999 of demo/web#4 was not found, or you have no access to it (404).');
  });

  it('turns pages with Next page, keeping --note and --per-page', async () => {
    const res = await h.api('bob', 'projects/demo%2Fweb/issues/4/notes/306/award_emoji', {
      method: 'POST',
      form: { name: 'rocket' },
    });
    expect(res.status).toBe(201);
    const from = h.calls().length;
    const first = await h.ask('alice', 'awards demo/web#4 --note 306 --per-page 1', /Award emoji on note 306/);
    expect(first.text).toContain(':thumbsup: 1 on this page');
    const next = await h.press('alice', buttonOf(first, /^Next page$/), /Page 2/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues/4/notes/306/award_emoji`, 'alice', { query: { per_page: '1' } }),
      call('GET', `${WEB}/issues/4/notes/306/award_emoji`, 'alice', { query: { page: '2', per_page: '1' } }),
    ]);
    expect(next.message.key).toBe(first.message.key);
    expect(awardIds(first.text)).toEqual([13]);
    expect(awardIds(next.text)).toEqual([17]);
    expect(next.text).toContain(':rocket: `rocket` by');
  });
});

describe('awarding', () => {
  it('awards an emoji on an issue note and on a merge request note, as the person who typed it', async () => {
    const issueNote = await h.ask('alice', 'award demo/web#4 :tada: --note 306', /Awarded/);
    const mrNote = await h.ask('bob', 'award demo/web!3 eyes --note 311', /Awarded/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/4/notes/306/award_emoji`, 'alice', { body: { name: 'tada' }, status: 201 }),
      call('POST', `${WEB}/merge_requests/3/notes/311/award_emoji`, 'bob', { body: { name: 'eyes' }, status: 201 }),
    ]);
    expect(issueNote.text).toContain(
      `:tada: Awarded :tada: on <${h.sim.url}/demo/web/issues/4#note_306|note 306 of demo/web#4> (award 17).`,
    );
    expect(mrNote.text).toContain(
      `:eyes: Awarded :eyes: on <${h.sim.url}/demo/web/merge_requests/3#note_311|note 311 of demo/web!3> (award 18).`,
    );
    expect((await awardsOn('issues/4/notes/306')).map((a) => [a.name, a.user.username])).toEqual([
      ['thumbsup', 'bob'],
      ['tada', 'alice'],
    ]);
  });

  it('awards on an issue, a merge request and a snippet, in either spelling (`:rocket:` or `rocket`)', async () => {
    await h.ask('alice', 'award demo/web#1 :rocket:', /Awarded/);
    await h.ask('alice', 'award demo/web!3 rocket', /Awarded/);
    const snippet = await h.ask('alice', 'award demo/web$1 :+1:', /Awarded/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/1/award_emoji`, 'alice', { body: { name: 'rocket' }, status: 201 }),
      call('POST', `${WEB}/merge_requests/3/award_emoji`, 'alice', { body: { name: 'rocket' }, status: 201 }),
      call('POST', `${WEB}/snippets/1/award_emoji`, 'alice', { body: { name: 'thumbsup' }, status: 201 }),
    ]);
    expect(snippet.text).toContain(`Awarded :thumbsup: on <${h.sim.url}/demo/web/snippets/1|demo/web$1>`);
  });

  it('reads a second award of the same emoji (the server answers 404) as "already awarded", with its id', async () => {
    const onNote = await h.ask('alice', 'award demo/web!4 thumbsup --note 303', /already awarded/);
    const onIssue = await h.ask('alice', 'award demo/web#2 :thumbsup:', /already awarded/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/merge_requests/4/notes/303/award_emoji`, 'alice', {
        body: { name: 'thumbsup' },
        status: 404,
      }),
      call('GET', `${WEB}/merge_requests/4/notes/303/award_emoji`, 'alice', { query: { per_page: '100' } }),
      call('POST', `${WEB}/issues/2/award_emoji`, 'alice', { body: { name: 'thumbsup' }, status: 404 }),
      call('GET', `${WEB}/issues/2/award_emoji`, 'alice', { query: { per_page: '100' } }),
    ]);
    expect(onNote.text).toContain(
      `:information_source: You already awarded :thumbsup: on <${h.sim.url}/demo/web/merge_requests/4#note_303|note 303 of demo/web!4> (award 14). Nothing was changed.`,
    );
    expect(onIssue.text).toContain('You already awarded :thumbsup: on');
    expect(onIssue.text).toContain('(award 3). Nothing was changed.');
    expect(onIssue.text).not.toMatch(/not found|refused/);
  });

  it('refuses an unknown emoji name before any call, with the closest known names', async () => {
    const typo = await h.ask('alice', 'award demo/web#4 :thumbsupp:', /not an emoji/);
    const far = await h.ask('alice', 'award demo/web#4 hart --note 306', /not an emoji/);
    const nothing = await h.ask('alice', 'award demo/web#4 qqqqqqqqq', /not an emoji/);
    expect(h.calls()).toEqual([]);
    expect(typo.text).toContain(
      '`thumbsupp` is not an emoji the server knows. Closest: :thumbsup: `thumbsup`. Nothing was sent.',
    );
    expect(far.text).toContain('Closest: :heart: `heart`, ');
    expect(nothing.text).toContain('`qqqqqqqqq` is not an emoji the server knows. Nothing was sent.');
    expectWithinLimits(typo.it);
  });

  it('says so when the server does not know an emoji the bot let through (a skin tone)', async () => {
    const seen = await h.ask('alice', 'award demo/web#4 :+1::skin-tone-3:', /does not know that emoji/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/4/award_emoji`, 'alice', { body: { name: 'thumbsup_tone2' }, status: 404 }),
    ]);
    expect(seen.text).toContain(
      'Award :thumbsup_tone2: on demo/web#4 was refused: the server does not know that emoji (404). Nothing was changed.',
    );
  });

  it('refuses a thumb on one’s own issue with words, after looking that it is not already there', async () => {
    const seen = await h.ask('bob', 'award demo/web#4 thumbsdown', /refused/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/4/award_emoji`, 'bob', { body: { name: 'thumbsdown' }, status: 404 }),
      call('GET', `${WEB}/issues/4/award_emoji`, 'bob', { query: { per_page: '100' } }),
    ]);
    expect(seen.text).toContain(
      'Award :thumbsdown: on demo/web#4 was refused (404): a thumb up or down is not for your own issue or merge request',
    );
  });

  it('says the issue is not there when an award goes to a missing issue', async () => {
    const seen = await h.ask('alice', 'award demo/web#999 rocket', /not found/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/issues/999/award_emoji`, 'alice', { body: { name: 'rocket' }, status: 404 }),
      call('GET', `${WEB}/issues/999/award_emoji`, 'alice', { query: { per_page: '100' }, status: 404 }),
    ]);
    expect(seen.text).toContain('Issue demo/web#999 was not found, or you have no access to it (404).');
  });
});

describe('one award', () => {
  it('shows an award: the emoji, who, when, and where', async () => {
    const seen = await h.ask('alice', 'award show demo/web#4 1', /Award 1/);
    const onNote = await h.ask('alice', 'award show demo/web!4 14 --note 303', /Award 14/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues/4/award_emoji/1`, 'alice'),
      call('GET', `${WEB}/merge_requests/4/notes/303/award_emoji/14`, 'alice'),
    ]);
    expect(seen.text).toContain(`:thumbsup: *\`thumbsup\`* by Bob Brown (<${h.sim.url}/bob|@bob>)`);
    expect(seen.text).toContain(
      `Award 1 on <${h.sim.url}/demo/web/issues/4|demo/web#4> · 25 Feb 2026, 11:00 · 5 days ago`,
    );
    expect(onNote.text).toContain('by Alice Anders');
    expect(onNote.text).toContain('note 303 of demo/web!4');
  });

  it('says an award id that is not on the issue was not found', async () => {
    const seen = await h.ask('alice', 'award show demo/web#4 14', /not found/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/issues/4/award_emoji/14`, 'alice', { status: 404 })]);
    expect(seen.text).toContain('Award 14 on demo/web#4 was not found, or you have no access to it (404).');
  });

  it('takes back one’s own award, on a merge request and on an issue note', async () => {
    const mr = await h.ask('alice', 'unaward demo/web!2 8', /taken back/);
    const note = await h.ask('alice', 'award remove demo/web#4 12 --note 305', /taken back/);
    expect(h.calls()).toEqual([
      call('DELETE', `${WEB}/merge_requests/2/award_emoji/8`, 'alice', { status: 204 }),
      call('DELETE', `${WEB}/issues/4/notes/305/award_emoji/12`, 'alice', { status: 204 }),
    ]);
    expect(mr.text).toContain(
      `:wastebasket: Award 8 on <${h.sim.url}/demo/web/merge_requests/2|demo/web!2> was taken back by <@U0ALICE>.`,
    );
    expect(note.text).toContain('Award 12 on <');
    expect((await awardsOn('merge_requests/2')).map((a) => a.id)).toEqual([7]);
    expect(await awardsOn('issues/4/notes/305')).toEqual([]);
  });

  it('reads taking back someone else’s award as a refusal, and changes nothing', async () => {
    const seen = await h.ask('alice', 'unaward demo/web#4 1', /not yours/);
    expect(h.calls()).toEqual([
      call('DELETE', `${WEB}/issues/4/award_emoji/1`, 'alice', { status: 401 }),
      // A 401 can also mean a revoked token: one plain read tells it is not.
      call('GET', '/api/v4/todos', 'alice', { query: { per_page: '1' } }),
    ]);
    expect(seen.text).toContain(
      ':no_entry: Award 1 on demo/web#4 is not yours to take back (401): only the person who awarded it (or an administrator) can. Nothing was changed.',
    );
    expect(seen.text).not.toMatch(/reconnect|Something went wrong/);
    expect((await awardsOn('issues/4')).map((a) => a.id)).toEqual([1, 2]);
  });
});
