import { describe, expect, it } from 'vitest';
import { TEST_START } from '../../support/clock.js';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';

// The three issue lists (yours, a group's, a project's) with every flag, end to end: the exact calls
// in the simulator's log, whose token, and the rows the person sees.

const h = useCiBot();

let hour = 0;
/**
 * The bot remembers usernames it looked up for ten minutes: a test that counts the look-ups runs an hour of its
 * own, so what other tests looked up is never fresh.
 */
function forgetPeople() {
  hour += 1;
  h.clock.set(new Date(TEST_START.getTime() + hour * 3_600_000));
}

/** The issues of a list message, as `path#iid` (or `#iid` in a project's list), in order. */
const rows = (text: string) =>
  [...text.matchAll(/\|((?:[\w.-]+\/)*[\w.-]+)?#(\d+)>\*/g)].map((m) => `${m[1] ?? ''}#${m[2]}`);

/** What the simulator itself answers to a list query, as the rows should read. */
async function expected(person: 'alice' | 'bob', path: string, withProject: boolean): Promise<string[]> {
  const res = await h.api(person, path);
  expect(res.status).toBe(200);
  const items = (await res.json()) as { iid: number; web_url: string }[];
  return items.map((i) => {
    const project = /\/([\w.-]+\/[\w.-]+)\/issues\/\d+$/.exec(i.web_url)?.[1] ?? '?';
    return withProject ? `${project}#${i.iid}` : `#${i.iid}`;
  });
}

describe("a project's issues", () => {
  it('sends every list flag as the contract names it, people resolved to ids first', async () => {
    forgetPeople();
    const want = await expected(
      'alice',
      'projects/demo%2Fweb/issues?state=opened&labels=bug&milestone=v1.4&scope=all&author_id=3&assignee_id=2&search=the&order_by=updated_at&sort=asc&created_after=2026-02-01&created_before=2026-03-02T00:00:00Z&per_page=5',
      false,
    );
    const from = h.calls().length;
    const seen = await h.ask(
      'alice',
      'issues demo/web --state opened --labels bug --milestone v1.4 --scope all --author bob --assignee @alice --search "the" --order-by updated_at --sort asc --created-after 2026-02-01 --created-before 2026-03-02T00:00:00Z --per-page 5',
      /Issues in demo\/web/,
    );
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } }),
      call('GET', '/api/v4/users', 'alice', { query: { username: 'alice' } }),
      call('GET', `${WEB}/issues`, 'alice', {
        query: {
          state: 'opened',
          labels: 'bug',
          milestone: 'v1.4',
          scope: 'all',
          author_id: '3',
          assignee_id: '2',
          search: 'the',
          order_by: 'updated_at',
          sort: 'asc',
          created_after: '2026-02-01',
          created_before: '2026-03-02T00:00:00Z',
          per_page: '5',
        },
      }),
    ]);
    expect(want.length).toBeGreaterThan(0);
    expect(rows(seen.text)).toEqual(want);
    expect(seen.text).toContain(
      'Filters: --state opened --labels bug --milestone v1.4 --scope all --author bob --assignee alice --search the --order-by updated_at --sort asc --created-after 2026-02-01 --created-before 2026-03-02T00:00:00Z',
    );
    expect(seen.message.ephemeral).toBe(true);
    expectWithinLimits(seen.it);
  });

  it('shows one row per issue: reference, title, state, assignees and labels, with a Details button', async () => {
    const seen = await h.ask('alice', 'issues demo/web --iids 4,7,27 --state all', /Issues in demo\/web/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues`, 'alice', { query: { iids: ['4', '7', '27'], state: 'all' } }),
    ]);
    expect(rows(seen.text)).toEqual(['#27', '#7', '#4']);
    expect(seen.text).toContain(
      `:large_green_circle: *<${h.sim.url}/demo/web/issues/4|#4>* Cart total is off by one cent for some EUR prices · open · @alice · \`backend\` \`bug\``,
    );
    expect(seen.text).toContain(`*<${h.sim.url}/demo/web/issues/7|#7>* :lock: Session tokens appear in the access log`);
    expect(seen.text).toContain('· open · @alice, @bob · `ux`');
    expect(buttonsOf(seen.message).map((b) => b.text)).toEqual(['Details', 'Details', 'Details']);
    expect(seen.text).toContain('Page 1 · 3 in all · 3 shown');
  });

  it('sends --labels none as No Label, and says so in the filters', async () => {
    const seen = await h.ask('alice', 'issues demo/docs --labels none', /Issues in demo\/docs/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/projects/demo%2Fdocs/issues', 'alice', { query: { state: 'opened', labels: 'No Label' } }),
    ]);
    expect(seen.text).toContain('No issues in demo/docs match (Filters: --labels none).');
    expect(seen.text).toContain('Page 1 · 0 in all · 0 shown');
  });

  it('turns pages with Next page, keeping every filter, as whoever clicks', async () => {
    const second = await expected('bob', 'projects/demo%2Fweb/issues?state=opened&labels=bug&per_page=3&page=2', false);
    const from = h.calls().length;
    const list = await h.ask('alice', 'issues demo/web --state opened --labels bug --per-page 3 --share', /Issues in/);
    expect(list.message.ephemeral).toBe(false);
    const next = await h.press('bob', buttonOf(list, /^Next page$/), /Page 2/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues`, 'alice', { query: { state: 'opened', labels: 'bug', per_page: '3' } }),
      call('GET', `${WEB}/issues`, 'bob', { query: { state: 'opened', labels: 'bug', per_page: '3', page: '2' } }),
    ]);
    expect(next.message.key).toBe(list.message.key);
    expect(next.text).toContain('Filters: --state opened --labels bug');
    expect(rows(next.text)).toEqual(second);
    expect(next.text).toMatch(/Page 2 · \d+ in all · 3 shown/);
    expectWithinLimits(next.it);
  });

  it('asks for no more rows than a message can show', async () => {
    const seen = await h.ask('alice', 'issues demo/web --per-page 100 --state all', /Issues in/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/issues`, 'alice', { query: { per_page: '40', state: 'all' } })]);
    expect(rows(seen.text)).toHaveLength(31);
    expect(seen.text).toContain('Page 1 · 31 in all · 31 shown');
  });

  it("opens an issue's card from a row's Details button, as the person who clicks", async () => {
    const list = await h.ask('alice', 'issues demo/web --iids 4', /Issues in/);
    const card = await h.press('bob', buttonOf(list, /^Details$/), /Cart total/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues`, 'alice', { query: { iids: ['4'] } }),
      call('GET', `${WEB}/issues/4`, 'bob'),
      call('GET', `${WEB}/issues/4/time_stats`, 'bob'),
    ]);
    expect(card.message.key).not.toBe(list.message.key);
    expect(card.text).toContain(':large_green_circle: #4 · Cart total is off by one cent for some EUR prices');
  });

  it("uses the channel's default project, and a numeric project id reads as its path", async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0ISSUES' });
    const from = h.calls().length;
    const seen = await h.ask('alice', 'issues --iids 4', /Issues in demo\/web/, { channel: 'C0ISSUES' });
    const byId = await h.ask('alice', 'issues 1 --iids 4', /Issues in demo\/web/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/issues`, 'alice', { query: { iids: ['4'] } }),
      call('GET', '/api/v4/projects/1', 'alice'),
      call('GET', '/api/v4/projects/1/issues', 'alice', { query: { iids: ['4'] } }),
    ]);
    expect(rows(seen.text)).toEqual(['#4']);
    expect(rows(byId.text)).toEqual(['#4']);
  });

  it('tells eve that demo/secret is not there for her', async () => {
    const seen = await h.ask('eve', 'issues demo/secret', /not found/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/projects/demo%2Fsecret/issues', 'eve', { query: { state: 'opened' }, status: 404 }),
    ]);
    expect(seen.text).toContain('Project demo/secret was not found, or you have no access to it (404).');
  });
});

