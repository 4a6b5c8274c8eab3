import { beforeEach, describe, expect, it } from 'vitest';
import { buttonsOfView, messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { buttonOf, type Call, call, useCiBot, WEB } from '../ci/harness.js';
import { homeButton, openHome, openModalFromHome, pressOnHome, sectionText } from './support.js';

// The Home tab as a personal dashboard, through the whole app: what it reads (with whose token, side by side,
// once within a few seconds), what it shows from the simulator, and its buttons acting as the person and
// publishing the Home again. Every view published is checked against Slack's limits by the harness.

const h = useCiBot();

const TODOS = call('GET', '/api/v4/todos', 'alice', { query: { state: 'pending', per_page: '10' } });
const MRS = call('GET', '/api/v4/merge_requests', 'alice', {
  query: { scope: 'assigned-to-me', state: 'opened', per_page: '10' },
});
const ISSUES = call('GET', '/api/v4/issues', 'alice', {
  query: { scope: 'assigned-to-me', state: 'opened', per_page: '10' },
});
const HOME_READS = [TODOS, MRS, ISSUES];

/** The three reads of a Home, in whatever order they arrived (they run side by side). */
const sorted = (calls: Call[]) => [...calls].sort((a, b) => a.path.localeCompare(b.path));

// The Home keeps a read for a few seconds by the request clock, which every test starts at the same time: each
// test starts a minute after the last one's, so no test is served what an earlier one read.
let minutes = 0;
beforeEach(() => {
  minutes += 1;
  h.clock.advance(minutes * 60_000);
});

/** Removes one of alice's digests (the command asks first; Yes removes it), so that tests do not see each other's. */
async function removeDigest(id: number) {
  const asked = await h.ask('alice', `digest remove ${id}`, /Remove digest/);
  await h.press('alice', buttonOf(asked, new RegExp(`^Yes, remove digest #${id}$`)), /was removed by/);
}

async function simList<T>(path: string): Promise<T[]> {
  const res = await h.api('alice', path);
  expect(res.status).toBe(200);
  return (await res.json()) as T[];
}

describe("a connected person's Home", () => {
  it('shows their connection, pending todos, open merge requests and issues and digests, read with their token side by side', async () => {
    await h.ask('alice', 'digest todos --cron "30 8 * * 1-5"', /Digest #\d+/);
    const from = h.calls().length;
    const home = await openHome(h, 'alice');
    expect(sorted(h.calls(from))).toEqual(sorted(HOME_READS));

    // Connected as whom, since when (in alice's zone), where; with Disconnect.
    expect(home.text).toContain(
      `Connected to <${h.sim.url}|${h.sim.url}> as \`@alice\` since 2 Mar 2026, 11:00 Europe/Berlin`,
    );
    expect(homeButton(home, /^Disconnect$/).confirm).toBeTruthy();

    // The simulator's own answers, in its order (newest todo first), each with its button.
    const todos = await simList<{ id: number; target: { title: string } }>('todos?state=pending&per_page=10');
    const mrs = await simList<{ iid: number; title: string; merge_status: string }>(
      'merge_requests?scope=assigned-to-me&state=opened',
    );
    const issues = await simList<{ iid: number; title: string }>('issues?scope=assigned-to-me&state=opened');
    expect(todos.length).toBeGreaterThan(0);
    expect(mrs.length).toBeGreaterThan(0);
    expect(issues.length).toBeGreaterThan(0);

    const todoText = sectionText(home, 'My todos');
    const positions = todos.map((t) => todoText.indexOf(t.target.title));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    const done = buttonsOfView(home.view).filter((b) => b.text === 'Done');
    expect(done.map((b) => JSON.parse(b.value ?? '{}').t)).toEqual(todos.map((t) => t.id));
    expect(homeButton(home, /^Mark all done$/).confirm).toBeTruthy();

    const mrText = sectionText(home, 'My merge requests');
    for (const mr of mrs) expect(mrText).toContain(`demo/web!${mr.iid}`);
    // Each shows where it stands on merging; the mergeable one offers Merge, pinned to its head.
    expect(mrText).toContain(':white_check_mark: can be merged');
    // !2 is already set to merge when its pipeline succeeds: the row says so, which is why it offers no Merge.
    expect(mrText).toMatch(
      /demo\/web!2\S* Add search suggestions dropdown\n[^\n]*:clock3: merges when the pipeline succeeds/,
    );
    expect(mrText).not.toMatch(/demo\/web!3\S* [^\n]*\n[^\n]*merges when the pipeline succeeds/);
    const merge = JSON.parse(homeButton(home, /^Merge$/).value ?? '{}') as { i: number; s: string };
    const head = (await (await h.api('alice', `projects/demo%2Fweb/merge_requests/${merge.i}`)).json()) as {
      sha: string;
    };
    expect(merge.s).toBe(head.sha);

    const issueText = sectionText(home, 'My issues');
    for (const issue of issues) expect(issueText).toContain(issue.title);

    const digestText = sectionText(home, 'My digests');
    expect(digestText).toMatch(/#\d+\* pending todos/);
    expect(digestText).toContain('`30 8 * * 1-5` Europe/Berlin');
    expect(digestText).toContain('next 3 Mar 2026, 08:30 · in 21 hours');
    expect(buttonsOfView(home.view).map((b) => b.text)).toEqual(expect.arrayContaining(['Pause', 'Run now']));
    expect((home.view.blocks as unknown[]).length).toBeLessThanOrEqual(100);
    for (const d of await h.bot.bot.digests.listOwned('T0TEST', PEOPLE.alice.id)) await removeDigest(d.id);
  });

  it('is read once when opened twice within a few seconds, and read again after an action taken from it', async () => {
    const from = h.calls().length;
    const first = await openHome(h, 'alice');
    h.clock.advance(3000);
    const second = await openHome(h, 'alice');
    expect(sorted(h.calls(from))).toEqual(sorted(HOME_READS));
    expect(second.view.blocks).toEqual(first.view.blocks);

    // Done on the first todo: marked done as alice, and the Home is read again and published without it.
    const todo = homeButton(first, /^Done$/);
    const id = JSON.parse(todo.value ?? '{}').t as number;
    const afterDone = h.calls().length;
    const redrawn = await pressOnHome(h, 'alice', todo);
    const calls = h.calls(afterDone);
    expect(calls[0]).toEqual(call('POST', `/api/v4/todos/${id}/mark_as_done`, 'alice', { status: 201 }));
    expect(sorted(calls.slice(1))).toEqual(sorted(HOME_READS));
    expect(redrawn.text).toMatch(/Marked done by <@U0ALICE>/);
    const left = buttonsOfView(redrawn.view).filter((b) => b.text === 'Done');
    expect(left.map((b) => JSON.parse(b.value ?? '{}').t)).not.toContain(id);

    // Opened again a moment later: what the action read serves, nothing is read.
    const settled = h.calls().length;
    h.clock.advance(2000);
    await openHome(h, 'alice');
    expect(h.calls(settled)).toEqual([]);

    // Ten seconds on, it reads again.
    h.clock.advance(10_000);
    await openHome(h, 'alice');
    expect(sorted(h.calls(settled))).toEqual(sorted(HOME_READS));
  });

  it('merges from the Home with the card’s modal pinned to the head sha, as the clicker, and publishes the Home again', async () => {
    const home = await openHome(h, 'alice');
    const merge = homeButton(home, /^Merge$/);
    const pinned = JSON.parse(merge.value ?? '{}') as { i: number; s: string };
    const modal = await openModalFromHome(h, 'alice', merge);
    expect(modal).toMatchObject({
      type: 'modal',
      title: { text: `Merge !${pinned.i}` },
      callback_id: 'gl:modal:mr.merge',
    });
    expect(JSON.stringify(modal.blocks)).toContain(`Only \`${pinned.s.slice(0, 8)}\` is merged`);

    const from = h.calls().length;
    const submitted = await h.bot.slack.submitView(PEOPLE.alice, modal, {});
    expect(submitted.ack.status).toBe(200);
    const published = await submitted.waitFor((r) => r.method === 'views.publish' && r.ok);
    const text = JSON.stringify(published?.view);
    expect(published?.body.user_id).toBe(PEOPLE.alice.id);
    expect(h.calls(from)).toEqual(
      expect.arrayContaining([
        call('PUT', `${WEB}/merge_requests/${pinned.i}/merge`, 'alice', {
          body: { sha: pinned.s, should_remove_source_branch: 'false' },
        }),
        ...HOME_READS,
      ]),
    );
    expect(text).toContain('Merged by <@U0ALICE>');
    // Merged, it is no longer an open merge request of alice's.
    expect(
      sectionText({ ...home, view: published?.view as Record<string, unknown> }, 'My merge requests'),
    ).not.toContain(`demo/web!${pinned.i} `);
  });

  it('pauses a digest from the Home as its owner, and shows it paused with Resume', async () => {
    await h.ask('alice', 'digest todos', /Digest #\d+/);
    const home = await openHome(h, 'alice');
    const pause = homeButton(home, /^Pause$/);
    const id = JSON.parse(pause.value ?? '{}').d as number;
    const from = h.calls().length;
    const paused = await pressOnHome(h, 'alice', pause);
    expect(sorted(h.calls(from))).toEqual(sorted(HOME_READS));
    expect(paused.text).toContain(`Paused by <@U0ALICE> · digest #${id}`);
    expect(sectionText(paused, 'My digests')).toMatch(/paused by <@U0ALICE>/);
    const resume = homeButton(paused, /^Resume$/);
    const resumed = await pressOnHome(h, 'alice', resume);
    expect(resumed.text).toContain(`Resumed by <@U0ALICE> · digest #${id}`);

    // Run now: the digest reads alice's todos with her token and posts them in her DM; the Home says so.
    const run = await pressOnHome(h, 'alice', homeButton(resumed, /^Run now$/));
    expect(run.text).toMatch(/Run by <@U0ALICE> · \d+ items? posted/);
    const dm = [...h.bot.fake.messages.values()].filter((m) => m.channel === 'D0ALICE' && !m.ephemeral).at(-1);
    expect(dm?.text).toMatch(/todo/i);
    await removeDigest(id);
  });

  it('shows a card asked for from the Home on top of it, and the card’s buttons act from there too', async () => {
    const home = await openHome(h, 'alice');
    const details = homeButton(home, /^Details$/, 0);
    const { i: iid } = JSON.parse(details.value ?? '{}') as { i: number };
    const withCard = await pressOnHome(h, 'alice', details);
    const top = messageText({ blocks: (withCard.view.blocks as unknown[]).slice(0, 4) });
    expect(top).toMatch(new RegExp(`!${iid}|#${iid}`));
    const subscribe = homeButton(withCard, /^(Subscribe|Unsubscribe)$/);
    const from = h.calls().length;
    const after = await pressOnHome(h, 'alice', subscribe);
    expect(h.calls(from)[0]).toMatchObject({ method: 'POST', user: 'alice' });
    expect(after.text).toMatch(/(Subscribed|Unsubscribed) by <@U0ALICE>/);
  });

  it('marks every todo done from the Home after its confirmation', async () => {
    const home = await openHome(h, 'alice');
    const from = h.calls().length;
    const after = await pressOnHome(h, 'alice', homeButton(home, /^Mark all done$/));
    expect(h.calls(from).slice(0, 2)).toEqual([
      call('GET', '/api/v4/todos', 'alice', { query: { per_page: '1' } }),
      call('POST', '/api/v4/todos/mark_as_done', 'alice', { status: 204 }),
    ]);
    expect(after.text).toMatch(/Marked \d+ todos done/);
    expect(sectionText(after, 'My todos')).toContain('No pending todos');
  });

  it('shows a section whose read fails as one line, and the others as usual', async () => {
    // One read in three fails with a 500 (reads are not retried on 500): which one depends on arrival order.
    h.sim.setFaults({ errorRate: 1 / 3, errorStatus: 500 });
    const from = h.calls().length;
    const home = await openHome(h, 'alice');
    const calls = h.calls(from);
    const failed = calls.filter((c) => c.status === 500);
    expect(failed).toHaveLength(1);
    const title = {
      '/api/v4/todos': 'My todos',
      '/api/v4/merge_requests': 'My merge requests',
      '/api/v4/issues': 'My issues',
    }[failed[0]?.path ?? ''];
    expect(title).toBeDefined();
    for (const t of ['My todos', 'My merge requests', 'My issues']) {
      const text = sectionText(home, t);
      if (t === title) {
        expect(text).toMatch(/could not be read just now: .* answered 500\. Open this tab again to retry\./);
        expect(text.split('\n')).toHaveLength(2);
      } else {
        expect(text).not.toMatch(/could not be read/);
        expect(text.split('\n').length).toBeGreaterThan(2);
      }
    }
    expect(home.text).toContain('Connected to');

    // A read that failed is not kept: opening again reads again, and shows everything.
    h.sim.setFaults({});
    const again = h.calls().length;
    const fine = await openHome(h, 'alice');
    expect(sorted(h.calls(again))).toEqual(sorted(HOME_READS));
    expect(fine.text).not.toMatch(/could not be read/);
  });
});

describe('a full Home', () => {
  it('shows ten of each with how many more there are, inside Slack’s 100 blocks even with an answer on top', async () => {
    // Eleven more issues and merge requests assigned to alice, a todo on each issue, eleven digests.
    for (let i = 0; i < 11; i++) {
      const issue = await h.api('root', 'projects/demo%2Fweb/issues', {
        method: 'POST',
        form: { title: `Extra issue ${i}`, assignee_ids: '2' },
      });
      const iid = ((await issue.json()) as { iid: number }).iid;
      expect((await h.api('alice', `projects/demo%2Fweb/issues/${iid}/todo`, { method: 'POST' })).status).toBe(201);
      h.sim.addBranch('demo/web', `extra-${i}`);
      const mr = await h.api('root', 'projects/demo%2Fweb/merge_requests', {
        method: 'POST',
        form: { source_branch: `extra-${i}`, target_branch: 'main', title: `Extra change ${i}`, assignee_id: '2' },
      });
      expect(mr.status).toBe(201);
      await h.ask('alice', 'digest todos --here', /Digest #\d+/, { channel: `C0EXTRA${i}` });
    }
    const home = await openHome(h, 'alice');
    // How many there are, as the simulator counts them (assigning makes a todo too).
    const total = async (path: string) => Number((await h.api('alice', path)).headers.get('x-total'));
    const todos = await total('todos?state=pending&per_page=1');
    const mrs = await total('merge_requests?scope=assigned-to-me&state=opened&per_page=1');
    const issues = await total('issues?scope=assigned-to-me&state=opened&per_page=1');
    expect(Math.min(todos, mrs, issues)).toBeGreaterThan(10);
    expect(sectionText(home, 'My todos')).toContain(`And ${todos - 10} more: \`/gl todos\``);
    expect(sectionText(home, 'My merge requests')).toContain(
      `And ${mrs - 10} more: \`/gl mrs --scope assigned-to-me --state opened\``,
    );
    expect(sectionText(home, 'My issues')).toContain(
      `And ${issues - 10} more: \`/gl issues --scope assigned-to-me --state opened\``,
    );
    const digests = await h.bot.bot.digests.listOwned('T0TEST', PEOPLE.alice.id);
    expect(digests.length).toBeGreaterThan(10);
    expect(sectionText(home, 'My digests')).toContain(
      `And ${digests.length - 10} more: \`/gl digest list\` in their channels`,
    );
    expect(buttonsOfView(home.view).filter((b) => b.text === 'Done')).toHaveLength(10);
    expect(buttonsOfView(home.view).filter((b) => b.text === 'Run now')).toHaveLength(10);

    // Merged from the Home: the merge request's card on top, and still no more than 100 blocks.
    const merge = homeButton(home, /^Merge$/);
    const modal = await openModalFromHome(h, 'alice', merge);
    const submitted = await h.bot.slack.submitView(PEOPLE.alice, modal, {});
    const published = await submitted.waitFor((r) => r.method === 'views.publish');
    expect(published?.ok).toBe(true);
    expect(((published?.view?.blocks ?? []) as unknown[]).length).toBeLessThanOrEqual(100);
    expect(JSON.stringify(published?.view)).toContain('Merged by <@U0ALICE>');
    for (const d of digests) await removeDigest(d.id);
  });
});

describe('the Connect Home', () => {
  it('is all a person who is not connected sees', async () => {
    const from = h.calls().length;
    const home = await openHome(h, 'carol');
    expect(h.calls(from)).toEqual([]);
    expect(home.text).toContain("You're not connected yet");
    expect(buttonsOfView(home.view).map((b) => b.text)).toEqual(['Connect']);
    expect(home.text).not.toMatch(/My todos|My merge requests|My issues|My digests/);
  });

  it('is what a revoked token shows; connecting from it publishes the connected Home', async () => {
    h.sim.revoke('alice');
    const home = await openHome(h, 'alice');
    expect(home.text).toContain('Your token was refused');
    expect(buttonsOfView(home.view).map((b) => b.text)).toEqual(['Connect']);
    expect(home.text).not.toMatch(/My todos|My merge requests|My issues|My digests/);

    // Opened again, the stored token is known to be revoked: nothing is read.
    const from = h.calls().length;
    await openHome(h, 'alice');
    expect(h.calls(from)).toEqual([]);

    h.sim.revoke('alice', { restore: true });
    const modal = await openModalFromHome(h, 'alice', homeButton(home, /^Connect$/));
    const input = (modal.blocks as { type: string; block_id: string }[]).find((b) => b.type === 'input');
    const submitted = await h.bot.slack.submitView(PEOPLE.alice, modal, { [input?.block_id ?? '']: TOKENS.alice });
    expect(submitted.ack.json).toMatchObject({ response_action: 'update' });
    const published = await submitted.waitFor((r) => r.method === 'views.publish' && r.ok);
    expect(JSON.stringify(published?.view)).toContain('My todos');
    expect(JSON.stringify(published?.view)).toContain('as `@alice`');
  });

  it('follows Disconnect on the Home', async () => {
    const home = await openHome(h, 'bob');
    const after = await pressOnHome(h, 'bob', homeButton(home, /^Disconnect$/));
    expect(after.text).toContain('Disconnected: your token is deleted from this bot.');
    expect(buttonsOfView(after.view).map((b) => b.text)).toEqual(['Connect']);
    await h.bot.connect(PEOPLE.bob, TOKENS.bob);
  });
});
