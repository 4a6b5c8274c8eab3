import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonOf, call, useCiBot } from '../ci/harness.js';
import { headOf, headPipelineRead, labels, MR, openModal, REMOVE_SOURCE, submit } from './support.js';

// Merging from Slack, end to end: the card's Merge button opens a modal that names what will be merged and
// offers the source-branch choice; its submission merges as the person who submitted, pinned to the head
// the card showed, and redraws the card where it was. Every refusal is a sentence on the redrawn card.

const h = useCiBot();

describe('the Merge button', () => {
  it('asks in a modal what the card showed, then merges as the clicker (not the asker) and redraws the card in place', async () => {
    const sha = await headOf(h, 3);
    const from = h.calls().length;
    const shared = await h.ask('bob', 'mr demo/web!3 --share', /!3 Fix currency rounding/);
    expect(shared.message.ephemeral).toBe(false);
    expect(labels(shared)).toEqual(['Merge', 'Close', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab']);

    const modal = await openModal(h, 'alice', buttonOf(shared, /^Merge$/));
    expect(modal.view).toMatchObject({
      type: 'modal',
      title: { text: 'Merge !3' },
      submit: { text: 'Merge' },
      callback_id: 'gl:modal:mr.merge',
    });
    expect(modal.text).toContain(
      'Merge !3 *Fix currency rounding in cart totals* — `fix/currency-rounding` → `main` at `3e47ce32`?',
    );
    expect(modal.text).toContain('Only `3e47ce32` is merged: if commits were pushed after the card was drawn');
    // The merge request does not ask for its branch to go: the box starts unticked.
    const input = (modal.view.blocks as { block_id?: string; element?: Record<string, unknown> }[]).find(
      (b) => b.block_id === REMOVE_SOURCE,
    );
    expect(input?.element).toMatchObject({ type: 'checkboxes' });
    expect(input?.element?.initial_options).toBeUndefined();
    // Opening the modal asks the server nothing.
    expect(h.calls(from)).toEqual([call('GET', MR(3), 'bob'), headPipelineRead('fix/currency-rounding', 'bob')]);

    const merged = await submit(h, 'alice', modal, { [REMOVE_SOURCE]: ['remove'] }, /Merged by/);
    expect(h.calls(from + 2)).toEqual([
      call('PUT', `${MR(3)}/merge`, 'alice', { body: { sha, should_remove_source_branch: 'true' } }),
    ]);
    expect(merged.message.key).toBe(shared.message.key);
    expect(merged.message.version).toBe(2);
    const mergeCommit = (await (await h.api('alice', 'projects/demo%2Fweb/merge_requests/3')).json()) as {
      merge_commit_sha: string;
    };
    expect(merged.text).toContain(
      `Merged by <@U0ALICE> · merge commit \`${mergeCommit.merge_commit_sha.slice(0, 8)}\``,
    );
    expect(merged.text).toContain(':large_purple_circle: merged');
    expect(labels(merged)).toEqual(['Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab']);
    expect(merged.text).not.toMatch(/Merged by <@U0BOB>/);
    // The branch went, as ticked: nothing can be pushed onto it any more.
    expect(() => h.sim.push({ project: 'demo/web', branch: 'fix/currency-rounding', username: 'bob' })).toThrow(
      /does not exist/,
    );
  });

  it("redraws an ephemeral card through the click's response_url, keeping the source branch when left unticked", async () => {
    const sha = await headOf(h, 7);
    const card = await h.ask('alice', 'mr demo/web!7', /!7 Add order history page/);
    expect(card.message.ephemeral).toBe(true);
    const from = h.calls().length;
    const modal = await openModal(h, 'alice', buttonOf(card, /^Merge$/));
    const merged = await submit(h, 'alice', modal, { [REMOVE_SOURCE]: null }, /Merged by <@U0ALICE>/);
    expect(h.calls(from)).toEqual([
      call('PUT', `${MR(7)}/merge`, 'alice', { body: { sha, should_remove_source_branch: 'false' } }),
    ]);
    expect(merged.message.key).toBe(card.message.key);
    expect(merged.message.ephemeral).toBe(true);
    expect(() => h.sim.push({ project: 'demo/web', branch: 'feature/order-history', username: 'bob' })).not.toThrow();
    const answers = merged.it.records((r) => r.kind === 'response_url');
    expect(answers.map((r) => r.body.replace_original)).toEqual([true]);
    expectWithinLimits(merged.it);
  });

  it('pre-ticks the source branch choice the merge request asks for, and says when its author insisted', async () => {
    await h.ask('alice', 'mr cancel-auto-merge demo/web!2', /Automatic merge canceled by/);
    const card = await h.ask('alice', 'mr demo/web!2', /!2 Add search/);
    const modal = await openModal(h, 'alice', buttonOf(card, /^Merge$/));
    const input = (
      modal.view.blocks as { block_id?: string; hint?: { text: string }; element?: Record<string, unknown> }[]
    ).find((b) => b.block_id === REMOVE_SOURCE);
    expect(input?.element?.initial_options).toEqual([
      {
        text: { type: 'plain_text', text: 'Delete feature/search-suggestions once merged', emoji: true },
        value: 'remove',
      },
    ]);
    expect(input?.hint?.text).toContain('Its author asked for this');
  });
});

describe('a merge that is refused', () => {
  it('says new commits were pushed since the card was drawn (409) and redraws the card with the new head', async () => {
    const old = await headOf(h, 3);
    const shared = await h.ask('bob', 'mr demo/web!3 --share', /!3 Fix currency rounding/);
    const modal = await openModal(h, 'alice', buttonOf(shared, /^Merge$/));
    const { sha: pushed } = h.sim.push({ project: 'demo/web', branch: 'fix/currency-rounding', username: 'bob' });
    const from = h.calls().length;

    const stale = await submit(h, 'alice', modal, {}, /New commits were pushed/);
    expect(h.calls(from)).toEqual([
      call('PUT', `${MR(3)}/merge`, 'alice', { body: { sha: old, should_remove_source_branch: 'false' }, status: 409 }),
      call('GET', MR(3), 'alice'),
      headPipelineRead('fix/currency-rounding', 'alice'),
    ]);
    expect(stale.message.key).toBe(shared.message.key);
    expect(stale.text).toContain(
      `New commits were pushed since this card was drawn: the head is now \`${pushed.slice(0, 8)}\`, not \`${old.slice(0, 8)}\`. Here is the card as it is now; merge again if you still want to. Nothing was changed.`,
    );
    expect(stale.text).toContain(`*Head*\n\`${pushed.slice(0, 8)}\``);
    // The redrawn Merge button is pinned to the new head.
    expect(JSON.parse(buttonOf(stale, /^Merge$/).value ?? '{}')).toMatchObject({ s: pushed });
    expect((await (await h.api('alice', 'projects/demo%2Fweb/merge_requests/3')).json()) as object).toMatchObject({
      state: 'opened',
    });
  });

  it('says a merge request that now has conflicts cannot be merged (405), and offers no Merge any more', async () => {
    const shared = await h.ask('bob', 'mr demo/web!3 --share', /!3 Fix currency rounding/);
    const modal = await openModal(h, 'alice', buttonOf(shared, /^Merge$/));
    h.sim.push({ project: 'demo/web', branch: 'main', username: 'alice', files: ['src/cart/totals.ts'] });
    const from = h.calls().length;

    const stale = await submit(h, 'alice', modal, {}, /has conflicts/);
    expect(h.calls(from).map((c) => [c.method, c.path, c.status])).toEqual([
      ['PUT', `${MR(3)}/merge`, 405],
      ['GET', MR(3), 200],
      ['GET', '/api/v4/projects/demo%2Fweb/pipelines', 200],
    ]);
    expect(stale.text).toContain('It has conflicts with `main`: resolve them before merging. Nothing was changed.');
    expect(stale.text).toContain(':warning: has conflicts');
    expect(labels(stale)).toEqual(['Close', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab']);
  });

  it('says a merge request closed since the card was drawn cannot be merged (406)', async () => {
    const shared = await h.ask('alice', 'mr demo/web!7 --share', /!7 Add order history/);
    const modal = await openModal(h, 'alice', buttonOf(shared, /^Merge$/));
    expect(
      (await h.api('bob', 'projects/demo%2Fweb/merge_requests/7', { method: 'PUT', form: { state_event: 'close' } }))
        .status,
    ).toBe(200);
    const from = h.calls().length;

    const stale = await submit(h, 'alice', modal, {}, /cannot be merged/);
    expect(h.calls(from).map((c) => [c.method, c.path, c.status])).toEqual([
      ['PUT', `${MR(7)}/merge`, 406],
      ['GET', MR(7), 200],
    ]);
    expect(stale.text).toContain('It is closed, so it cannot be merged (reopen it first). Nothing was changed.');
    expect(labels(stale)).toEqual(['Reopen', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab']);
  });

  it('says someone without the right to push to the target may not merge (401), as that person, on the card', async () => {
    const sha = await headOf(h, 3);
    const shared = await h.ask('bob', 'mr demo/web!3 --share', /!3 Fix currency rounding/);
    const modal = await openModal(h, 'eve', buttonOf(shared, /^Merge$/));
    const from = h.calls().length;

    const refused = await submit(h, 'eve', modal, {}, /You may not merge/);
    expect(h.calls(from)).toEqual([
      call('PUT', `${MR(3)}/merge`, 'eve', { body: { sha, should_remove_source_branch: 'false' }, status: 401 }),
      // A 401 may mean a dead token: one plain read says it is not.
      call('GET', '/api/v4/todos', 'eve', { query: { per_page: '1' } }),
      call('GET', MR(3), 'eve'),
      headPipelineRead('fix/currency-rounding', 'eve'),
    ]);
    expect(refused.text).toContain(
      'You may not merge into `main` of this project (401): that needs the right to push to it. Nothing was changed.',
    );
    expect(refused.message.key).toBe(shared.message.key);
    expect(labels(refused)).toContain('Merge');
    expect(await h.bot.tokens.find('T0TEST', 'U0EVE')).toMatchObject({ status: 'valid' });
  });
});

describe('merge when pipeline succeeds', () => {
  it('is offered while the head pipeline runs, set as the clicker, and the simulator merges it once the pipeline passes', async () => {
    const sha = await headOf(h, 2);
    const own = await h.ask('alice', 'mr demo/web!2', /!2 Add search/);
    expect(labels(own)).toEqual(['Cancel auto-merge', 'Close', 'Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab']);
    const from = h.calls().length;
    const canceled = await h.press('alice', buttonOf(own, /^Cancel auto-merge$/), /Automatic merge canceled by/);
    expect(h.calls(from)).toEqual([
      call('PUT', `${MR(2)}/cancel_merge_when_pipeline_succeeds`, 'alice'),
      headPipelineRead('feature/search-suggestions', 'alice'),
    ]);
    expect(canceled.message.key).toBe(own.message.key);
    expect(canceled.text).toContain('Automatic merge canceled by <@U0ALICE> · !2');
    expect(labels(canceled)).toEqual([
      'Merge when pipeline succeeds',
      'Merge',
      'Close',
      'Unsubscribe',
      'Add todo',
      'Changes',
      'Open in GitLab',
    ]);

    const shared = await h.ask('alice', 'mr demo/web!2 --share', /!2 Add search/);
    const modal = await openModal(h, 'bob', buttonOf(shared, /^Merge when pipeline succeeds$/));
    expect(modal.view).toMatchObject({ submit: { text: 'Merge when it passes' } });
    expect(modal.text).toContain('at `7d9ad57d` when its pipeline succeeds?');
    expect(modal.text).toContain('If its pipeline is no longer running, GitLab merges at once.');
    const set = h.calls().length;
    const auto = await submit(h, 'bob', modal, {}, /Set to merge when the pipeline succeeds by/);
    expect(h.calls(set)).toEqual([
      call('PUT', `${MR(2)}/merge`, 'bob', {
        body: { sha, should_remove_source_branch: 'true', merge_when_pipeline_succeeds: 'true' },
      }),
      headPipelineRead('feature/search-suggestions', 'bob'),
    ]);
    expect(auto.text).toContain(
      'Set to merge when the pipeline succeeds by <@U0BOB> · at `7d9ad57d` once pipeline #7 succeeds',
    );
    expect(labels(auto)).toEqual([
      'Cancel auto-merge',
      'Close',
      'Unsubscribe',
      'Add todo',
      'Changes',
      'Open in GitLab',
    ]);

    let ticks = 0;
    for (; ticks < 20; ticks++) {
      const mr = (await (await h.api('alice', 'projects/demo%2Fweb/merge_requests/2')).json()) as { state: string };
      if (mr.state === 'merged') break;
      h.sim.tick();
    }
    expect(ticks).toBeGreaterThan(0);
    expect(ticks).toBeLessThan(20);
    const after = await h.ask('alice', 'mr demo/web!2', /!2 Add search/);
    expect(after.text).toContain(':large_purple_circle: merged');
    expect(after.text).toMatch(/:twisted_rightwards_arrows: Merged · merge commit `[0-9a-f]{8}`/);
    expect(labels(after)).toEqual(['Unsubscribe', 'Add todo', 'Changes', 'Open in GitLab']);
  });

  it('cancel on a card that is out of date says there is nothing to cancel', async () => {
    const shared = await h.ask('alice', 'mr demo/web!2 --share', /!2 Add search/);
    await h.ask('bob', 'mr cancel-auto-merge demo/web!2', /Automatic merge canceled by <@U0BOB>/);
    const from = h.calls().length;
    const stale = await h.press('alice', buttonOf(shared, /^Cancel auto-merge$/), /nothing to cancel/);
    expect(h.calls(from)).toEqual([
      call('PUT', `${MR(2)}/cancel_merge_when_pipeline_succeeds`, 'alice', { status: 406 }),
      call('GET', MR(2), 'alice'),
      headPipelineRead('feature/search-suggestions', 'alice'),
    ]);
    expect(stale.text).toContain(
      'Not set to merge when the pipeline succeeds any more, so there is nothing to cancel. Nothing was changed.',
    );
    expect(stale.message.key).toBe(shared.message.key);
  });
});
