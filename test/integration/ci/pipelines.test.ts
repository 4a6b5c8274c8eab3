import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, confirmText, useCiBot, WEB } from './harness.js';

// Every pipeline command and every pipeline button, end to end, with the exact calls and
// what the person sees.

const h = useCiBot();

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);
const rowIds = (text: string) => [...text.matchAll(/\|#(\d+)>\* `/g)].map((m) => Number(m[1]));
const jobsOf = (i: number) => call('GET', `${WEB}/pipelines/${i}/jobs`, 'alice', { query: { per_page: '100' } });

describe('pipeline lists', () => {
  it('lists every pipeline, each row with the button its state allows', async () => {
    const seen = await h.ask('alice', 'pipelines demo/web', /Pipelines in demo\/web/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/pipelines`, 'alice')]);
    expect(rowIds(seen.text)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(labels(seen.message)).toEqual([
      'Jobs', // 11 created
      'Retry', // 10 canceled
      'Cancel', // 9 pending
      'Jobs', // 8 success
      'Cancel', // 7 running
      'Jobs', // 6 skipped
      'Retry', // 5 failed
      'Jobs', // 4 manual
      'Jobs', // 3 success
      'Retry', // 2 failed
      'Jobs', // 1 success
    ]);
    expect(seen.text).toMatch(/\|#2>\* `chore\/webpack-5` · `[0-9a-f]{8}` · failed/);
    expect(seen.text).toContain('Page 1 · 11 in all · 11 shown');
    expectWithinLimits(seen.it);
  });

  it('sends --status and --ref as they are', async () => {
    const seen = await h.ask('alice', 'pipelines demo/web --status failed --ref main', /Pipelines in/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/pipelines`, 'alice', { query: { status: 'failed', ref: 'main' } })]);
    expect(seen.text).toContain('Filters: --status failed --ref main');
    expect(rowIds(seen.text)).toEqual([5]);
  });

  it('sends --scope, --yaml-errors, --name, --username, --order-by and --sort as the API spells them', async () => {
    const seen = await h.ask(
      'alice',
      'pipelines demo/web --scope finished --yaml-errors --name "Bob Brown" --username bob --order-by ref --sort asc',
      /Pipelines in/,
    );
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/pipelines`, 'alice', {
        query: {
          scope: 'finished',
          yaml_errors: 'true',
          name: 'Bob Brown',
          username: 'bob',
          order_by: 'ref',
          sort: 'asc',
        },
      }),
    ]);
    expect(rowIds(seen.text)).toEqual([5]);

    const tags = await h.ask('alice', 'pipelines demo/web --scope tags', /Pipelines in/);
    expect(h.calls(1)).toEqual([call('GET', `${WEB}/pipelines`, 'alice', { query: { scope: 'tags' } })]);
    expect(tags.text).toContain('`v1.4.0-rc1`');
  });

  it('turns pages with Next page and keeps the filters', async () => {
    const list = await h.ask('alice', 'pipelines demo/web --scope finished --per-page 3', /Pipelines in/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/pipelines`, 'alice', { query: { scope: 'finished', per_page: '3' } }),
    ]);
    const first = rowIds(list.text);
    expect(first).toHaveLength(3);
    const next = await h.press('alice', buttonOf(list, /^Next page$/), /Page 2/);
    expect(h.calls(1)).toEqual([
      call('GET', `${WEB}/pipelines`, 'alice', { query: { page: '2', scope: 'finished', per_page: '3' } }),
    ]);
    expect(next.message.key).toBe(list.message.key);
    expect(next.text).toContain('Filters: --scope finished');
    const second = rowIds(next.text);
    expect(second).toHaveLength(3);
    expect(second.every((id) => id < Math.min(...first))).toBe(true);
  });

  it('retries from a list row and redraws the list with its filters and who retried', async () => {
    const list = await h.ask('alice', 'pipelines demo/web --status failed', /Pipelines in/);
    const click = await h.press('bob', buttonOf(list, /^Retry$/), /Retried by/);
    expect(h.calls(1)).toEqual([
      call('POST', `${WEB}/pipelines/5/retry`, 'bob', { status: 201 }),
      call('GET', `${WEB}/pipelines`, 'bob', { query: { page: '1', status: 'failed' } }),
    ]);
    expect(click.message.key).toBe(list.message.key);
    expect(click.text).toContain('Retried by <@U0BOB> · pipeline #5');
    expect(click.text).toContain('Filters: --status failed');
  });

  it('cancels from a list row after Slack confirms, and the row leaves the running list', async () => {
    const list = await h.ask('alice', 'pipelines demo/web --status running', /Pipelines in/);
    const cancel = buttonOf(list, /^Cancel$/);
    expect(confirmText(cancel)).toBe(
      'Cancel pipeline #7 (feature/search-suggestions) in demo/web? Its running jobs stop.',
    );
    const click = await h.press('alice', cancel, /Canceled by/);
    expect(h.calls(1)).toEqual([
      call('GET', `${WEB}/pipelines/7`, 'alice'),
      call('POST', `${WEB}/pipelines/7/cancel`, 'alice'),
      call('GET', `${WEB}/pipelines`, 'alice', { query: { page: '1', status: 'running' } }),
    ]);
    expect(click.text).toContain('Canceled by <@U0ALICE> · pipeline #7');
    // The row acted on left the running list: it is shown alone under its notice, with a way back to the list.
    expect(click.text).toContain('Not on page 1 of this list now.');
    expect(labels(click.message)).toContain('Back to the list');
    expect(click.text).not.toMatch(/No (jobs|pipelines) in demo\/web match|in all|shown/);
  });
});

