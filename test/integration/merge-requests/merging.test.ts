import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
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

    const merged = await submit(h, 'alice', modal, { [REMOVE_SOURCE]: 'remove' }, /Merged by/);
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

describe('a merge modal submitted after its click’s response_url has expired (30 minutes)', () => {
  it('updates a posted card with chat.update', async () => {
    const shared = await h.ask('bob', 'mr demo/web!3 --share', /!3 Fix currency rounding/);
    const modal = await openModal(h, 'alice', buttonOf(shared, /^Merge$/));
    h.clock.advance(31 * 60 * 1000);
    const merged = await submit(h, 'alice', modal, {}, /Merged by <@U0ALICE>/);
    expect(merged.message.key).toBe(shared.message.key);
    expect(merged.it.records().map((r) => [r.method, r.ok])).toEqual([['chat.update', true]]);
    // Shared by bob (America/New_York), merged by alice (Europe/Berlin): the card's times are the same text, drawn
    // for every reader of the channel (issue 47), not moved into the zone of whoever submitted the form.
    const opened = (text: string) => /opened (<!date\^\d+\^[^|]*\|[^>]*UTC>)/.exec(text)?.[1];
    expect(opened(shared.text)).toBeDefined();
    expect(opened(merged.text)).toBe(opened(shared.text));
  });

  it('answers an ephemeral card with a fresh ephemeral card in its channel', async () => {
    const own = await h.ask('alice', 'mr demo/web!3', /!3 Fix currency rounding/);
    const modal = await openModal(h, 'alice', buttonOf(own, /^Merge$/));
    h.clock.advance(31 * 60 * 1000);
    const merged = await submit(h, 'alice', modal, {}, /Merged by <@U0ALICE>/);
    expect(merged.message.key).not.toBe(own.message.key);
    expect(merged.message).toMatchObject({ channel: 'C0TEST', ephemeral: true, visibleTo: 'U0ALICE' });
    expect(merged.it.records().map((r) => [r.method, r.ok])).toEqual([['chat.postEphemeral', true]]);
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

  it('typed cancel-auto-merge sends PUT, and on a server that routes it as POST (405) falls back to POST', async () => {
    const canceled = await h.ask('bob', 'mr cancel-mwps demo/web!2', /Automatic merge canceled by/);
    const merged = await h.ask('bob', 'mr cancel-auto-merge demo/web!1', /nothing to cancel/);
    expect(h.calls()).toEqual([
      call('PUT', `${MR(2)}/cancel_merge_when_pipeline_succeeds`, 'bob'),
      headPipelineRead('feature/search-suggestions', 'bob'),
      // Not open: the documented PUT answers 405, so the client tries the POST 9.5 servers route.
      call('PUT', `${MR(1)}/cancel_merge_when_pipeline_succeeds`, 'bob', { status: 405 }),
      call('POST', `${MR(1)}/cancel_merge_when_pipeline_succeeds`, 'bob', { status: 201 }),
    ]);
    expect(canceled.text).toContain('Automatic merge canceled by <@U0BOB> · !2');
    expect(canceled.text).not.toContain('Set to merge when the pipeline succeeds');
    expect(merged.text).toContain(
      'Merge request demo/web!1 is not set to merge when the pipeline succeeds (406), so there is nothing to cancel.',
    );
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

describe('two merges of the same merge request at once', () => {
  it('send one merge call: the second waits for the first and shows the merged card', async () => {
    const sha = await headOf(h, 3);
    const shared = await h.ask('bob', 'mr demo/web!3 --share', /!3 Fix currency rounding/);
    const forAlice = await openModal(h, 'alice', buttonOf(shared, /^Merge$/));
    const forBob = await openModal(h, 'bob', buttonOf(shared, /^Merge$/));
    const from = h.calls().length;
    const seq = h.bot.fake.lastSeq;
    // Slow answers keep the first merge under way while the second arrives.
    h.sim.setFaults({ latencyMs: 150 });
    await Promise.all([
      h.bot.slack.submitView(PEOPLE.alice, forAlice.view, {}),
      h.bot.slack.submitView(PEOPLE.bob, forBob.view, {}),
    ]);
    const redraws = await h.bot.fake.waitFor(
      () => h.bot.fake.since(seq, (r) => r.kind === 'response_url' && r.ok).length >= 2,
      { fromSeq: seq },
    );
    expect(redraws).not.toBeNull();
    const texts = h.bot.fake
      .since(seq, (r) => r.kind === 'response_url' && r.ok)
      .map((r) => messageText({ text: String(r.body.text), blocks: r.body.blocks as unknown[] }));
    const merges = h.calls(from).filter((c) => c.path === `${MR(3)}/merge`);
    expect(merges).toHaveLength(1);
    const merger = merges[0]?.user === 'alice' ? 'U0ALICE' : 'U0BOB';
    const other = merger === 'U0ALICE' ? 'bob' : 'alice';
    expect(h.calls(from)).toEqual([
      call('PUT', `${MR(3)}/merge`, merges[0]?.user ?? '', { body: { sha, should_remove_source_branch: 'false' } }),
      call('GET', MR(3), other),
    ]);
    expect(texts.some((t) => t.includes(`Merged by <@${merger}>`))).toBe(true);
    expect(texts.some((t) => t.includes(`Already merged by <@${merger}> a moment ago. Nothing was changed.`))).toBe(
      true,
    );
    expect(h.bot.fake.messages.get(shared.message.key)?.text).toContain(': merged');
  });

  it('from a double click on the typed prompt send one merge call', async () => {
    const sha = await headOf(h, 3);
    const prompt = await h.ask('alice', 'mr merge demo/web!3', /Yes, merge !3/);
    const yes = buttonOf(prompt, /^Yes, merge !3$/);
    const from = h.calls().length;
    h.sim.setFaults({ latencyMs: 150 });
    const [first] = await Promise.all([h.click('alice', yes), h.click('alice', yes)]);
    // The same person's second click of the same button, while the first runs, is left to the first by the
    // action listener: the prompt is redrawn once, as the merged card.
    const merged = await first.waitForMessage((t) => /Merged by <@U0ALICE>/.test(t));
    expect(merged?.key).toBe(prompt.message.key);
    await h.waitForCalls((calls) => calls.length > from);
    expect(h.calls(from)).toEqual([call('PUT', `${MR(3)}/merge`, 'alice', { body: { sha } })]);
    expect(h.bot.fake.messages.get(prompt.message.key)?.version).toBe(2);
  });
});

describe('the typed merge', () => {
  it('asks first, naming what will be merged and how, then merges the head it named as whoever says yes', async () => {
    const sha = await headOf(h, 3);
    const from = h.calls().length;
    const prompt = await h.ask(
      'bob',
      'mr merge demo/web!3 --remove-source-branch --message "Round each cart line (fixes #4)"',
      /Yes, merge !3/,
    );
    expect(h.calls(from)).toEqual([call('GET', MR(3), 'bob')]);
    expect(prompt.text).toContain(
      ':warning: Merge !3 *Fix currency rounding in cart totals* — `fix/currency-rounding` → `main` at `3e47ce32`? `fix/currency-rounding` is deleted once merged. Merge commit message: “Round each cart line (fixes #4)”.',
    );
    expect(labels(prompt)).toEqual(['Yes, merge !3', 'Never mind']);

    const merged = await h.press('bob', buttonOf(prompt, /^Yes, merge !3$/), /Merged by/);
    expect(h.calls(from + 1)).toEqual([
      call('PUT', `${MR(3)}/merge`, 'bob', {
        body: { sha, should_remove_source_branch: 'true', merge_commit_message: 'Round each cart line (fixes #4)' },
      }),
    ]);
    expect(merged.message.key).toBe(prompt.message.key);
    expect(merged.text).toContain('Merged by <@U0BOB> · merge commit');
  });

  it('answers with the card and the reason, without a merge call, when the merge request cannot be merged', async () => {
    const from = h.calls().length;
    const conflicting = await h.ask('alice', 'mr merge demo/web!4', /!4 Upgrade to webpack 5/);
    const merged = await h.ask('alice', 'mr accept demo/web!1', /!1 Redesign checkout/);
    const wip = await h.ask('alice', 'mr merge demo/web!6', /!6 WIP: Dark mode/);
    const auto = await h.ask('alice', 'mr merge demo/web!2 --mwps', /!2 Add search/);
    expect(h.calls(from)).toEqual([
      call('GET', MR(4), 'alice'),
      headPipelineRead('chore/webpack-5', 'alice'),
      call('GET', MR(1), 'alice'),
      call('GET', MR(6), 'alice'),
      headPipelineRead('feature/dark-mode', 'alice'),
      call('GET', MR(2), 'alice'),
      headPipelineRead('feature/search-suggestions', 'alice'),
    ]);
    expect(conflicting.text).toContain(
      'It has conflicts with `main`: resolve them before merging. Nothing was changed.',
    );
    expect(merged.text).toContain('Already merged. Nothing was changed.');
    expect(wip.text).toContain('It is marked as work in progress: remove the WIP prefix from its title first.');
    expect(auto.text).toContain('It is already set to merge when the pipeline succeeds. Nothing was changed.');
  });

  it('takes a shortened --sha of the head, and refuses another sha or a word that is no sha without merging', async () => {
    const sha = await headOf(h, 3);
    const from = h.calls().length;
    const prompt = await h.ask('alice', `mr merge demo/web!3 --sha ${sha.slice(0, 7)}`, /Yes, merge !3/);
    expect(JSON.parse(buttonOf(prompt, /^Yes, merge/).value ?? '{}')).toEqual({ p: 'demo/web', i: 3, s: sha });
    const other = await h.ask('alice', 'mr merge demo/web!3 --sha deadbeef', /not `deadbeef`/);
    const word = await h.ask('alice', 'mr merge demo/web!3 --sha main', /takes a commit sha/);
    expect(h.calls(from)).toEqual([
      call('GET', MR(3), 'alice'),
      call('GET', MR(3), 'alice'),
      headPipelineRead('fix/currency-rounding', 'alice'),
    ]);
    expect(other.text).toContain('Its head is `3e47ce32`, not `deadbeef`');
    expect(word.text).toContain(
      '`--sha` takes a commit sha (7 to 64 hexadecimal characters), not `main`. Nothing was sent.',
    );
  });

  it('sets a merge when the pipeline succeeds, and says so when GitLab merged at once because no pipeline was running', async () => {
    const sha = await headOf(h, 7);
    const prompt = await h.ask('alice', 'mr merge demo/web!7 --when-pipeline-succeeds', /Yes, merge !7/);
    expect(prompt.text).toContain('at `8efc7d97` when its pipeline succeeds?');
    const from = h.calls().length;
    const merged = await h.press('alice', buttonOf(prompt, /^Yes, merge !7$/), /Merged by/);
    expect(h.calls(from)).toEqual([
      call('PUT', `${MR(7)}/merge`, 'alice', { body: { sha, merge_when_pipeline_succeeds: 'true' } }),
    ]);
    expect(merged.text).toMatch(
      /Merged by <@U0ALICE> · merge commit `[0-9a-f]{8}` \(at once: no pipeline of its head was running\)/,
    );
  });

  it('refuses a prompt answered after new commits were pushed (409)', async () => {
    const prompt = await h.ask('alice', 'mr merge demo/web!3', /Yes, merge !3/);
    const { sha } = h.sim.push({
      project: 'demo/web',
      branch: 'fix/currency-rounding',
      username: 'bob',
      files: ['README.md'],
    });
    const stale = await h.press('alice', buttonOf(prompt, /^Yes, merge !3$/), /New commits were pushed/);
    expect(stale.text).toContain(`the head is now \`${sha.slice(0, 8)}\``);
    expect(labels(stale)).toContain('Merge');
  });
});

describe('eve, who is no member of demo/secret', () => {
  it('is told its merge requests are not found or not hers to see, and nothing else is called', async () => {
    const from = h.calls().length;
    const card = await h.ask('eve', 'mr demo/secret!1', /not found/);
    const merge = await h.ask('eve', 'mr merge demo/secret!1', /not found/);
    const list = await h.ask('eve', 'mrs demo/secret', /not found/);
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/projects/demo%2Fsecret/merge_requests/1', 'eve', { status: 404 }),
      call('GET', '/api/v4/projects/demo%2Fsecret/merge_requests/1', 'eve', { status: 404 }),
      call('GET', '/api/v4/projects/demo%2Fsecret/merge_requests', 'eve', { query: { state: 'opened' }, status: 404 }),
    ]);
    expect(card.text).toContain('Merge request demo/secret!1 was not found, or you have no access to it (404).');
    expect(merge.text).toContain('Merge request demo/secret!1 was not found, or you have no access to it (404).');
    expect(list.text).toContain('Project demo/secret was not found, or you have no access to it (404).');
  });
});
