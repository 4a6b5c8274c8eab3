import { describe, expect, it } from 'vitest';
import { buttonOf, call, useCiBot, WEB } from '../ci/harness.js';
import { headPipelineRead, labels, MR } from './support.js';

// The merge request rows that change something, typed: create, edit, close, reopen, delete, subscribe,
// unsubscribe, todo and the five time-tracking calls. Each asserts the exact call and what the person sees.

const h = useCiBot();

describe('mr create', () => {
  it('opens a merge request with every flag, people by username, and shows its card', async () => {
    const seen = await h.ask(
      'bob',
      'mr create demo/web feature/i18n-de main "Add German translations" --description "Adds de.json" --assignee alice --labels i18n,frontend --milestone-id 3 --target-project 1 --remove-source-branch',
      /Created by/,
    );
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/users', 'bob', { query: { username: 'alice' } }),
      call('POST', `${WEB}/merge_requests`, 'bob', {
        status: 201,
        body: {
          source_branch: 'feature/i18n-de',
          target_branch: 'main',
          title: 'Add German translations',
          description: 'Adds de.json',
          assignee_id: '2',
          labels: 'i18n,frontend',
          milestone_id: '3',
          target_project_id: '1',
          remove_source_branch: 'true',
        },
      }),
      headPipelineRead('feature/i18n-de', 'bob'),
    ]);
    expect(seen.text).toContain('Created by <@U0BOB> · !8');
    expect(seen.text).toContain('!8 Add German translations');
    expect(seen.text).toContain('*Assignee*\nAlice Anders (@alice)');
    expect(seen.text).toContain('*Milestone*\nv1.5');
    expect(seen.text).toContain('*Labels*\nfrontend, i18n');
    expect(seen.text).toContain(`*Pipeline*\n:white_circle: created`);
    expect(seen.text).toContain('`feature/i18n-de` is deleted once merged');
  });

  it('says a merge request between those branches is already open (409), and names a branch that does not exist', async () => {
    const twice = await h.ask('bob', 'mr create demo/web fix/currency-rounding main "Again"', /already open/);
    const bad = await h.ask('bob', 'mr new demo/web no-such-branch main "Nothing"', /no branch or tag/);
    expect(h.calls().map((c) => [c.method, c.path, c.status])).toEqual([
      ['POST', `${WEB}/merge_requests`, 409],
      ['POST', `${WEB}/merge_requests`, 400],
    ]);
    expect(twice.text).toContain(
      'A merge request from `fix/currency-rounding` into `main` is already open (409), so no second one was made.',
    );
    expect(bad.text).toContain(
      'demo/web has no branch or tag `no-such-branch` (400), so no merge request was opened. Check the name.',
    );
    expect(bad.text).not.toContain('source_branch');
  });
});

describe('mr edit', () => {
  it('sends only the flags given (labels none takes every label off, an assignee by id) and redraws the card', async () => {
    const seen = await h.ask(
      'alice',
      'mr edit demo/web!3 --title "Round cart lines" --description "Rounds each line" --target-branch main --labels none --assignee 3 --milestone-id 2 --remove-source-branch false',
      /Updated by/,
    );
    expect(h.calls()).toEqual([
      call('PUT', MR(3), 'alice', {
        body: {
          title: 'Round cart lines',
          description: 'Rounds each line',
          target_branch: 'main',
          labels: '',
          assignee_id: '3',
          milestone_id: '2',
          remove_source_branch: 'false',
        },
      }),
      headPipelineRead('fix/currency-rounding', 'alice'),
    ]);
    expect(seen.text).toContain('Updated by <@U0ALICE> · !3');
    expect(seen.text).toContain('!3 Round cart lines');
    expect(seen.text).toContain('*Labels*\n—');
    expect(seen.text).toContain('*Assignee*\nBob Brown (@bob)');
  });

  it('redraws "deleted once merged" as the edit left it (issue 29, item 4)', async () => {
    const before = await h.ask('alice', 'mr demo/web!2', /!2 /);
    expect(before.text).toContain('`feature/search-suggestions` is deleted once merged');
    const off = await h.ask('alice', 'mr edit demo/web!2 --remove-source-branch false', /Updated by/);
    expect(off.text).not.toContain('is deleted once merged');
    const again = await h.ask('alice', 'mr demo/web!2', /!2 /);
    expect(again.text).not.toContain('is deleted once merged');
    const on = await h.ask('alice', 'mr edit demo/web!2 --remove-source-branch true', /Updated by/);
    expect(on.text).toContain('`feature/search-suggestions` is deleted once merged');
  });

  it('answers that a flag is needed, without a call', async () => {
    const seen = await h.ask('alice', 'mr edit demo/web!3', /Nothing to change/);
    expect(h.calls()).toEqual([]);
    expect(seen.text).toContain('give at least one of `--title`');
  });
});