describe('a pipeline card', () => {
  const states: [number, string, string[]][] = [
    [2, 'failed', ['Retry', 'Jobs']],
    [10, 'canceled', ['Retry', 'Jobs']],
    [7, 'running', ['Cancel', 'Jobs']],
    [9, 'pending', ['Cancel', 'Jobs']],
    [3, 'success', ['Jobs']],
    [4, 'manual', ['Jobs']],
    [11, 'created', ['Jobs']],
  ];

  it.each(states)('shows pipeline %i (%s) with only the buttons its state allows', async (id, status, buttons) => {
    const seen = await h.ask('alice', `pipeline demo/web ${id}`, new RegExp(`Pipeline #${id} `));
    // A failed pipeline's card also says why its failed job (8) failed: its trace and the project's latest runs.
    const why =
      status === 'failed'
        ? [
            call('GET', `${WEB}/jobs/8/trace`, 'alice'),
            call('GET', `${WEB}/jobs`, 'alice', {
              query: { scope: ['failed', 'success'], per_page: '100', page: '1' },
            }),
          ]
        : [];
    const calls = h.calls();
    expect(calls.slice(0, 2)).toEqual([call('GET', `${WEB}/pipelines/${id}`, 'alice'), jobsOf(id)]);
    expect(calls.slice(2)).toHaveLength(why.length);
    expect(calls.slice(2)).toEqual(expect.arrayContaining(why));
    expect(seen.text).toMatch(new RegExp(`\\*Status\\*\\n:[a-z_]+: ${status}`));
    // Beside the failed job's explaining lines, its Trace.
    const beside = status === 'failed' ? ['Trace'] : [];
    expect(labels(seen.message)).toEqual([...beside, ...buttons, 'Open in GitLab']);
    expect(buttonOf(seen, /^Open in GitLab$/).url).toBe(`${h.sim.url}/demo/web/pipelines/${id}`);
    if (buttons.includes('Cancel')) expect(confirmText(buttonOf(seen, /^Cancel$/))).toContain(`pipeline #${id}`);
    expectWithinLimits(seen.it);
  });

  it('groups its jobs by stage, each linked with its status', async () => {
    const seen = await h.ask('alice', 'pipeline demo/web 2', /Pipeline #2 /);
    const url = (id: number) => `${h.sim.url}/demo/web/-/jobs/${id}`;
    expect(seen.text).toContain(`*build*  :white_check_mark: <${url(6)}|compile>`);
    expect(seen.text).toContain(`*test*  :white_check_mark: <${url(7)}|lint>  ·  :x: <${url(8)}|unit-tests>`);
    expect(seen.text).toContain('*Ref*\n`chore/webpack-5`');
    expect(seen.text).toContain('*Triggered by*\nAlice Anders (@alice)');
  });

  it('shows the YAML errors of a pipeline that has no jobs', async () => {
    const seen = await h.ask('alice', 'pipeline demo/web 5', /Pipeline #5 /);
    expect(seen.text).toContain(':warning: *YAML errors*: jobs:unit-tests:script config should be a string');
    expect(seen.text).toContain('_No jobs._');
  });

  it('posts in the channel with --share and opens from pasted URLs', async () => {
    const shared = await h.ask('alice', 'pipeline demo/web 2 --share', /Pipeline #2 /);
    expect(shared.message).toMatchObject({ ephemeral: false, visibleTo: null });
    await h.ask('alice', `pipeline ${h.sim.url}/demo/web/-/pipelines/3`, /Pipeline #3 /);
    await h.ask('alice', `pipeline ${h.sim.url}/demo/web/pipelines/4`, /Pipeline #4 /);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/pipelines/2`, 'alice'),
      jobsOf(2),
      call('GET', `${WEB}/pipelines/3`, 'alice'),
      jobsOf(3),
      call('GET', `${WEB}/pipelines/4`, 'alice'),
      jobsOf(4),
    ]);
  });

  it("uses the channel's default project", async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0CIPIPES' });
    const from = h.calls().length;
    await h.ask('alice', 'pipeline 2', /Pipeline #2 /, { channel: 'C0CIPIPES' });
    await h.ask('alice', 'pipelines --ref main', /Pipelines in demo\/web/, { channel: 'C0CIPIPES' });
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/pipelines/2`, 'alice'),
      jobsOf(2),
      call('GET', `${WEB}/pipelines`, 'alice', { query: { ref: 'main' } }),
    ]);
  });
});

describe('pipeline actions', () => {
  it('runs a pipeline on a ref with /gl pipeline run', async () => {
    const seen = await h.ask('alice', 'pipeline run demo/web main', /Started by/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/pipeline`, 'alice', { body: { ref: 'main' }, status: 201 })]);
    const id = Number(/Pipeline #(\d+) · main/.exec(seen.text)?.[1]);
    expect(id).toBeGreaterThan(11);
    expect(seen.text).toMatch(/\*Status\*\n:large_yellow_circle: pending/);
    expect(seen.text).toContain('Started by <@U0ALICE> · on main');
    expect(labels(seen.message)).toEqual(['Cancel', 'Jobs', 'Open in GitLab']);
  });

  it('retries with /gl pipeline retry and shows the pipeline again with its jobs', async () => {
    const seen = await h.ask('alice', 'pipeline retry demo/web 2', /Retried by/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/pipelines/2/retry`, 'alice', { status: 201 }),
      call('GET', `${WEB}/pipelines/2`, 'alice'),
      jobsOf(2),
    ]);
    expect(seen.text).toContain('Retried by <@U0ALICE> · pipeline #2');
    expect(seen.text).not.toMatch(/\*Status\*\n:x: failed/);
    expect(labels(seen.message)).not.toContain('Retry');
  });

  it('lists each job once in its stage after a retry: the new job stands where the old one stood (issue 29, item 4)', async () => {
    const before = await h.ask('alice', 'pipeline demo/web 2', /Pipeline #2 /);
    const seen = await h.ask('alice', 'pipeline retry demo/web 2', /Retried by/);
    const stages = (text: string) =>
      text
        .split('\n')
        .filter((line) => /^\*[\w-]+\* {2}/.test(line))
        .map((line) => [...line.matchAll(/\|([^>]+)>/g)].map((m) => m[1]));
    expect(stages(before.text).length).toBeGreaterThan(0);
    expect(stages(seen.text)).toEqual(stages(before.text));
    for (const names of stages(seen.text)) expect(new Set(names).size).toBe(names.length);
  });

  it("retries from a shared card's button with the clicker's token, redrawing the card in place", async () => {
    const card = await h.ask('alice', 'pipeline demo/web 2 --share', /Pipeline #2 /);
    const click = await h.press('bob', buttonOf(card, /^Retry$/), /Retried by/);
    expect(h.calls(2)).toEqual([
      call('POST', `${WEB}/pipelines/2/retry`, 'bob', { status: 201 }),
      call('GET', `${WEB}/pipelines/2`, 'bob'),
      call('GET', `${WEB}/pipelines/2/jobs`, 'bob', { query: { per_page: '100' } }),
    ]);
    expect(click.message.key).toBe(card.message.key);
    expect(click.message.ephemeral).toBe(false);
    expect(click.text).toContain('Retried by <@U0BOB> · pipeline #2');
  });

  it('asks before /gl pipeline cancel, cancels on "Yes", and does nothing on "Never mind"', async () => {
    const prompt = await h.ask('alice', 'pipeline cancel demo/web 7', /Cancel pipeline #7/);
    expect(h.calls()).toEqual([]);
    expect(prompt.text).toContain('Cancel pipeline #7 in demo/web? Its running jobs stop.');
    expect(labels(prompt.message)).toEqual(['Yes, cancel pipeline #7', 'Never mind']);
    const yes = await h.press('alice', buttonOf(prompt, /^Yes, cancel pipeline #7$/), /Canceled by/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/pipelines/7`, 'alice'),
      call('POST', `${WEB}/pipelines/7/cancel`, 'alice'),
      call('GET', `${WEB}/pipelines/7`, 'alice'),
      jobsOf(7),
    ]);
    expect(yes.message.key).toBe(prompt.message.key);
    expect(yes.text).toMatch(/\*Status\*\n:no_entry_sign: canceled/);
    expect(yes.text).toContain('Canceled by <@U0ALICE> · pipeline #7');

    const again = await h.ask('alice', 'pipeline cancel demo/web 9', /Cancel pipeline #9/);
    const no = await h.click('alice', buttonOf(again, /^Never mind$/));
    expect(await no.waitFor((r) => r.kind === 'response_url' && r.body.delete_original === true)).not.toBeNull();
    expect(h.calls(4)).toEqual([]);
  });

  it("cancels from a card's Cancel button, which Slack confirms first", async () => {
    const card = await h.ask('alice', 'pipeline demo/web 9', /Pipeline #9 /);
    const cancel = buttonOf(card, /^Cancel$/);
    expect(confirmText(cancel)).toBe('Cancel pipeline #9 (feature/dark-mode) in demo/web? Its running jobs stop.');
    const click = await h.press('alice', cancel, /Canceled by/);
    expect(h.calls(2)).toEqual([
      call('GET', `${WEB}/pipelines/9`, 'alice'),
      call('POST', `${WEB}/pipelines/9/cancel`, 'alice'),
      call('GET', `${WEB}/pipelines/9`, 'alice'),
      jobsOf(9),
    ]);
    expect(click.message.key).toBe(card.message.key);
    expect(click.text).toMatch(/\*Status\*\n:no_entry_sign: canceled/);
    expect(labels(click.message)).toEqual(['Retry', 'Jobs', 'Open in GitLab']);
  });

  it("lists a pipeline's jobs from its Jobs button", async () => {
    const card = await h.ask('alice', 'pipeline demo/web 7', /Pipeline #7 /);
    const jobs = await h.press('alice', buttonOf(card, /^Jobs$/), /Jobs of pipeline #7/);
    expect(h.calls(2)).toEqual([call('GET', `${WEB}/pipelines/7/jobs`, 'alice', { query: { page: '1' } })]);
    expect(jobs.message.key).not.toBe(card.message.key);
    expect([...jobs.text.matchAll(/\|#(\d+)>\* /g)].map((m) => Number(m[1]))).toEqual([21, 22, 23]);
    expect(labels(jobs.message)).toEqual(['Retry', 'Cancel', 'Cancel']);
  });
});
