import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';
import { headPipelineRead, MR } from './support.js';

// Both merge request lists with every flag, paging that keeps the filters, and the rows' Details button.

const h = useCiBot();

const refs = (text: string) => [...text.matchAll(/\|((?:[\w/-]+)?!\d+)>\*/g)].map((m) => m[1]);

describe("a project's merge requests", () => {
  it('sends every flag as the contract names it, people as ids, and lists what matches', async () => {
    // Slack sends a mention as `<@U…|name>`, unescaped.
    const it = await h.bot.slack.command(
      PEOPLE.alice,
      'mrs demo/web --state opened --order-by updated_at --sort asc --milestone v1.4 --labels bug,backend --created-after 2026-01-01 --created-before 2026-12-31T23:59:59Z --scope all --author bob --assignee <@U0ALICE|alice> --iids 2,3 --per-page 5',
      { escape: false },
    );
    const message = await it.waitForMessage((t) => /Merge requests in demo\/web/.test(t));
    if (!message) expect.fail(`no list; the person saw: ${it.text()}`);
    const seen = { it, message, text: messageText(message) };
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } }),
      call('GET', '/api/v4/users', 'alice', { query: { username: 'alice' } }),
      call('GET', `${WEB}/merge_requests`, 'alice', {
        query: {
          state: 'opened',
          order_by: 'updated_at',
          sort: 'asc',
          milestone: 'v1.4',
          labels: 'bug,backend',
          created_after: '2026-01-01',
          created_before: '2026-12-31T23:59:59Z',
          scope: 'all',
          author_id: '3',
          assignee_id: '2',
          iids: ['2', '3'],
          per_page: '5',
        },
      }),
    ]);
    expect(refs(seen.text)).toEqual(['!3']);
    expect(seen.text).toContain('`fix/currency-rounding` → `main` · @bob → @alice · :white_check_mark: can be merged');
    expect(seen.text).toMatch(/Filters: .*--author bob .*--assignee alice/);
    expect(seen.text).toContain('Page 1 · 1 in all · 1 shown');
    expectWithinLimits(seen.it);
  });

  it('turns pages with Next page, keeping the filters, as whoever clicks', async () => {
    const list = await h.ask('alice', 'mrs demo/web --state all --per-page 3 --share', /Merge requests in demo\/web/);
    expect(refs(list.text)).toEqual(['!2', '!3', '!6']);
    expect(list.text).toContain('Page 1 · 7 in all · 3 shown');
    const next = await h.press('bob', buttonOf(list, /^Next page$/), /Page 2/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/merge_requests`, 'alice', { query: { state: 'all', per_page: '3' } }),
      call('GET', `${WEB}/merge_requests`, 'bob', { query: { state: 'all', page: '2', per_page: '3' } }),
    ]);
    expect(next.message.key).toBe(list.message.key);
    expect(next.text).toContain('Filters: --state all');
    expect(refs(next.text)).toEqual(['!7', '!4', '!1']);
  });

  it('reads the channel default, `--labels none` as no label at all, and `--view simple` as fewer fields', async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0MRLIST' });
    const none = await h.ask('alice', 'mrs --labels none', /Merge requests in demo\/web/, { channel: 'C0MRLIST' });
    const simple = await h.ask('alice', 'mrs --view simple --state merged', /Merge requests in demo\/web/, {
      channel: 'C0MRLIST',
    });
    expect(h.calls().slice(1)).toEqual([
      call('GET', `${WEB}/merge_requests`, 'alice', { query: { labels: 'No Label', state: 'opened' } }),
      call('GET', `${WEB}/merge_requests`, 'alice', { query: { view: 'simple', state: 'merged' } }),
    ]);
    expect(none.text).toContain('No merge requests in demo/web match (Filters: --labels none).');
    expect(refs(simple.text)).toEqual(['!1']);
    expect(simple.text).toContain('Redesign checkout summary · merged');
  });

  it('opens a card from a row’s Details button, as the clicker', async () => {
    const list = await h.ask('alice', 'mrs demo/web --iids 4', /Merge requests in demo\/web/);
    const card = await h.press('bob', buttonOf(list, /^Details$/), /!4 Upgrade to webpack 5/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/merge_requests`, 'alice', { query: { iids: ['4'] } }),
      call('GET', MR(4), 'bob'),
      headPipelineRead('chore/webpack-5', 'bob'),
    ]);
    expect(card.message.key).not.toBe(list.message.key);
    expect(card.text).toContain(':warning: has conflicts');
  });
});

describe("the person's merge requests everywhere (no project, no channel default)", () => {
  it('lists GET /merge_requests with the scope asked, each row naming its project', async () => {
    const mine = await h.ask('alice', 'mrs', /Merge requests you opened/);
    const assigned = await h.ask('alice', 'mrs --scope assigned-to-me --state opened', /assigned to you/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/merge_requests', 'alice', { query: { state: 'opened' } }),
      call('GET', '/api/v4/merge_requests', 'alice', { query: { scope: 'assigned-to-me', state: 'opened' } }),
    ]);
    // Open ones by default, as for issues: the closed !5 is left out, and the list says how to see it.
    expect(refs(mine.text)).toEqual(['demo/web!6', 'demo/web!7', 'demo/web!4']);
    expect(mine.text).toContain('Open merge requests only: `--state all` shows the merged and closed ones too.');
    expect(refs(assigned.text)).toEqual(['demo/web!2', 'demo/web!3']);
    const card = await h.press('alice', buttonOf(assigned, /^Details$/), /!2 Add search/);
    expect(h.calls(2)).toEqual([call('GET', MR(2), 'alice'), headPipelineRead('feature/search-suggestions', 'alice')]);
    expect(card.text).toContain(':clock3: Set to merge when the pipeline succeeds.');
  });

  it('says --iids needs a project, and an unknown author is nobody, without listing', async () => {
    const iids = await h.ask('alice', 'mrs --iids 1,2', /needs a project/);
    const nobody = await h.ask('alice', 'mrs demo/web --author nobody', /no user/);
    expect(h.calls()).toEqual([call('GET', '/api/v4/users', 'alice', { query: { username: 'nobody' } })]);
    expect(iids.text).toContain(
      '`--iids` needs a project: give `group/project` or set one with `/gl use group/project`.',
    );
    expect(nobody.text).toContain('There is no user `@nobody`');
  });
});