describe('mr close, reopen and delete', () => {
  it('close and reopen look first, so closing what is closed says so instead of claiming it', async () => {
    const closed = await h.ask('bob', 'mr close demo/web!7', /Closed by/);
    const again = await h.ask('bob', 'mr close demo/web!7', /Already closed/);
    const reopened = await h.ask('bob', 'mr reopen demo/web!7', /Reopened by/);
    const merged = await h.ask('bob', 'mr close demo/web!1', /Already merged/);
    expect(h.calls()).toEqual([
      call('GET', MR(7), 'bob'),
      call('PUT', MR(7), 'bob', { body: { state_event: 'close' } }),
      call('GET', MR(7), 'bob'),
      call('GET', MR(7), 'bob'),
      call('PUT', MR(7), 'bob', { body: { state_event: 'reopen' } }),
      headPipelineRead('feature/order-history', 'bob'),
      call('GET', MR(1), 'bob'),
    ]);
    expect(closed.text).toContain('Closed by <@U0BOB> · !7');
    expect(again.text).toContain('Already closed. Nothing was changed.');
    expect(reopened.text).toContain('Reopened by <@U0BOB> · !7');
    expect(merged.text).toContain('Already merged: it can be neither closed nor reopened. Nothing was changed.');
  });

  it('refuses someone who may not close it (403) in words', async () => {
    const seen = await h.ask('eve', 'mr close demo/web!7', /may not close/);
    expect(h.calls()).toEqual([
      call('GET', MR(7), 'eve'),
      call('PUT', MR(7), 'eve', { body: { state_event: 'close' }, status: 403 }),
    ]);
    expect(seen.text).toContain(
      'You may not close merge request demo/web!7 (403): that needs the Developer role in the project, or being its author.',
    );
  });

  it('delete asks first; only an owner may, and the prompt then says it is gone', async () => {
    const prompt = await h.ask('bob', 'mr delete demo/web!5', /Yes, delete !5/);
    expect(prompt.text).toContain(
      'Delete demo/web!5 *Experiment: server-side rendering*? It is removed for good, with its discussion.',
    );
    const refused = await h.press('bob', buttonOf(prompt, /^Yes, delete !5$/), /can only be deleted/);
    expect(refused.text).toContain(
      "Merge request demo/web!5 can only be deleted by the project's owners and administrators (403).",
    );
    const own = await h.ask('alice', 'mr delete demo/web!5', /Yes, delete !5/);
    const deleted = await h.press('alice', buttonOf(own, /^Yes, delete !5$/), /was deleted/);
    expect(h.calls()).toEqual([
      call('GET', MR(5), 'bob'),
      call('DELETE', MR(5), 'bob', { status: 403 }),
      call('GET', MR(5), 'alice'),
      call('DELETE', MR(5), 'alice', { status: 204 }),
    ]);
    expect(deleted.message.key).toBe(own.message.key);
    expect(deleted.text).toContain('Merge request demo/web!5 was deleted by <@U0ALICE>.');
    expect(labels(deleted)).toEqual([]);
  });
});

