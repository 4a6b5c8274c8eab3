import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';

// Events — the person's own, a user's (by id, username or mention), a project's, the channel's — as sentences,
// end to end: the exact calls (method, path, parameters, whose token) and what the person sees.
//
// Events name their project by id only, and the bot looks a path up once per person (for ten minutes): each
// test that expects that look-up asks as a person no other test here looks a project up for.

const h = useCiBot();

/** The sentences of a list, without links (`<url|label>` → `label`) and without their times. */
const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => /^<[^>]+\|@\w+>/.test(l))
    .map((l) =>
      l.replace(/<[^>|]+\|([^>]+)>/g, '$1').replace(/ · \d{1,2} \w{3} \d{4}, \d\d:\d\d · (?:[^·]+ ago|just now)$/, ''),
    );

describe("a project's events", () => {
  it('reads each event as a sentence, linked, newest first', async () => {
    const seen = await h.ask('alice', 'events demo/web --per-page 8', /Events in demo\/web/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/events`, 'alice', { query: { per_page: '8' } })]);
    expect(lines(seen.text)).toEqual([
      '@bob pushed new branch feature/i18n-de · _Add German translations_',
      '@alice pushed new branch feature/dark-mode · _Darken code blocks and form inputs_ and 1 more commit',
      '@alice commented on !2: “Looks great on mobile too. Setting it to merge when the pipeline succeeds.”',
      '@bob pushed new branch feature/search-suggestions · _Show suggestions dropdown under the search box_ and 1 more commit',
      '@bob opened issue #31 *Cache product API responses at the edge*',
      '@alice opened issue #30 *Order confirmation e-mail has broken logo*',
      '@eve opened issue #29 *Add Apple Pay to checkout*',
      '@bob commented on !3: “@alice ready for review: the regression test covers the mug case from #4.”',
    ]);
    const url = h.sim.url;
    expect(seen.text).toContain(
      `<${url}/bob|@bob> opened issue <${url}/demo/web/issues/31|#31> *Cache product API responses at the edge* · 2 Mar 2026, 09:00 · 2 hours ago`,
    );
    expect(seen.text).toContain(
      `<${url}/alice|@alice> commented on <${url}/demo/web/merge_requests/2#note_302|!2>: “Looks great on mobile too. Setting it to merge when the pipeline succeeds.” · 2 Mar 2026, 10:12 · 48 minutes ago`,
    );
    expect(seen.text).toContain(`pushed new branch <${url}/demo/web/commits/feature/i18n-de|feature/i18n-de>`);
    expect(seen.text).toContain('Page 1 · 79 in all · 8 shown');
    expectWithinLimits(seen.it);
  });

  it('sends every filter: --action, --target-type, --after, --before, --sort', async () => {
    const seen = await h.ask(
      'alice',
      'events demo/web --action merged --target-type merge_request --after 2026-02-01 --before 2026-03-03 --sort asc',
      /Events in demo\/web/,
    );
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/events`, 'alice', {
        query: {
          action: 'merged',
          target_type: 'merge_request',
          after: '2026-02-01',
          before: '2026-03-03',
          sort: 'asc',
        },
      }),
    ]);
    expect(lines(seen.text)).toEqual(['@alice merged !1 *Redesign checkout summary*']);
    expect(seen.text).toContain(
      'Filters: --action merged --target-type merge_request --before 2026-03-03 --after 2026-02-01 --sort asc',
    );
  });

  it('says who pushed to which branch, and turns pages with Next page keeping the filters', async () => {
    const first = await h.ask('alice', 'events demo/web --action pushed --per-page 7', /Events in demo\/web/);
    const next = await h.press('bob', buttonOf(first, /^Next page$/), /Page 2/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/events`, 'alice', { query: { action: 'pushed', per_page: '7' } }),
      call('GET', `${WEB}/events`, 'bob', { query: { action: 'pushed', page: '2', per_page: '7' } }),
    ]);
    expect(lines(first.text)).toContain('@alice pushed new tag v1.4.0-rc1 · _Show delivery estimate on product page_');
    expect(lines(first.text)).toContainEqual(
      expect.stringMatching(
        /^@alice pushed 1 commit to main \(`[0-9a-f]{7}…[0-9a-f]{7}`\) · _Show delivery estimate on product page_$/,
      ),
    );
    expect(next.message.key).toBe(first.message.key);
    expect(next.text).toContain('Filters: --action pushed');
    expect(lines(next.text)).toContainEqual(
      expect.stringMatching(
        /^@bob pushed 3 commits to main \(`[0-9a-f]{7}…[0-9a-f]{7}`\) · _Add Stripe payment step_$/,
      ),
    );
    expect(next.text).toContain(`<${h.sim.url}/demo/web/commits/main|main>`);
  });

  it("uses the channel's default project when none is given", async () => {
    await h.ask('alice', 'use demo/web', /demo\/web/, { channel: 'C0EVENTS' });
    const from = h.calls().length;
    const seen = await h.ask('alice', 'events --target-type issue --per-page 2', /Events in demo\/web/, {
      channel: 'C0EVENTS',
    });
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/events`, 'alice', { query: { target_type: 'issue', per_page: '2' } }),
    ]);
    expect(lines(seen.text)).toEqual([
      '@bob opened issue #31 *Cache product API responses at the edge*',
      '@alice opened issue #30 *Order confirmation e-mail has broken logo*',
    ]);
  });

  it('says when a project is not there or no event matches', async () => {
    const missing = await h.ask('alice', 'events demo/nope', /not found/);
    const none = await h.ask('alice', 'events demo/web --action left', /Events in demo\/web/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/projects/demo%2Fnope/events', 'alice', { status: 404 }),
      call('GET', `${WEB}/events`, 'alice', { query: { action: 'left' } }),
    ]);
    expect(missing.text).toContain('Project demo/nope was not found, or you have no access to it (404).');
    expect(none.text).toContain('No events match (Filters: --action left).');
  });
});

describe("a user's events", () => {
  it('takes a username, and writes references with their project', async () => {
    const seen = await h.ask('alice', 'events --user bob --per-page 5', /Events of @bob/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/users/bob/events', 'alice', { query: { per_page: '5' } }),
      call('GET', '/api/v4/projects/1', 'alice'),
    ]);
    expect(lines(seen.text)).toEqual([
      '@bob pushed new branch feature/i18n-de in demo/web · _Add German translations_',
      '@bob pushed new branch feature/search-suggestions in demo/web · _Show suggestions dropdown under the search box_ and 1 more commit',
      '@bob opened issue demo/web#31 *Cache product API responses at the edge*',
      '@bob commented on demo/web!3: “@alice ready for review: the regression test covers the mug case from #4.”',
      '@bob pushed new branch fix/currency-rounding in demo/web · _Add regression test for EUR rounding_ and 1 more commit',
    ]);
    expect(seen.text).toContain(`on <${h.sim.url}/demo/web/merge_requests/3#note_311|demo/web!3>`);
  });

  it('takes a numeric id, or a Slack mention of a connected person', async () => {
    const byId = await h.ask('bob', 'events --user 4 --per-page 1', /Events of user 4/);
    // Slack sends a mention as `<@U…|name>` unescaped, unlike what people type.
    const mention = await h.bot.slack.command(PEOPLE.bob, 'events --user <@U0EVE|eve> --per-page 1', { escape: false });
    const byMention = await mention.waitForMessage((t) => /Events of @eve/.test(t));
    expect(byMention).not.toBeNull();
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/users/4/events', 'bob', { query: { per_page: '1' } }),
      call('GET', '/api/v4/projects/1', 'bob'),
      call('GET', '/api/v4/users/eve/events', 'bob', { query: { per_page: '1' } }),
    ]);
    expect(lines(byId.text)).toEqual(['@eve opened issue demo/web#29 *Add Apple Pay to checkout*']);
    expect(lines(messageText(byMention ?? {}))).toEqual(lines(byId.text));
  });

  it('says when there is no such user', async () => {
    const seen = await h.ask('alice', 'events --user nobody', /not found/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/users/nobody/events', 'alice', { status: 404 })]);
    expect(seen.text).toContain('User nobody was not found');
  });
});

describe("the person's own events", () => {
  it('lists them when there is no project and no channel default, looking each project up once', async () => {
    const seen = await h.ask('eve', 'events', /Your events/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/events', 'eve'),
      call('GET', '/api/v4/projects/1', 'eve'),
      call('GET', '/api/v4/projects/3', 'eve'),
    ]);
    expect(lines(seen.text)).toContain('@eve opened issue demo/web#29 *Add Apple Pay to checkout*');
    expect(lines(seen.text)).toContain('@eve opened issue demo/docs#3 *Broken link to the API reference*');
    expect(seen.text).toContain(`<${h.sim.url}/demo/docs/issues/3|demo/docs#3>`);
  });

  it('names whose events they are when shared in the channel', async () => {
    const seen = await h.ask('root', 'events --share', /Events of @root/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/events', 'root')]);
    // There are none: an empty list is not posted in the channel, only its asker hears it (issue 29).
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain('No events.');
  });
});
