import { describe, expect, it } from 'vitest';
import type { FakeMessage } from '../../support/fake-slack.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, useCiBot, WEB } from './harness.js';

// Refusals name what was really wrong: the version that is missing (not its merge request), a job that never
// ran (not one "already erased"), the branch that does not exist, the cron field out of range; and a typed
// command that would change nothing says so instead of asking or claiming a change.

const h = useCiBot();

const SCHEDULES = `${WEB}/pipeline_schedules`;
const labelsOf = (seen: { message: FakeMessage }) => buttonsOf(seen.message).map((b) => b.text);

describe('mr version', () => {
  it('names the version that was not found, when the merge request is there', async () => {
    const seen = await h.ask('alice', 'mr version demo/web!2 99', /not found/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/merge_requests/2/versions/99`, 'alice', { status: 404 }),
      call('GET', `${WEB}/merge_requests/2`, 'alice'),
    ]);
    expect(seen.text).toContain('Version 99 of merge request demo/web!2 was not found');
  });

  it('names the merge request when it is the merge request that is missing', async () => {
    const seen = await h.ask('alice', 'mr version demo/web!99 1', /not found/);
    expect(seen.text).toContain('Merge request demo/web!99 was not found');
    expect(seen.text).not.toContain('Version');
  });
});

describe('erasing a job that never ran', () => {
  it('offers no Erase after canceling a waiting job, and a typed erase says it never ran', async () => {
    const card = await h.ask('alice', 'job demo/web 27', /Job #27 /);
    const canceled = await h.press('alice', buttonOf(card, /^Cancel$/), /Canceled by/);
    expect(canceled.text).toMatch(/\*Status\*\n:no_entry_sign: canceled/);
    expect(labelsOf(canceled)).toEqual(['Retry', 'Trace', 'Open in GitLab']);
    expect(canceled.text).not.toContain('trace and artifacts erased');

    const prompt = await h.ask('alice', 'job erase demo/web 27', /Erase job #27/);
    const from = h.calls().length;
    const refused = await h.press('alice', buttonOf(prompt, /^Yes, erase job #27$/), /never ran/);
    expect(h.calls(from)).toEqual([
      call('POST', `${WEB}/jobs/27/erase`, 'alice', { status: 403 }),
      call('GET', `${WEB}/jobs/27`, 'alice'),
    ]);
    expect(refused.text).toContain('It never ran, so it has no trace or artifacts to erase. Nothing was changed.');
    expect(refused.text).not.toContain('Already erased');
    expect(labelsOf(refused)).not.toContain('Erase');
  });
});

describe('pipeline run', () => {
  it('names the branch or tag the project does not have instead of the raw 400', async () => {
    const seen = await h.ask('alice', 'pipeline run demo/web nosuchbranch', /no branch or tag/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/pipeline`, 'alice', { body: { ref: 'nosuchbranch' }, status: 400 }),
    ]);
    expect(seen.text).toContain('demo/web has no branch or tag `nosuchbranch` (400), so no pipeline was started.');
    expect(seen.text).not.toContain('base Reference');
  });

  it('says in words that running pipelines needs the Developer role, not the server’s “403 Forbidden”', async () => {
    const seen = await h.ask('eve', 'pipeline run demo/web main', /may not run pipelines/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/pipeline`, 'eve', { body: { ref: 'main' }, status: 403 })]);
    expect(seen.text).toContain(
      'You may not run pipelines on `main` in demo/web (403): that needs at least the Developer role in the project',
    );
    expect(seen.text).not.toContain('403 Forbidden');
  });
});

describe('cron expressions', () => {
  it.each([
    ['schedule create demo/web "x" main "61 * * * *"', 'must have its minute from 0 to 59, not 61'],
    ['schedule edit demo/web 1 --cron "0 25 * * *"', 'must have its hour from 0 to 23, not 25'],
    ['digest todos --cron "0 25 * * *"', 'must have its hour from 0 to 23, not 25'],
  ])('`%s` names the field out of range, calling nothing', async (text, problem) => {
    const seen = await h.ask('alice', text, /must have its/);
    expect(h.calls()).toEqual([]);
    expect(seen.text).toContain(problem);
    expect(seen.text).not.toContain('5 fields');
  });
});

describe('schedule commands that would change nothing', () => {
  it('tells the owner of a schedule that there is nothing to take, without asking', async () => {
    const seen = await h.ask('alice', 'schedule take demo/web 3', /nothing to take/);
    expect(h.calls()).toEqual([call('GET', `${SCHEDULES}/3`, 'alice')]);
    expect(seen.text).toContain('You own this schedule already: there is nothing to take. Nothing was changed.');
    expect(seen.text).not.toContain('Yes, take');
  });

  it('says an inactive schedule is inactive already instead of "Deactivated by"', async () => {
    const seen = await h.ask('alice', 'schedule deactivate demo/web 2', /Already inactive/);
    expect(h.calls()).toEqual([call('GET', `${SCHEDULES}/2`, 'alice')]);
    expect(seen.text).not.toContain('Deactivated by');
    expect(seen.text).toContain('*Active*\nno');
    const active = await h.ask('alice', 'schedule activate demo/web 3', /Already active/);
    expect(active.text).not.toContain('Activated by');
  });
});

describe('quoted targets', () => {
  it('reads `job "demo/web" "8"` as job 8 of demo/web', async () => {
    const seen = await h.ask('alice', 'job "demo/web" "8"', /Job #8 /);
    expect(h.calls()[0]).toEqual(call('GET', `${WEB}/jobs/8`, 'alice'));
    expect(seen.text).toContain('unit-tests');
  });
});
