import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, confirmText, useCiBot } from '../ci/harness.js';

// The todo list with every filter, its Done and Mark all done buttons, `todo done` and `todos done`, end to
// end: the exact calls (method, path, parameters, whose token) and what the person sees.

const h = useCiBot();

const TODOS = '/api/v4/todos';
const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);
/** The references of a list's rows, in order. */
const refs = (text: string) => [...text.matchAll(/\|(demo\/web[#!]\d+)>\*/g)].map((m) => m[1]);
/** The todo each Done button marks. */
const doneIds = (m: Parameters<typeof buttonsOf>[0]) =>
  buttonsOf(m)
    .filter((b) => b.text === 'Done')
    .map((b) => (JSON.parse(b.value ?? '{}') as { t: number }).t);

async function pendingIds(person: 'alice' | 'bob'): Promise<number[]> {
  const res = await h.api(person, 'todos');
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: number }[]).map((t) => t.id);
}

describe('the todo list', () => {
  it('shows each pending todo: what it is about (linked), why, who and when, with Done; then Mark all done', async () => {
    const seen = await h.ask('alice', 'todos', /Your todos/);
    expect(h.calls()).toEqual([call('GET', TODOS, 'alice')]);
    expect(seen.message.ephemeral).toBe(true);
    expect(refs(seen.text)).toEqual(['demo/web!3', 'demo/web!2', 'demo/web!4', 'demo/web#7', 'demo/web#4']);
    expect(doneIds(seen.message)).toEqual([2, 3, 4, 5, 1]);
    expect(seen.text).toContain(
      `*<${h.sim.url}/demo/web/merge_requests/3#note_311|demo/web!3>* Fix currency rounding in cart totals\nMentioned by @bob · 2 Mar 2026, 05:30 · 6 hours ago · id \`2\`\n_“@alice ready for review: the regression test covers the mug case from #4.”_`,
    );
    expect(seen.text).toContain(
      `*<${h.sim.url}/demo/web/issues/4|demo/web#4>* Cart total is off by one cent for some EUR prices\nAssigned to you by @bob · 24 Feb 2026, 11:00 · 6 days ago`,
    );
    expect(seen.text).toContain('Added by @alice · 1 Mar 2026, 06:00 · 1 day ago');
    expect(seen.text).toContain('Addressed to you by @bob · 27 Feb 2026, 11:00 · 3 days ago');
    expect(labels(seen.message)).toEqual(['Done', 'Done', 'Done', 'Done', 'Done', 'Mark all done']);
    expect(confirmText(buttonOf(seen, /^Mark all done$/))).toContain('including those not shown here');
    expect(seen.text).toContain('Page 1 · 5 in all · 5 shown');
    expectWithinLimits(seen.it);
  });

  it('sends every filter: --action, --author (a username), --project (a path, looked up to its id), --state, --type', async () => {
    const seen = await h.ask(
      'alice',
      'todos --action assigned --author bob --project demo/web --state pending --type Issue',
      /Your todos/,
    );
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } }),
      call('GET', '/api/v4/projects/demo%2Fweb', 'alice'),
      call('GET', TODOS, 'alice', {
        query: { action: 'assigned', author_id: '3', project_id: '1', state: 'pending', type: 'Issue' },
      }),
    ]);
    expect(refs(seen.text)).toEqual(['demo/web#4']);
    expect(seen.text).toContain(
      'Filters: --action assigned --author bob --project demo/web --state pending --type Issue',
    );
  });

  it('takes a numeric project id as it is, and says when a project path is not there', async () => {
    const byId = await h.ask('alice', 'todos --project 1 --type MergeRequest', /Your todos/);
    const missing = await h.ask('alice', 'todos --project demo/nope', /not found/);
    expect(h.calls()).toEqual([
      call('GET', TODOS, 'alice', { query: { project_id: '1', type: 'MergeRequest' } }),
      call('GET', '/api/v4/projects/demo%2Fnope', 'alice', { status: 404 }),
    ]);
    expect(refs(byId.text)).toEqual(['demo/web!3', 'demo/web!2', 'demo/web!4']);
    expect(missing.text).toContain('Project demo/nope was not found, or you have no access to it (404).');
  });

  it('lists done todos without Done or Mark all done buttons', async () => {
    const seen = await h.ask('alice', 'todos --state done', /Your todos \(done\)/);
    expect(h.calls()).toEqual([call('GET', TODOS, 'alice', { query: { state: 'done' } })]);
    expect(seen.text).toContain(`:white_check_mark: *<${h.sim.url}/demo/web/issues/15|demo/web#15>* Show delivery`);
    expect(labels(seen.message)).toEqual([]);
  });

  it('says when there is nothing to do', async () => {
    const seen = await h.ask('eve', 'todos', /Your todos/);
    expect(h.calls()).toEqual([call('GET', TODOS, 'eve')]);
    expect(seen.text).toContain('No pending todos. :tada:');
    expect(labels(seen.message)).toEqual([]);
  });

  it('turns pages with Next page, keeping the filters; only the person whose todos they are can', async () => {
    const list = await h.ask('alice', 'todos --type MergeRequest --per-page 2 --share', /Todos of @alice/);
    expect(list.message.ephemeral).toBe(false);
    expect(refs(list.text)).toEqual(['demo/web!3', 'demo/web!2']);
    expect(labels(list.message)).toEqual(['Done', 'Done', 'Mark all done', 'Next page']);

    const refused = await h.press('bob', buttonOf(list, /^Next page$/), /shows <@U0ALICE>'s todos/);
    expect(refused.message.ephemeral).toBe(true);
    expect(refused.text).toContain('To see your own, use `/gl todos`.');

    const next = await h.press('alice', buttonOf(list, /^Next page$/), /Page 2/);
    expect(h.calls()).toEqual([
      call('GET', TODOS, 'alice', { query: { type: 'MergeRequest', per_page: '2' } }),
      call('GET', TODOS, 'alice', { query: { type: 'MergeRequest', page: '2', per_page: '2' } }),
    ]);
    expect(next.message.key).toBe(list.message.key);
    expect(next.text).toContain('Filters: --type MergeRequest');
    expect(refs(next.text)).toEqual(['demo/web!4']);
    expect(labels(next.message)).toEqual(['Done', 'Mark all done', 'Previous page']);
  });
});