describe('mr subscribe, unsubscribe and todo', () => {
  it('act as the person, and a 304 is an answer', async () => {
    const on = await h.ask('bob', 'mr watch demo/web!6', /Subscribed by/);
    const off = await h.ask('bob', 'mr unsub demo/web!6', /Unsubscribed by/);
    const notOn = await h.ask('bob', 'mr unsubscribe demo/web!6', /not subscribed/);
    const todo = await h.ask('bob', 'mr todo demo/web!6', /Added to the todos by/);
    const todoAgain = await h.ask('bob', 'mr add-todo demo/web!6', /already one of your todos/);
    const pipeline = headPipelineRead('feature/dark-mode', 'bob');
    expect(h.calls()).toEqual([
      call('POST', `${MR(6)}/subscribe`, 'bob', { status: 201 }),
      pipeline,
      call('POST', `${MR(6)}/unsubscribe`, 'bob', { status: 201 }),
      pipeline,
      call('POST', `${MR(6)}/unsubscribe`, 'bob', { status: 304 }),
      call('GET', MR(6), 'bob'),
      pipeline,
      call('POST', `${MR(6)}/todo`, 'bob', { status: 201 }),
      pipeline,
      call('POST', `${MR(6)}/todo`, 'bob', { status: 304 }),
      call('GET', MR(6), 'bob'),
      pipeline,
    ]);
    expect(on.text).toContain('Subscribed by <@U0BOB>');
    expect(off.text).toContain('Unsubscribed by <@U0BOB>');
    expect(notOn.text).toContain('You were not subscribed. Nothing was changed.');
    expect(todo.text).toContain('Added to the todos by <@U0BOB>');
    expect(todoAgain.text).toContain('It is already one of your todos. Nothing was changed.');
  });
});

describe('time tracking', () => {
  it('sets, logs, reads and clears time in GitLab’s human form, on the card issues use', async () => {
    const estimate = await h.ask('alice', 'mr estimate demo/web!3 2d', /Estimate set/);
    const spend = await h.ask('alice', 'mr spend demo/web!3 1h30m', /Time logged/);
    const less = await h.ask('alice', 'mr add-spent-time demo/web!3 -30m', /Time logged/);
    const stats = await h.ask('bob', 'mr time demo/web!3', /Time tracking of/);
    const noEstimate = await h.ask('alice', 'mr reset-estimate demo/web!3', /Estimate reset/);
    const noSpent = await h.ask('alice', 'mr reset-spent demo/web!3', /Spent time reset/);
    expect(h.calls()).toEqual([
      call('POST', `${MR(3)}/time_estimate`, 'alice', { body: { duration: '2d' } }),
      call('POST', `${MR(3)}/add_spent_time`, 'alice', { status: 201, body: { duration: '1h 30m' } }),
      call('POST', `${MR(3)}/add_spent_time`, 'alice', { status: 201, body: { duration: '-30m' } }),
      call('GET', `${MR(3)}/time_stats`, 'bob'),
      call('POST', `${MR(3)}/reset_time_estimate`, 'alice'),
      call('POST', `${MR(3)}/reset_spent_time`, 'alice'),
    ]);
    expect(estimate.text).toContain(
      `:stopwatch: *Time tracking of <${h.sim.url}/demo/web/merge_requests/3|demo/web!3>*`,
    );
    expect(estimate.text).toContain('Estimate set by <@U0ALICE> · 2d on merge request demo/web!3');
    expect(estimate.text).toContain('*Estimate*\n2d');
    expect(estimate.text).toContain('*Spent*\nnothing yet');
    expect(spend.text).toContain('Time logged by <@U0ALICE> · 1h 30m on merge request demo/web!3');
    expect(less.text).toContain('*Spent*\n1h');
    expect(stats.text).toContain('*Estimate*\n2d');
    expect(stats.text).not.toContain(' by <@');
    expect(noEstimate.text).toContain('*Estimate*\nnone');
    expect(noSpent.text).toContain('*Spent*\nnothing yet');
  });
});
