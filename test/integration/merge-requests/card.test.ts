import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonOf, call, useCiBot } from '../ci/harness.js';
import { headPipelineRead, labels, MR } from './support.js';

// The merge request card: what it shows, the buttons its state allows, and each button acting as the
// person who clicks, redrawing the card in place with who did what (or what is true now).

const h = useCiBot();

describe('the card', () => {
  it('shows a merge request by any form of reference, with the head pipeline, sha, votes and who', async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0MRCARD' });
    const byRef = await h.ask('alice', 'mr demo/web!2', /!2 Add search/);
    const bare = await h.ask('alice', 'mr !2', /!2 Add search/, { channel: 'C0MRCARD' });
    const url = await h.ask('alice', `mr ${h.sim.url}/demo/web/-/merge_requests/2`, /!2 Add search/);
    expect(h.calls().slice(1)).toEqual(
      [1, 2, 3].flatMap(() => [call('GET', MR(2), 'alice'), headPipelineRead('feature/search-suggestions', 'alice')]),
    );
    for (const seen of [byRef, bare, url]) {
      expect(seen.text).toContain(`*<${h.sim.url}/demo/web/merge_requests/2|!2 Add search suggestions dropdown>*`);
    }
    const text = byRef.text;
    expect(text).toContain('*State*\n:large_green_circle: open');
    expect(text).toContain('*Merge status*\n:white_check_mark: can be merged');
    expect(text).toContain('*Branches*\n`feature/search-suggestions` → `main`');
    expect(text).toContain('*Head*\n`7d9ad57d`');
    expect(text).toContain('*Author*\nBob Brown (@bob)');
    expect(text).toContain('*Assignee*\nAlice Anders (@alice)');
    expect(text).toContain(`*Pipeline*\n:large_blue_circle: running <${h.sim.url}/demo/web/pipelines/7|#7>`);
    expect(text).toContain('*Milestone*\nv1.4');
    expect(text).toContain('*Labels*\nfeature, frontend');
    expect(text).toContain('*Votes*\n:thumbsup: 1 · :thumbsdown: 0');
    expect(text).toContain(':clock3: Set to merge when the pipeline succeeds.');
    expect(text).toContain('`feature/search-suggestions` is deleted once merged');
    expect(byRef.message.ephemeral).toBe(true);
    expectWithinLimits(byRef.it);
  });

  it('offers only the buttons the state allows', async () => {
    const cards: Record<number, string[]> = {};
    for (const iid of [1, 3, 4, 5, 6, 7])
      cards[iid] = labels(await h.ask('bob', `mr demo/web!${iid}`, new RegExp(`!${iid} `)));
    expect(cards).toEqual({
      1: ['Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab'],
      3: ['Merge', 'Close', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab'],
      4: ['Close', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab'],
      5: ['Reopen', 'Subscribe', 'Add todo', 'Changes', 'Open in GitLab'],
      6: ['Close', 'Subscribe', 'Add todo', 'Changes', 'Open in GitLab'],
      7: ['Merge', 'Close', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab'],
    });
    // Merged and closed merge requests have no head pipeline worth a read.
    expect(
      h
        .calls()
        .filter((c) => c.path.endsWith('/pipelines'))
        .map((c) => c.query.ref),
    ).toEqual(['fix/currency-rounding', 'chore/webpack-5', 'feature/dark-mode', 'feature/order-history']);
  });

  it('carries in its Merge button what the modal shows, pinned to the head on the card', async () => {
    const card = await h.ask('bob', 'mr demo/web!3', /!3 Fix currency/);
    const head = (await (await h.api('bob', 'projects/demo%2Fweb/merge_requests/3')).json()) as { sha: string };
    expect(JSON.parse(buttonOf(card, /^Merge$/).value ?? '{}')).toEqual({
      p: 'demo/web',
      i: 3,
      s: head.sha,
      t: 'Fix currency rounding in cart totals',
      sb: 'fix/currency-rounding',
      tb: 'main',
      r: false,
      f: false,
    });
  });
});

describe('the card buttons', () => {
  it('Close and Reopen act as the clicker and redraw in place; a card that is out of date says what is true now', async () => {
    const shared = await h.ask('alice', 'mr demo/web!7 --share', /!7 Add order history/);
    const closed = await h.press('bob', buttonOf(shared, /^Close$/), /Closed by/);
    expect(h.calls(2)).toEqual([
      call('GET', MR(7), 'bob'),
      call('PUT', MR(7), 'bob', { body: { state_event: 'close' } }),
    ]);
    expect(closed.message.key).toBe(shared.message.key);
    expect(closed.text).toContain('Closed by <@U0BOB> · !7');
    expect(closed.text).toContain('*State*\n:red_circle: closed');
    expect(labels(closed)).toEqual(['Reopen', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab']);

    const other = await h.ask('alice', 'mr demo/web!7', /!7 Add order history/);
    const reopened = await h.press('alice', buttonOf(other, /^Reopen$/), /Reopened by/);
    expect(reopened.text).toContain('Reopened by <@U0ALICE> · !7');
    const from = h.calls().length;
    const stale = await h.press('alice', buttonOf(closed, /^Reopen$/), /Already open/);
    expect(h.calls(from)).toEqual([call('GET', MR(7), 'alice'), headPipelineRead('feature/order-history', 'alice')]);
    expect(stale.text).toContain('Already open. Nothing was changed.');
  });

  it('Subscribe, Unsubscribe and Add todo act as the clicker; a 304 says it was so already', async () => {
    const shared = await h.ask('eve', 'mr demo/web!6 --share', /!6 WIP/);
    const subscribed = await h.press('bob', buttonOf(shared, /^Subscribe$/), /Subscribed by/);
    expect(h.calls(2)).toEqual([
      call('POST', `${MR(6)}/subscribe`, 'bob', { status: 201 }),
      headPipelineRead('feature/dark-mode', 'bob'),
    ]);
    expect(subscribed.text).toContain('Subscribed by <@U0BOB>');
    expect(labels(subscribed)).toContain('Unsubscribe');

    const again = await h.ask('bob', 'mr subscribe demo/web!6', /already subscribed/);
    expect(again.text).toContain('You were already subscribed. Nothing was changed.');
    const from = h.calls().length;
    const off = await h.press('bob', buttonOf(subscribed, /^Unsubscribe$/), /Unsubscribed by/);
    expect(h.calls(from)).toEqual([
      call('POST', `${MR(6)}/unsubscribe`, 'bob', { status: 201 }),
      headPipelineRead('feature/dark-mode', 'bob'),
    ]);
    expect(off.text).toContain('Unsubscribed by <@U0BOB>');

    const todo = await h.press('bob', buttonOf(off, /^Add todo$/), /Added to the todos by/);
    expect(todo.text).toContain('Added to the todos by <@U0BOB>');
    const t = h.calls().length;
    const twice = await h.press('bob', buttonOf(todo, /^Add todo$/), /already one of your todos/);
    expect(h.calls(t)).toEqual([
      call('POST', `${MR(6)}/todo`, 'bob', { status: 304 }),
      call('GET', MR(6), 'bob'),
      headPipelineRead('feature/dark-mode', 'bob'),
    ]);
    expect(twice.text).toContain('It is already one of your todos. Nothing was changed.');
  });

  it('Changes shows the changed files and the diff, to the clicker only', async () => {
    const shared = await h.ask('alice', 'mr demo/web!2 --share', /!2 Add search/);
    const changes = await h.press('eve', buttonOf(shared, /^Changes$/), /Changes of demo\/web!2/);
    expect(h.calls(2)).toEqual([call('GET', `${MR(2)}/changes`, 'eve')]);
    expect(changes.message.key).not.toBe(shared.message.key);
    expect(changes.message.ephemeral).toBe(true);
    expect(changes.message.visibleTo).toBe('U0EVE');
    expect(changes.text).toContain('*Changes of demo/web!2* · 2 files, +6 −1');
    expect(changes.text).toContain('`src/search/suggest.ts` (new) · +4 −0');
    expect(changes.text).toContain('`src/search/SearchBox.tsx` · +2 −1');
    expect(changes.text).toContain('+&lt;Suggestions items={items} /&gt;');
  });
});