describe('Done', () => {
  it('marks the todo done as the clicker and redraws the list in place without it', async () => {
    const list = await h.ask('alice', 'todos', /Your todos/);
    const done = await h.press('alice', buttonOf(list, /^Done$/), /Marked done by/);
    expect(h.calls()).toEqual([
      call('GET', TODOS, 'alice'),
      call('POST', `${TODOS}/2/mark_as_done`, 'alice', { status: 201 }),
      call('GET', TODOS, 'alice', { query: { page: '1' } }),
    ]);
    expect(done.message.key).toBe(list.message.key);
    expect(done.message.version).toBe(2);
    expect(done.text).toContain(
      `:arrows_counterclockwise: Marked done by <@U0ALICE> · *<${h.sim.url}/demo/web/merge_requests/3#note_311|demo/web!3>* Fix currency rounding in cart totals`,
    );
    // The line under the title names the todo; the rows no longer hold it.
    expect(refs(done.text)).toEqual(['demo/web!3', 'demo/web!2', 'demo/web!4', 'demo/web#7', 'demo/web#4']);
    expect(doneIds(done.message)).toEqual([3, 4, 5, 1]);
    expect(done.text).toContain('Page 1 · 4 in all · 4 shown');
    expect(await pendingIds('alice')).toEqual([3, 4, 5, 1]);
    expectWithinLimits(done.it);
  });

  it('on a shared list, tells someone whose todo it is not that it is not theirs, and changes nothing', async () => {
    const list = await h.ask('alice', 'todos --share', /Todos of @alice/);
    const refused = await h.press('bob', buttonOf(list, /^Done$/), /not one of your todos/);
    expect(h.calls()).toEqual([
      call('GET', TODOS, 'alice'),
      call('POST', `${TODOS}/2/mark_as_done`, 'bob', { status: 404 }),
    ]);
    expect(refused.message.ephemeral).toBe(true);
    expect(refused.message.key).not.toBe(list.message.key);
    expect(refused.text).toContain(
      ':no_entry: That is not one of your todos (404): only the person whose todo it is can mark it done. Nothing was changed.',
    );
    expect(list.message.version).toBe(1);
    expect(await pendingIds('alice')).toEqual([2, 3, 4, 5, 1]);
  });

  it('redraws the person’s own list when the todo was done already, saying nothing was changed', async () => {
    const list = await h.ask('alice', 'todos', /Your todos/);
    expect((await h.api('alice', 'todos/2/mark_as_done', { method: 'POST' })).status).toBe(201);
    const from = h.calls().length;
    const seen = await h.press('alice', buttonOf(list, /^Done$/), /already done/);
    expect(h.calls(from)).toEqual([
      call('POST', `${TODOS}/2/mark_as_done`, 'alice', { status: 404 }),
      call('GET', TODOS, 'alice', { query: { page: '1' } }),
    ]);
    expect(seen.message.key).toBe(list.message.key);
    expect(seen.text).toContain(':hourglass: That todo was already done (or is gone). Nothing was changed.');
    expect(refs(seen.text)).toEqual(['demo/web!2', 'demo/web!4', 'demo/web#7', 'demo/web#4']);
  });
});