describe('what a list shows by default, its pages and an empty one', () => {
  it('shows open issues unless --state says otherwise, and says how to see the closed ones', async () => {
    const open = await h.ask('alice', 'issues demo/web', /Issues in demo\/web/);
    const all = await h.ask('alice', 'issues demo/web --state all --per-page 40', /Issues in demo\/web/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/issues`, 'alice', { query: { state: 'opened' } }),
      call('GET', `${WEB}/issues`, 'alice', { query: { state: 'all', per_page: '40' } }),
    ]);
    expect(open.text).not.toContain(':white_check_mark:');
    expect(open.text).not.toContain('· closed ·');
    expect(open.text).toContain('Open issues only: `--state all` shows the closed ones too.');
    expect(all.text).toContain('· closed ·');
    expect(all.text).not.toContain('Open issues only');
    expect(rows(all.text).length).toBeGreaterThan(rows(open.text).length);
  });

  it('turns back with Previous page, next to Next page', async () => {
    const first = await h.ask('alice', 'issues demo/web --state all --per-page 3', /Issues in/);
    expect(buttonsOf(first.message).map((b) => b.text)).not.toContain('Previous page');
    const second = await h.press('alice', buttonOf(first, /^Next page$/), /Page 2/);
    expect(
      buttonsOf(second.message)
        .map((b) => b.text)
        .slice(-2),
    ).toEqual(['Previous page', 'Next page']);
    const back = await h.press('alice', buttonOf(second, /^Previous page$/), /Page 1 /);
    expect(back.message.key).toBe(first.message.key);
    expect(rows(back.text)).toEqual(rows(first.text));
    expect(h.calls().at(-1)).toEqual(
      call('GET', `${WEB}/issues`, 'alice', { query: { state: 'all', per_page: '3', page: '1' } }),
    );
  });

  it('answers an empty --share privately instead of posting an empty list, naming the filters once', async () => {
    const seen = await h.ask('alice', 'issues demo/docs --labels none --share', /No issues/);
    expect(seen.message).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE' });
    expect(seen.text).toContain('Nothing was posted in the channel: there is nothing to share.');
    expect(seen.text.match(/--labels none/g)).toHaveLength(1);
  });
});

describe('your issues and a group’s', () => {
  it('reads GET /issues when there is no project and no channel default, each row naming its project', async () => {
    const want = await expected('alice', 'issues?state=opened', true);
    const from = h.calls().length;
    const seen = await h.ask('alice', 'issues', /Issues you created/, { channel: 'C0NODEFAULT' });
    expect(h.calls(from)).toEqual([call('GET', '/api/v4/issues', 'alice', { query: { state: 'opened' } })]);
    expect(rows(seen.text)).toEqual(want);
    expect(want.some((r) => r.startsWith('demo/secret#'))).toBe(true);
    expect(want.some((r) => r.startsWith('demo/docs#'))).toBe(true);
    expect(buttonOf(seen, /^Details$/).value).toContain('"p":"demo/');
  });

  it('titles the list by --scope, and sends it', async () => {
    const mine = await h.ask('bob', 'issues --scope assigned-to-me --state opened', /Issues assigned to you/, {
      channel: 'C0NODEFAULT',
    });
    const all = await h.ask('bob', 'issues --scope all --iids 1', /Issues you can see/, { channel: 'C0NODEFAULT' });
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/issues', 'bob', { query: { scope: 'assigned-to-me', state: 'opened' } }),
      call('GET', '/api/v4/issues', 'bob', { query: { scope: 'all', iids: ['1'] } }),
    ]);
    expect(rows(mine.text)).toEqual(await expected('bob', 'issues?scope=assigned-to-me&state=opened', true));
    expect(rows(mine.text).length).toBeGreaterThan(3);
    // bob is no member of demo/secret (private): its #1 is not among the ones he can see.
    expect(rows(all.text)).toEqual(['demo/docs#1', 'demo/web#1']);
  });

  it("reads a group's issues with --group, every row naming its project", async () => {
    const want = await expected('alice', 'groups/demo/issues?labels=documentation&state=opened', true);
    const from = h.calls().length;
    const seen = await h.ask(
      'alice',
      'issues --group demo --labels documentation --state opened',
      /Issues in group demo/,
    );
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/groups/demo/issues', 'alice', { query: { labels: 'documentation', state: 'opened' } }),
    ]);
    expect(rows(seen.text)).toEqual(want);
    expect(seen.text).toContain('Filters: --labels documentation --state opened');
    expect(want.filter((r) => r.startsWith('demo/docs#')).length).toBeGreaterThan(1);
  });

  it('refuses --created-after outside a project before any call', async () => {
    const seen = await h.ask('alice', 'issues --group demo --created-after 2026-01-01', /Only a project's issues/);
    expect(h.calls()).toEqual([]);
    expect(seen.text).toContain('`--created-after`');
    expect(seen.text).toContain('Nothing was sent.');
  });
});

describe('people in list filters', () => {
  it('takes a Slack mention of a connected person as their server account', async () => {
    forgetPeople();
    const it = await h.bot.slack.command(PEOPLE.alice, 'issues demo/web --assignee <@U0BOB|bob> --state opened', {
      escape: false,
    });
    const message = await it.waitForMessage((t) => /Issues in demo\/web/.test(t));
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } }),
      call('GET', `${WEB}/issues`, 'alice', { query: { assignee_id: '3', state: 'opened' } }),
    ]);
    expect(message?.blocks).toBeDefined();
    const text = JSON.stringify(message?.blocks);
    expect(text).toContain('Filters: --assignee @bob --state opened');
    expectWithinLimits(it);
  });

  it('says who it does not know, without listing anything', async () => {
    forgetPeople();
    const unknown = await h.ask('alice', 'issues demo/web --author zed', /no user/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/users', 'alice', { query: { username: 'zed' } })]);
    expect(unknown.text).toContain('There is no user `@zed` on');

    const it = await h.bot.slack.command(PEOPLE.alice, 'issues demo/web --author <@U0CAROL|carol>', { escape: false });
    const carol = await it.waitForMessage((t) => /has not connected/.test(t));
    expect(carol).not.toBeNull();
    expect(h.calls(1)).toEqual([]);
    expectWithinLimits(it);
  });
});
