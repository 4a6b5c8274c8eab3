import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, confirmText, useCiBot, WEB } from './harness.js';

// Every job command and every job button, end to end: signed request → Bolt → simulator →
// fake Slack. Each test asserts the exact calls (method, path, parameters, whose token)
// and what the person sees.

const h = useCiBot();

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);
const rowIds = (text: string) => [...text.matchAll(/\|#(\d+)>\* /g)].map((m) => Number(m[1]));
const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

async function rawTrace(jobId: number): Promise<string> {
  const res = await h.api('alice', `projects/demo%2Fweb/jobs/${jobId}/trace`);
  expect(res.status).toBe(200);
  return (await res.text()).replace(ANSI, '');
}

describe('job lists', () => {
  it('lists the jobs of the scopes given with commas, each row with the action its state allows', async () => {
    const seen = await h.ask('alice', 'jobs demo/web --scope failed,manual', /Jobs in demo\/web/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs`, 'alice', { query: { scope: ['failed', 'manual'] } })]);
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain('Filters: --scope failed,manual');
    expect(rowIds(seen.text)).toEqual([17, 13, 8]);
    expect(seen.text).toMatch(/#8>\* unit-tests · test · `chore\/webpack-5` · failed/);
    expect(labels(seen.message)).toEqual(['Play', 'Play', 'Retry']);
    expect(seen.text).toContain('Page 1 · 3 in all · 3 shown');
    expectWithinLimits(seen.it);
  });

  it('reads a repeated --scope the same way as a comma-separated one', async () => {
    const seen = await h.ask('alice', 'jobs demo/web --scope failed --scope manual', /Jobs in demo\/web/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs`, 'alice', { query: { scope: ['failed', 'manual'] } })]);
    expect(rowIds(seen.text)).toEqual([17, 13, 8]);
  });

  it("lists one pipeline's jobs with --pipeline, scopes still applied", async () => {
    const seen = await h.ask('alice', 'jobs demo/web --pipeline 2 --scope failed', /Jobs of pipeline #2/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/pipelines/2/jobs`, 'alice', { query: { scope: ['failed'] } })]);
    expect(seen.text).toContain('Jobs of pipeline #2 in demo/web');
    expect(rowIds(seen.text)).toEqual([8]);

    const all = await h.ask('alice', 'jobs demo/web --pipeline 2', /Jobs of pipeline #2/);
    expect(h.calls(1)).toEqual([call('GET', `${WEB}/pipelines/2/jobs`, 'alice')]);
    expect(rowIds(all.text)).toEqual([6, 7, 8]);
  });

  it("opens a job's card from the Details button of a row that has no action", async () => {
    const list = await h.ask('alice', 'jobs demo/web --scope skipped', /Jobs in demo\/web/);
    expect(labels(list.message).every((l) => l === 'Details')).toBe(true);
    const card = await h.press('alice', buttonOf(list, /^Details$/), /Job #\d+ /);
    const id = rowIds(list.text)[0] as number;
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/jobs`, 'alice', { query: { scope: ['skipped'] } }),
      call('GET', `${WEB}/jobs/${id}`, 'alice'),
    ]);
    expect(card.message.key).not.toBe(list.message.key);
    expect(card.text).toMatch(new RegExp(`:fast_forward: Job #${id} · `));
  });

  it('turns pages with Next page, keeping the filters, as whoever clicks', async () => {
    const expected = await h.api('alice', 'projects/demo%2Fweb/jobs?scope[]=success&per_page=5&page=2');
    const secondPage = ((await expected.json()) as { id: number }[]).map((j) => j.id);
    const from = h.calls().length;

    const list = await h.ask('alice', 'jobs demo/web --scope success --per-page 5 --share', /Jobs in demo\/web/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/jobs`, 'alice', { query: { scope: ['success'], per_page: '5' } }),
    ]);
    expect(list.message.ephemeral).toBe(false);
    expect(list.text).toMatch(/Page 1 · \d+ in all · 5 shown/);

    const next = await h.press('bob', buttonOf(list, /^Next page$/), /Page 2/);
    expect(h.calls(from + 1)).toEqual([
      call('GET', `${WEB}/jobs`, 'bob', { query: { scope: ['success'], page: '2', per_page: '5' } }),
    ]);
    expect(next.message.key).toBe(list.message.key);
    expect(next.message.version).toBe(2);
    expect(next.text).toContain('Filters: --scope success');
    expect(rowIds(next.text)).toEqual(secondPage);
    expectWithinLimits(next.it);
  });

  it('shows every job of a long page: a page never holds more rows than a message can', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await h.api('alice', 'projects/demo%2Fweb/pipeline', { method: 'POST', form: { ref: 'main' } });
      expect(res.status).toBe(201);
    }
    const total = Number((await h.api('alice', 'projects/demo%2Fweb/jobs?per_page=1')).headers.get('x-total'));
    expect(total).toBeGreaterThan(40);
    const from = h.calls().length;

    const first = await h.ask('alice', 'jobs demo/web --per-page 100', /Jobs in demo\/web/);
    expect(first.text).toContain(`Page 1 · ${total} in all · 40 shown`);
    const next = await h.press('alice', buttonOf(first, /^Next page$/), /Page 2/);
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/jobs`, 'alice', { query: { per_page: '40' } }),
      call('GET', `${WEB}/jobs`, 'alice', { query: { page: '2', per_page: '40' } }),
    ]);
    const all = [...rowIds(first.text), ...rowIds(next.text)];
    expect(new Set(all).size).toBe(total);
  });
});

describe('a project given by its numeric id', () => {
  it('is looked up once, then reads and links as its path in titles, cards and refusals', async () => {
    const jobs = await h.ask('alice', 'jobs 1 --scope failed', /Jobs in/);
    const pipelines = await h.ask('alice', 'pipelines 1 --status failed', /Pipelines in/);
    const schedules = await h.ask('alice', 'schedules 1', /schedules in/);
    const deployments = await h.ask('alice', 'deployments 1', /Deployments in/);
    const card = await h.ask('alice', 'job 1 8', /Job #8 /);
    const hidden = await h.ask('eve', 'jobs 2', /not found/);
    expect(h.calls()).toEqual([
      call('GET', '/api/v4/projects/1', 'alice'),
      call('GET', '/api/v4/projects/1/jobs', 'alice', { query: { scope: ['failed'] } }),
      call('GET', '/api/v4/projects/1/pipelines', 'alice', { query: { status: 'failed' } }),
      call('GET', '/api/v4/projects/1/pipeline_schedules', 'alice'),
      call('GET', '/api/v4/projects/1/deployments', 'alice'),
      call('GET', '/api/v4/projects/1/jobs/8', 'alice'),
      // Why it failed: its trace (which also says it was not erased), and the project's latest finished jobs.
      expect.anything(),
      expect.anything(),
      call('GET', '/api/v4/projects/2', 'eve', { status: 404 }),
    ]);
    // Why job 8 failed, read side by side: its trace (which also says it was not erased) and the project's latest
    // finished jobs. Both are kept: the cards of job 8 below read only the job.
    expect(h.calls().slice(6, 8)).toEqual(
      expect.arrayContaining([
        call('GET', '/api/v4/projects/1/jobs/8/trace', 'alice'),
        call('GET', '/api/v4/projects/1/jobs', 'alice', {
          query: { scope: ['failed', 'success'], per_page: '100', page: '1' },
        }),
      ]),
    );
    expect(jobs.text).toContain('Jobs in demo/web\n');
    expect(pipelines.text).toContain('Pipelines in demo/web\n');
    expect(schedules.text).toContain('Pipeline schedules in demo/web\n');
    expect(deployments.text).toContain('Deployments in demo/web\n');
    expect(card.text).toContain('demo/web · created');
    expect(buttonOf(card, /^Open in GitLab$/).url).toBe(`${h.sim.url}/demo/web/-/jobs/8`);
    expect(jobs.text).toContain(`<${h.sim.url}/demo/web/-/jobs/8|#8>`);
    // Buttons carry the path: a click needs no second look-up.
    expect(JSON.parse(buttonOf(card, /^Retry$/).value ?? '{}')).toMatchObject({ p: 'demo/web', j: 8 });
    expect(hidden.text).toContain('Project 2 was not found, or you have no access to it (404).');
  });
});

describe('a job card', () => {
  const states: [number, string, string[]][] = [
    [8, 'failed', ['Retry', 'Erase', 'Trace']],
    [1, 'success', ['Retry', 'Erase', 'Keep artifacts', 'Trace']],
    [30, 'canceled', ['Retry', 'Erase', 'Trace']],
    [22, 'running', ['Cancel', 'Trace']],
    [23, 'pending', ['Cancel', 'Trace']],
    [35, 'created', ['Cancel', 'Trace']],
    [13, 'manual', ['Play', 'Trace']],
    [18, 'skipped', ['Trace']],
  ];

  it.each(states)('shows job %i (%s) with only the buttons its state allows', async (id, status, buttons) => {
    const seen = await h.ask('alice', `job demo/web ${id}`, new RegExp(`Job #${id} `));
    // A finished job without artifacts may have been erased: only a look at its trace tells. Job 8's was read by
    // the test above to say why it failed, and is kept (a finished job's trace does not change).
    const erasable = status === 'canceled';
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/jobs/${id}`, 'alice'),
      ...(erasable ? [call('GET', `${WEB}/jobs/${id}/trace`, 'alice')] : []),
    ]);
    expect(seen.text).toContain(`*Status*\n`);
    expect(seen.text).toMatch(new RegExp(`\\*Status\\*\\n:[a-z_]+: ${status}`));
    expect(labels(seen.message)).toEqual([...buttons, 'Open in GitLab']);
    expect(buttonOf(seen, /^Open in GitLab$/).url).toBe(`${h.sim.url}/demo/web/-/jobs/${id}`);
    for (const b of buttonsOf(seen.message)) {
      if (/^(Cancel|Erase)$/.test(b.text)) expect(confirmText(b)).toContain(`job #${id}`);
      else expect(b.confirm).toBeUndefined();
    }
    expectWithinLimits(seen.it);
  });

  it('names stage, ref, pipeline, commit, author, trigger, duration and the artifacts', async () => {
    const seen = await h.ask('alice', 'job demo/web 1', /Job #1 /);
    const job = (await (await h.api('alice', 'projects/demo%2Fweb/jobs/1')).json()) as {
      commit: { id: string; title: string; author_name: string };
      user: { name: string; username: string };
      artifacts_file: { filename: string; size: number };
    };
    expect(seen.text).toContain(':white_check_mark: Job #1 · compile');
    expect(seen.text).toContain('*Stage*\nbuild');
    expect(seen.text).toContain('*Ref*\n`main`');
    expect(seen.text).toContain(`*Pipeline*\n<${h.sim.url}/demo/web/pipelines/1|#1>`);
    expect(seen.text).toContain(`*Triggered by*\n${job.user.name} (@${job.user.username})`);
    expect(seen.text).toMatch(/\*Duration\*\n\d+m \d+s/);
    expect(seen.text).toContain(`\`${job.commit.id.slice(0, 8)}\` ${job.commit.title} — ${job.commit.author_name}`);
    expect(seen.text).toContain(`:package: ${job.artifacts_file.filename} (${job.artifacts_file.size} B)`);
    // 9.5 does not say when artifacts expire: the card must not claim they are kept.
    expect(seen.text).not.toMatch(/kept/);
  });

  it('lets Open in GitLab only open its link: acknowledged, nothing called, nothing posted', async () => {
    const card = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    const drawn = h.calls().length;
    const click = await h.click('alice', buttonOf(card, /^Open in GitLab$/));
    expect(click.ack.status).toBe(200);
    await h.ask('alice', 'job demo/web 13', /Job #13 /);
    expect(click.records((r) => r.kind === 'response_url' && r.body.text !== undefined)).toHaveLength(1);
    expect(h.calls(drawn)).toEqual([call('GET', `${WEB}/jobs/13`, 'alice')]);
  });

  it('posts in the channel for everyone with --share', async () => {
    const seen = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    // Job 8's trace was read for its first card and is kept: it also said the job was not erased.
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8`, 'alice')]);
    expect(seen.message).toMatchObject({ ephemeral: false, visibleTo: null, channel: 'C0TEST' });
  });

  it('opens from a pasted job URL, with or without /-/', async () => {
    const a = await h.ask('alice', `job ${h.sim.url}/demo/web/-/jobs/8`, /Job #8 /);
    const b = await h.ask('alice', `job ${h.sim.url}/demo/web/jobs/13`, /Job #13 /);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8`, 'alice'), call('GET', `${WEB}/jobs/13`, 'alice')]);
    expect(a.text).toContain('unit-tests');
    expect(b.text).toContain('deploy:production');
  });

  it("uses the channel's default project when the command names none", async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0CIJOBS' });
    const from = h.calls().length;
    await h.ask('alice', 'job 8', /Job #8 /, { channel: 'C0CIJOBS' });
    await h.ask('alice', 'jobs --scope manual', /Jobs in demo\/web/, { channel: 'C0CIJOBS' });
    await h.ask('alice', 'job trace 8 --lines 3', /Trace of job #8/, { channel: 'C0CIJOBS' });
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/jobs/8`, 'alice'),
      call('GET', `${WEB}/jobs`, 'alice', { query: { scope: ['manual'] } }),
      call('GET', `${WEB}/jobs/8/trace`, 'alice'),
    ]);

    const which = await h.ask('alice', 'job 8', /Which project\?/, { channel: 'C0NODEFAULT' });
    expect(which.text).toContain('/gl use group/project');
    expect(h.calls(from + 3)).toEqual([]);
  });
});

describe('job actions', () => {
  it('retries a job with /gl job retry and shows the new job with who retried it', async () => {
    const seen = await h.ask('alice', 'job retry demo/web 8', /Retried by/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/jobs/8/retry`, 'alice', { status: 201 })]);
    const newId = Number(/new job #(\d+) replaces #8/.exec(seen.text)?.[1]);
    expect(newId).toBeGreaterThan(8);
    expect(seen.text).toContain(`Job #${newId} · unit-tests`);
    expect(seen.text).toMatch(/\*Status\*\n:large_yellow_circle: pending/);
    expect(seen.text).toContain(`Retried by <@U0ALICE> · new job #${newId} replaces #8`);
    expect(labels(seen.message)).toEqual(['Cancel', 'Trace', 'Open in GitLab']);
    // Made a moment ago on the server, whose clock may run a little ahead of the bot's.
    expect(seen.text).toContain('demo/web · created 2 Mar 2026, 11:00 · just now');
  });

  it("runs a card's Retry with the token of whoever clicks and redraws the shared card in place", async () => {
    const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    const drawn = h.calls().length;
    const click = await h.press('bob', buttonOf(card, /^Retry$/), /Retried by/);
    expect(h.calls(drawn)).toEqual([call('POST', `${WEB}/jobs/8/retry`, 'bob', { status: 201 })]);
    expect(click.message.key).toBe(card.message.key);
    expect(click.message).toMatchObject({ ephemeral: false, version: 2 });
    expect(click.it.messages()).toHaveLength(1);
    expect(click.text).toContain('Retried by <@U0BOB>');
    expect(click.text).toContain('*Triggered by*\nBob Brown (@bob)');
    expect(click.text).toMatch(/\*Status\*\n:large_yellow_circle: pending/);
    expectWithinLimits(click.it);
  });

  it("cancels from a card's Cancel button (after Slack's confirmation) and shows the job canceled", async () => {
    const card = await h.ask('alice', 'job demo/web 22', /Job #22 /);
    const cancel = buttonOf(card, /^Cancel$/);
    expect(confirmText(cancel)).toBe('Cancel job #22 (lint) in demo/web? It stops where it is.');
    const click = await h.press('alice', cancel, /Canceled by/);
    // Canceling what already stopped would succeed without doing anything: the click looks first.
    expect(h.calls(1)).toEqual([
      call('GET', `${WEB}/jobs/22`, 'alice'),
      call('POST', `${WEB}/jobs/22/cancel`, 'alice', { status: 201 }),
    ]);
    expect(click.message.key).toBe(card.message.key);
    expect(click.text).toMatch(/\*Status\*\n:no_entry_sign: canceled/);
    expect(click.text).toContain('Canceled by <@U0ALICE> · job #22');
    expect(labels(click.message)).toEqual(['Retry', 'Erase', 'Trace', 'Open in GitLab']);
  });

  it('asks before /gl job cancel, then cancels on "Yes" and turns the question into the card', async () => {
    const prompt = await h.ask('alice', 'job cancel demo/web 22', /Cancel job #22/);
    expect(h.calls()).toEqual([]);
    expect(prompt.text).toContain('Cancel job #22 in demo/web? It stops where it is.');
    expect(labels(prompt.message)).toEqual(['Yes, cancel job #22', 'Never mind']);
    const yes = await h.press('alice', buttonOf(prompt, /^Yes, cancel/), /Canceled by/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/jobs/22`, 'alice'),
      call('POST', `${WEB}/jobs/22/cancel`, 'alice', { status: 201 }),
    ]);
    expect(yes.message.key).toBe(prompt.message.key);
    expect(yes.text).toMatch(/\*Status\*\n:no_entry_sign: canceled/);
  });

  it('removes the question on "Never mind" and calls nothing', async () => {
    const prompt = await h.ask('alice', 'job cancel demo/web 23', /Cancel job #23/);
    const click = await h.click('alice', buttonOf(prompt, /^Never mind$/));
    const removed = await click.waitFor((r) => r.kind === 'response_url' && r.body.delete_original === true);
    expect(removed?.ok).toBe(true);
    expect(h.bot.fake.messages.get(prompt.message.key)?.deleted).toBe(true);
    expect(h.calls()).toEqual([]);
  });

  it('plays a manual job with /gl job play and with the card button', async () => {
    const typed = await h.ask('alice', 'job play demo/web 13', /Started by/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/jobs/13/play`, 'alice')]);
    expect(typed.text).toMatch(/\*Status\*\n:large_yellow_circle: pending/);
    expect(typed.text).toContain('Started by <@U0ALICE> · job #13');
    expect(labels(typed.message)).toEqual(['Cancel', 'Trace', 'Open in GitLab']);

    const card = await h.ask('bob', 'job demo/web 17', /Job #17 /);
    const click = await h.press('bob', buttonOf(card, /^Play$/), /Started by/);
    expect(h.calls(1)).toEqual([call('GET', `${WEB}/jobs/17`, 'bob'), call('POST', `${WEB}/jobs/17/play`, 'bob')]);
    expect(click.message.key).toBe(card.message.key);
    expect(click.text).toContain('Started by <@U0BOB> · job #17');
  });

  it('asks before /gl job erase, then erases and shows the job without what was erased', async () => {
    const prompt = await h.ask('alice', 'job erase demo/web 1', /Erase job #1/);
    expect(h.calls()).toEqual([]);
    expect(prompt.text).toContain('Erase job #1 in demo/web? Its trace and artifacts are deleted for good.');
    const yes = await h.press('alice', buttonOf(prompt, /^Yes, erase job #1$/), /Erased by/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/jobs/1/erase`, 'alice', { status: 201 })]);
    expect(yes.text).toContain('Erased by <@U0ALICE> · job #1');
    expect(yes.text).not.toContain(':package:');
    // Erased: nothing left to erase, keep or read.
    expect(labels(yes.message)).toEqual(['Retry', 'Open in GitLab']);
  });

  it("erases from a card's Erase button, which Slack confirms first", async () => {
    const card = await h.ask('bob', 'job demo/web 8', /Job #8 /);
    const erase = buttonOf(card, /^Erase$/);
    expect(confirmText(erase)).toBe(
      'Erase job #8 (unit-tests) in demo/web? Its trace and artifacts are deleted for good.',
    );
    const drawn = h.calls().length;
    const click = await h.press('bob', erase, /Erased by/);
    expect(h.calls(drawn)).toEqual([call('POST', `${WEB}/jobs/8/erase`, 'bob', { status: 201 })]);
    expect(click.text).toContain('Erased by <@U0BOB> · job #8');
    expect(labels(click.message)).not.toContain('Erase');
  });

  it('keeps artifacts with /gl job keep and with the card button', async () => {
    const typed = await h.ask('alice', 'job keep demo/web 1', /Artifacts kept by/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/jobs/1/artifacts/keep`, 'alice')]);
    expect(typed.text).toContain('Artifacts kept by <@U0ALICE> · job #1');
    expect(typed.text).toMatch(/:package: artifacts\.zip \(\d+ B\), kept/);

    const card = await h.ask('bob', 'job demo/web 9', /Job #9 /);
    const click = await h.press('bob', buttonOf(card, /^Keep artifacts$/), /Artifacts kept by/);
    expect(h.calls(1)).toEqual([
      call('GET', `${WEB}/jobs/9`, 'bob'),
      call('POST', `${WEB}/jobs/9/artifacts/keep`, 'bob'),
    ]);
    expect(click.message.key).toBe(card.message.key);
    expect(click.text).toContain('Artifacts kept by <@U0BOB> · job #9');
  });

  it('acts on a list row and redraws the list, filters kept, with who did what', async () => {
    const list = await h.ask('alice', 'jobs demo/web --scope failed,manual', /Jobs in demo\/web/);
    const retry = await h.press('alice', buttonOf(list, /^Retry$/), /Retried by/);
    expect(h.calls(1)).toEqual([
      call('POST', `${WEB}/jobs/8/retry`, 'alice', { status: 201 }),
      call('GET', `${WEB}/jobs`, 'alice', { query: { page: '1', scope: ['failed', 'manual'] } }),
    ]);
    expect(retry.message.key).toBe(list.message.key);
    expect(retry.text).toMatch(/Retried by <@U0ALICE> · new job #\d+ replaces #8/);
    // The replacement is pending, so the page of failed and manual jobs does not have it: the list gives way to it,
    // as it is now, with a way back (issue 47: never a row on top of a page whose counts leave it out).
    const replacement = Number(/new job #(\d+)/.exec(retry.text)?.[1]);
    expect(rowIds(retry.text)).toEqual([replacement]);
    expect(retry.text).toMatch(new RegExp(`#${replacement}\\S* unit-tests .* pending`));
    expect(retry.text).not.toMatch(/in all|shown/);

    const back = await h.press('alice', buttonOf(retry, /^Back to the list$/), /Jobs in demo\/web/);
    expect(h.calls(3)).toEqual([
      call('GET', `${WEB}/jobs`, 'alice', { query: { page: '1', scope: ['failed', 'manual'] } }),
    ]);
    // The retried job stays in the list as it is (failed), filters kept, counts as the rows.
    expect(back.text).toContain('Filters: --scope failed,manual');
    expect(rowIds(back.text)).toEqual([17, 13, 8]);
    expect(back.text).toContain('Page 1 · 3 in all · 3 shown');

    const play = await h.press('alice', buttonOf(back, /^Play$/), /Started by/);
    expect(h.calls(4)).toEqual([
      call('POST', `${WEB}/jobs/17/play`, 'alice'),
      call('GET', `${WEB}/jobs`, 'alice', { query: { page: '1', scope: ['failed', 'manual'] } }),
    ]);
    expect(play.text).toContain('Started by <@U0ALICE> · job #17');
    // The played job no longer matches the filter: it is shown alone, as it is now.
    expect(rowIds(play.text)).toEqual([17]);
    expect(play.text).toMatch(/#17\S* release .* pending/);

    const running = await h.ask('alice', 'jobs demo/web --scope running', /Jobs in demo\/web/);
    const cancel = buttonOf(running, /^Cancel$/);
    expect(confirmText(cancel)).toContain('Cancel job #22 (lint) in demo/web?');
    const canceled = await h.press('alice', cancel, /Canceled by/);
    expect(h.calls(7)).toEqual([
      call('GET', `${WEB}/jobs/22`, 'alice'),
      call('POST', `${WEB}/jobs/22/cancel`, 'alice', { status: 201 }),
      call('GET', `${WEB}/jobs`, 'alice', { query: { page: '1', scope: ['running'] } }),
    ]);
    // The row acted on left the running list: it is shown alone under its notice, not above an empty page.
    expect(rowIds(canceled.text)).toEqual([22]);
    expect(canceled.text).toContain('Not on page 1 of this list now.');
    expect(canceled.text).not.toMatch(/No (jobs|pipelines) in demo\/web match/);
  });
});

describe('traces and artifacts', () => {
  it('shows the last 40 lines of a trace by default, as a code block', async () => {
    const lines = (await rawTrace(8)).replace(/\n+$/, '').split('\n');
    h.sim.reset();
    const seen = await h.ask('alice', 'job trace demo/web 8', /Trace of job #8/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8/trace`, 'alice')]);
    expect(seen.text).toContain(`*Trace of job #8 in demo/web* · last 40 of ${lines.length} lines`);
    expect(seen.text).toContain(`\`\`\`${esc(lines.slice(-40).join('\n'))}\`\`\``);
    expect(seen.text).toContain('`/gl job trace demo/web 8 --full`');
  });

  it('shows as many last lines as --lines asks', async () => {
    const lines = (await rawTrace(8)).replace(/\n+$/, '').split('\n');
    h.sim.reset();
    const seen = await h.ask('alice', 'job trace demo/web 8 --lines 5', /Trace of job #8/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8/trace`, 'alice')]);
    expect(seen.text).toContain(`last 5 of ${lines.length} lines`);
    expect(seen.text).toContain(`\`\`\`${esc(lines.slice(-5).join('\n'))}\`\`\``);
  });

  it("answers a card's Trace button with the trace, leaving the card as it was", async () => {
    const card = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    const trace = await h.press('alice', buttonOf(card, /^Trace$/), /Trace of job #8/);
    expect(h.calls(2)).toEqual([call('GET', `${WEB}/jobs/8/trace`, 'alice')]);
    expect(trace.message.key).not.toBe(card.message.key);
    expect(trace.text).toContain('ERROR: Job failed: exit code 1');
    expect(h.bot.fake.messages.get(card.message.key)?.version).toBe(1);
  });

  it('uploads the whole trace as a file into a direct message with --full', async () => {
    const whole = await rawTrace(8);
    const lines = whole.replace(/\n+$/, '').split('\n').length;
    h.sim.reset();
    const seen = await h.ask('alice', 'job trace demo/web 8 --full', /whole trace/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8/trace`, 'alice')]);
    const asked = seen.it.records((r) => r.method === 'files.getUploadURLExternal');
    expect(asked.map((r) => r.body.filename)).toEqual(['job-8-trace.log']);
    const done = seen.it.records((r) => r.method === 'files.completeUploadExternal');
    expect(done).toHaveLength(1);
    const [upload] = done as [(typeof done)[number]];
    expect(upload.body.channel_id).toBe('D0ALICE');
    const fileId = (upload.body.files as [{ id: string }])[0].id;
    expect(h.bot.fake.files.get(fileId)?.content).toBe(whole);
    expect(seen.text).toContain(
      `The whole trace of job #8 in demo/web (${lines} lines) is uploaded in a direct message.`,
    );
    expect(seen.message.ephemeral).toBe(true);
  });

  it('uploads the whole trace into the channel with --full --share', async () => {
    const seen = await h.ask('alice', 'job trace demo/web 8 --full --share', /whole trace/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8/trace`, 'alice')]);
    const done = seen.it.records((r) => r.method === 'files.completeUploadExternal');
    expect(done.map((r) => r.body.channel_id)).toEqual(['C0TEST']);
    expect(seen.text).toContain('is uploaded in this channel');
    expect(seen.message.ephemeral).toBe(false);
  });

  it("names a job's artifacts archive, its size and where to download it", async () => {
    const seen = await h.ask('alice', 'job artifacts demo/web 1', /Artifacts of job #1/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/1/artifacts`, 'alice')]);
    expect(seen.text).toMatch(/`artifacts\.zip` · \d+ B/);
    const url = `${h.sim.url}/demo/web/-/jobs/1/artifacts/download`;
    expect(seen.text).toContain(`<${url}|download>`);
    expect(buttonOf(seen, /^Download$/).url).toBe(url);
  });

  it('finds the artifacts of the latest successful job of a name on a ref', async () => {
    const seen = await h.ask('alice', 'job artifacts demo/web --ref main --job compile', /Artifacts of the latest/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/jobs/artifacts/main/download`, 'alice', { query: { job: 'compile' } }),
    ]);
    expect(seen.text).toContain('Artifacts of the latest successful “compile” job on main in demo/web');
    expect(seen.text).toMatch(/`artifacts\.zip` · \d+ B/);
    expect(buttonOf(seen, /^Download$/).url).toBe(`${h.sim.url}/demo/web/-/jobs/artifacts/main/download?job=compile`);
  });

  it('sends a ref with a slash as one path segment, and says when nothing matches it', async () => {
    const seen = await h.ask('alice', 'job artifacts demo/web --ref chore/webpack-5 --job unit-tests', /no artifacts/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/jobs/artifacts/chore%2Fwebpack-5/download`, 'alice', {
        query: { job: 'unit-tests' },
        status: 404,
      }),
    ]);
    expect(seen.text).toContain('there is no successful “unit-tests” job on chore/webpack-5, or no access (404).');
  });

  it('says so when a job has no artifacts', async () => {
    const seen = await h.ask('alice', 'job artifacts demo/web 8', /no artifacts/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8/artifacts`, 'alice', { status: 404 })]);
    expect(seen.text).toContain('Job #8 in demo/web has no artifacts, or it was not found (404).');
  });
});