describe('Mark all done', () => {
  it('marks every pending todo done, redraws the list and says how many were marked', async () => {
    const list = await h.ask('alice', 'todos --type Issue', /Your todos/);
    const seen = await h.press('alice', buttonOf(list, /^Mark all done$/), /Marked all done by/);
    expect(h.calls()).toEqual([
      call('GET', TODOS, 'alice', { query: { type: 'Issue' } }),
      call('GET', TODOS, 'alice', { query: { per_page: '1' } }),
      call('POST', `${TODOS}/mark_as_done`, 'alice', { status: 204 }),
      call('GET', TODOS, 'alice', { query: { type: 'Issue', page: '1' } }),
    ]);
    expect(seen.message.key).toBe(list.message.key);
    expect(seen.text).toContain(':arrows_counterclockwise: Marked all done by <@U0ALICE> · 5 todos');
    expect(seen.text).toContain('No pending todos match (Filters: --type Issue). :tada:');
    expect(labels(seen.message)).toEqual([]);
    expect(await pendingIds('alice')).toEqual([]);
    expect(await pendingIds('bob')).toEqual([9, 8, 7]);
  });

  it('on a shared list, is refused before any call to someone whose todos it does not show', async () => {
    const list = await h.ask('alice', 'todos --share', /Todos of @alice/);
    const refused = await h.press('bob', buttonOf(list, /^Mark all done$/), /shows <@U0ALICE>'s todos/);
    expect(h.calls()).toEqual([call('GET', TODOS, 'alice')]);
    expect(refused.text).toContain('To mark all of yours done, use `/gl todos done`.');
    expect(await pendingIds('bob')).toEqual([9, 8, 7]);
  });
});

describe('todo ids', () => {
  it('shows each todo’s id in the list, and `todo done <id>` takes it', async () => {
    const list = await h.ask('alice', 'todos --type Issue', /Your todos/);
    const ids = [...list.text.matchAll(/ · id `(\d+)`/g)].map((m) => Number(m[1]));
    expect(ids).toEqual(doneIds(list.message));
    const first = ids[0] as number;
    const seen = await h.ask('alice', `todo done ${first}`, /Marked done/);
    expect(h.calls(1)).toEqual([call('POST', `${TODOS}/${first}/mark_as_done`, 'alice', { status: 201 })]);
    expect(seen.text).toContain('Marked done by <@U0ALICE>');
  });
});

describe('Mark all done on a shared list', () => {
  it('carries no Slack dialog, refuses anyone else at once, and asks its owner privately first', async () => {
    const list = await h.ask('alice', 'todos --share', /Todos of @alice/);
    const button = buttonOf(list, /^Mark all done$/);
    // Slack would show a dialog about "your" todos to whoever clicks, before the bot could refuse them.
    expect(confirmText(button)).toBeNull();
    const refused = await h.press('bob', button, /shows <@U0ALICE>'s todos/);
    expect(refused.message).toMatchObject({ ephemeral: true, visibleTo: 'U0BOB' });

    const asked = await h.press('alice', button, /Mark every pending todo of yours done/);
    expect(asked.message).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE' });
    expect(h.calls()).toEqual([call('GET', TODOS, 'alice')]);
    expect(await pendingIds('alice')).toEqual([2, 3, 4, 5, 1]);

    const from = h.calls().length;
    const yes = await h.press('alice', buttonOf(asked, /^Yes, mark all done$/), /Marked all done by/);
    expect(h.calls(from).map((c) => [c.method, c.path])).toContainEqual(['POST', `${TODOS}/mark_as_done`]);
    expect(yes.message.key).toBe(asked.message.key);
    expect(await pendingIds('alice')).toEqual([]);
  });
});

describe('typed', () => {
  it('`todo done <id>` marks one todo done', async () => {
    const seen = await h.ask('alice', 'todo done 1', /Marked done/);
    expect(h.calls()).toEqual([call('POST', `${TODOS}/1/mark_as_done`, 'alice', { status: 201 })]);
    expect(seen.text).toContain(
      `:white_check_mark: Marked done by <@U0ALICE>: *<${h.sim.url}/demo/web/issues/4|demo/web#4>* Cart total is off by one cent for some EUR prices`,
    );
    expect(await pendingIds('alice')).toEqual([2, 3, 4, 5]);
  });

  it('`todo done <id>` of someone else’s todo is refused by the server and said so', async () => {
    const seen = await h.ask('alice', 'todo done 7', /not one of your pending todos/);
    expect(h.calls()).toEqual([call('POST', `${TODOS}/7/mark_as_done`, 'alice', { status: 404 })]);
    expect(seen.text).toContain('Todo 7 is not one of your pending todos (404)');
    expect(await pendingIds('bob')).toEqual([9, 8, 7]);
  });

  it('`todos done` asks first as the button does, then marks all done and says how many; with none left it sends nothing', async () => {
    const asked = await h.ask('bob', 'todos done', /Mark every pending todo of yours done/);
    // Nothing is marked before the answer: one count, no POST.
    expect(h.calls()).toEqual([call('GET', TODOS, 'bob', { query: { per_page: '1' } })]);
    const first = await h.press('bob', buttonOf(asked, /^Yes, mark all done$/), /Marked 3 todos done/);
    const again = await h.ask('bob', 'todos done', /no pending todos/);
    expect(h.calls()).toEqual([
      call('GET', TODOS, 'bob', { query: { per_page: '1' } }),
      call('GET', TODOS, 'bob', { query: { per_page: '1' } }),
      call('POST', `${TODOS}/mark_as_done`, 'bob', { status: 204 }),
      call('GET', TODOS, 'bob', { query: { per_page: '1' } }),
    ]);
    expect(first.text).toContain(':white_check_mark: Marked 3 todos done. `/gl todos --state done` lists them.');
    expect(again.text).toContain('You have no pending todos: there was nothing to mark done.');
    expect(await pendingIds('alice')).toEqual([2, 3, 4, 5, 1]);
  });
});
