import { describe, expect, it } from 'vitest';
import { formatAbsolute } from '../../../src/views/format.js';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, confirmText, useCiBot, WEB } from './harness.js';

// Every pipeline schedule command and button, end to end, with the exact calls and what
// the person sees.

const h = useCiBot();

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);
const rowIds = (text: string) => [...text.matchAll(/\*#(\d+)\* /g)].map((m) => Number(m[1]));
const SCHEDULES = `${WEB}/pipeline_schedules`;

async function schedule(id: number): Promise<{ next_run_at: string; description: string }> {
  const res = await h.api('alice', `projects/demo%2Fweb/pipeline_schedules/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { next_run_at: string; description: string };
}

describe('schedule lists', () => {
  it('lists the schedules with ref, cron and zone, state and owner', async () => {
    const seen = await h.ask('alice', 'schedules demo/web', /Pipeline schedules in demo\/web/);
    expect(h.calls()).toEqual([call('GET', SCHEDULES, 'alice')]);
    expect(rowIds(seen.text)).toEqual([1, 2, 3]);
    expect(seen.text).toContain(
      ':large_green_circle: *#1* Nightly build and test · `main` · `0 2 * * *` UTC · active · owner @bob',
    );
    expect(seen.text).toMatch(/owner @bob · next run \S+/);
    expect(seen.text).toContain(
      ':white_circle: *#2* Weekly dependency audit · `main` · `30 6 * * 1` Europe/Berlin · inactive · owner @bob',
    );
    expect(labels(seen.message)).toEqual(['Details', 'Details', 'Details']);
    expectWithinLimits(seen.it);
  });

  it('sends --scope active and --scope inactive', async () => {
    const active = await h.ask('alice', 'schedules demo/web --scope active', /Pipeline schedules/);
    const inactive = await h.ask('alice', 'schedules demo/web --scope inactive', /Pipeline schedules/);
    expect(h.calls()).toEqual([
      call('GET', SCHEDULES, 'alice', { query: { scope: 'active' } }),
      call('GET', SCHEDULES, 'alice', { query: { scope: 'inactive' } }),
    ]);
    expect(rowIds(active.text)).toEqual([1, 3]);
    expect(active.text).toContain('Filters: --scope active');
    expect(rowIds(inactive.text)).toEqual([2]);
  });

  it('opens a card from a row’s Details button, and turns pages with Next page', async () => {
    const list = await h.ask('alice', 'schedules demo/web --per-page 2', /Pipeline schedules/);
    expect(rowIds(list.text)).toEqual([1, 2]);
    const next = await h.press('alice', buttonOf(list, /^Next page$/), /Page 2/);
    expect(rowIds(next.text)).toEqual([3]);
    const details = await h.press('alice', buttonOf(next, /^Details$/), /Schedule #3 /);
    expect(h.calls()).toEqual([
      call('GET', SCHEDULES, 'alice', { query: { per_page: '2' } }),
      call('GET', SCHEDULES, 'alice', { query: { page: '2', per_page: '2' } }),
      call('GET', `${SCHEDULES}/3`, 'alice'),
    ]);
    expect(details.message.key).not.toBe(list.message.key);
    expect(details.text).toContain(':calendar: Schedule #3 · Visual regression snapshots');
  });
});

describe('a schedule card', () => {
  it("shows cron with its zone, the next run in the viewer's zone, state, owner and last pipeline", async () => {
    const next = new Date((await schedule(1)).next_run_at);
    h.sim.reset();
    const seen = await h.ask('alice', 'schedule demo/web 1', /Schedule #1 /);
    expect(h.calls()).toEqual([call('GET', `${SCHEDULES}/1`, 'alice')]);
    expect(seen.text).toContain(':calendar: Schedule #1 · Nightly build and test');
    expect(seen.text).toContain('*Ref*\n`main`');
    expect(seen.text).toContain('*Cron*\n`0 2 * * *` (UTC)');
    expect(seen.text).toContain(`*Next run*\n${formatAbsolute(next, 'Europe/Berlin')} · in `);
    expect(seen.text).toContain('*Active*\nyes');
    expect(seen.text).toContain('*Owner*\nBob Brown (@bob)');
    expect(seen.text).toContain(`*Last pipeline*\n:white_check_mark: <${h.sim.url}/demo/web/pipelines/1|#1> success`);
    expect(seen.text).toContain('times in Europe/Berlin');
    expect(labels(seen.message)).toEqual(['Take ownership', 'Deactivate', 'Delete', 'Open in GitLab']);
    expect(confirmText(buttonOf(seen, /^Take ownership$/))).toContain(
      'Its scheduled pipelines will then run with *your* permissions.',
    );
    expect(confirmText(buttonOf(seen, /^Delete$/))).toContain('This cannot be undone.');
    expect(buttonOf(seen, /^Open in GitLab$/).url).toBe(`${h.sim.url}/demo/web/pipeline_schedules/1/edit`);

    const bob = await h.ask('bob', 'schedule demo/web 1', /Schedule #1 /);
    expect(bob.text).toContain(`*Next run*\n${formatAbsolute(next, 'America/New_York')} · in `);
    expectWithinLimits(seen.it);
  });

  it('shows the next run moving on with the clock when a card is asked for again after the hour', async () => {
    h.clock.set('2026-03-02T10:58:00Z');
    const created = await h.ask('bob', 'schedule create demo/web "Hourly smoke test" main "0 * * * *"', /Created by/);
    const id = Number(/Schedule #(\d+) /.exec(created.text)?.[1]);
    expect(created.text).toContain(
      `*Next run*\n${formatAbsolute(new Date('2026-03-02T11:00:00Z'), 'America/New_York')} · in 2 minutes`,
    );

    h.clock.advance(3 * 60_000);
    const later = await h.ask('bob', `schedule demo/web ${id}`, /Schedule #\d+ /);
    expect(h.calls(1)).toEqual([call('GET', `${SCHEDULES}/${id}`, 'bob')]);
    expect(later.text).toContain(
      `*Next run*\n${formatAbsolute(new Date('2026-03-02T12:00:00Z'), 'America/New_York')} · in 59 minutes`,
    );
  });

  it('shows an inactive schedule with Activate and no next run', async () => {
    const seen = await h.ask('alice', 'schedule demo/web 2', /Schedule #2 /);
    expect(seen.text).toContain('*Next run*\n— (inactive)');
    expect(seen.text).toContain('*Last pipeline*\nnone yet');
    expect(labels(seen.message)).toEqual(['Take ownership', 'Activate', 'Delete', 'Open in GitLab']);
  });

  it('posts in the channel with --share, opens from pasted URLs and uses the channel default', async () => {
    const shared = await h.ask('alice', 'schedule demo/web 1 --share', /Schedule #1 /);
    expect(shared.message).toMatchObject({ ephemeral: false, visibleTo: null });
    await h.ask('alice', `schedule ${h.sim.url}/demo/web/pipeline_schedules/2`, /Schedule #2 /);
    await h.ask('alice', `schedule ${h.sim.url}/demo/web/-/pipeline_schedules/3/edit`, /Schedule #3 /);
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0CISCHED' });
    await h.ask('alice', 'schedule 1', /Schedule #1 /, { channel: 'C0CISCHED' });
    await h.ask('alice', 'schedules --scope active', /Pipeline schedules in demo\/web/, { channel: 'C0CISCHED' });
    expect(h.calls().filter((c) => c.path !== '/api/v4/projects/demo%2Fweb')).toEqual([
      call('GET', `${SCHEDULES}/1`, 'alice'),
      call('GET', `${SCHEDULES}/2`, 'alice'),
      call('GET', `${SCHEDULES}/3`, 'alice'),
      call('GET', `${SCHEDULES}/1`, 'alice'),
      call('GET', SCHEDULES, 'alice', { query: { scope: 'active' } }),
    ]);
  });
});

describe('creating and editing schedules', () => {
  it('creates one with --tz and --inactive', async () => {
    const seen = await h.ask(
      'alice',
      'schedule create demo/web "Nightly docs" main "0 3 * * *" --tz Europe/Berlin --inactive',
      /Created by/,
    );
    expect(h.calls()).toEqual([
      call('POST', SCHEDULES, 'alice', {
        body: {
          description: 'Nightly docs',
          ref: 'main',
          cron: '0 3 * * *',
          cron_timezone: 'Europe/Berlin',
          active: 'false',
        },
        status: 201,
      }),
    ]);
    const id = Number(/Schedule #(\d+) · Nightly docs/.exec(seen.text)?.[1]);
    expect(id).toBeGreaterThan(3);
    expect(seen.text).toContain('*Cron*\n`0 3 * * *` (Europe/Berlin)');
    expect(seen.text).toContain('*Active*\nno');
    expect(seen.text).toContain('*Owner*\nAlice Anders (@alice)');
    expect(seen.text).toContain(`Created by <@U0ALICE> · schedule #${id}`);
    // Alice owns it now: there is nothing for her to take.
    expect(labels(seen.message)).toEqual(['Activate', 'Delete', 'Open in GitLab']);
  });

  it('creates an active one in the creator’s Slack zone when no flag is given, and says so', async () => {
    const seen = await h.ask('bob', 'schedule create demo/web “Hourly smoke test” main “0 * * * *”', /Created by/);
    expect(h.calls()).toEqual([
      call('POST', SCHEDULES, 'bob', {
        body: {
          description: 'Hourly smoke test',
          ref: 'main',
          cron: '0 * * * *',
          cron_timezone: 'America/New_York',
          active: 'true',
        },
        status: 201,
      }),
    ]);
    expect(seen.text).toContain('its cron reads in America/New_York, your Slack time zone (--tz to choose another)');
    expect(seen.text).toContain('*Cron*\n`0 * * * *` (America/New_York)');
    expect(seen.text).toContain('*Active*\nyes');
    expect(seen.text).toMatch(/\*Next run\*\n\d{1,2} \w{3} \d{4}, \d\d:\d\d · in /);
  });

  it('edits every field with /gl schedule edit, and one field alone', async () => {
    const seen = await h.ask(
      'alice',
      'schedule edit demo/web 3 --description "Snapshots" --ref main --cron "0 5 * * *" --tz UTC --active false',
      /Updated by/,
    );
    expect(h.calls()).toEqual([
      call('PUT', `${SCHEDULES}/3`, 'alice', {
        body: { description: 'Snapshots', ref: 'main', cron: '0 5 * * *', cron_timezone: 'UTC', active: 'false' },
      }),
    ]);
    expect(seen.text).toContain(':calendar: Schedule #3 · Snapshots');
    expect(seen.text).toContain('*Cron*\n`0 5 * * *` (UTC)');
    expect(seen.text).toContain('*Active*\nno');
    expect(seen.text).toContain('Updated by <@U0ALICE> · schedule #3');

    const one = await h.ask('alice', 'schedule edit demo/web 3 --cron "15 4 * * *"', /Updated by/);
    expect(h.calls(1)).toEqual([call('PUT', `${SCHEDULES}/3`, 'alice', { body: { cron: '15 4 * * *' } })]);
    expect(one.text).toContain('*Cron*\n`15 4 * * *` (UTC)');
  });
});

describe('schedule actions', () => {
  it.each(['take', 'take-ownership'])(
    'asks before /gl schedule %s, warning whose permissions the pipelines get, then takes ownership',
    async (verb) => {
      const prompt = await h.ask('alice', `schedule ${verb} demo/web 1`, /Take ownership/);
      // Read first: its owner would have nothing to take.
      expect(h.calls()).toEqual([call('GET', `${SCHEDULES}/1`, 'alice')]);
      expect(prompt.text).toContain(
        'Take ownership of schedule #1 in demo/web? Its scheduled pipelines will then run with *your* permissions.',
      );
      expect(labels(prompt.message)).toEqual(['Yes, take schedule #1', 'Never mind']);
      const yes = await h.press('alice', buttonOf(prompt, /^Yes, take schedule #1$/), /Ownership taken by/);
      expect(h.calls(1)).toEqual([call('POST', `${SCHEDULES}/1/take_ownership`, 'alice', { status: 201 })]);
      expect(yes.message.key).toBe(prompt.message.key);
      expect(yes.text).toContain('*Owner*\nAlice Anders (@alice)');
      expect(yes.text).toContain('Ownership taken by <@U0ALICE> · schedule #1');
      expect(yes.text).toContain('#1> success');
    },
  );

  it('activates and deactivates with /gl schedule activate|deactivate', async () => {
    const on = await h.ask('alice', 'schedule activate demo/web 2', /Activated by/);
    const off = await h.ask('alice', 'schedule deactivate demo/web 1', /Deactivated by/);
    // Each is read first: one already so is shown as it is, not changed.
    expect(h.calls()).toEqual([
      call('GET', `${SCHEDULES}/2`, 'alice'),
      call('PUT', `${SCHEDULES}/2`, 'alice', { body: { active: 'true' } }),
      call('GET', `${SCHEDULES}/1`, 'alice'),
      call('PUT', `${SCHEDULES}/1`, 'alice', { body: { active: 'false' } }),
    ]);
    expect(on.text).toContain('*Active*\nyes');
    expect(on.text).toMatch(/\*Next run\*\n\d{1,2} \w{3} \d{4}, \d\d:\d\d · in /);
    expect(on.text).toContain('Activated by <@U0ALICE> · schedule #2');
    expect(labels(on.message)).toContain('Deactivate');
    expect(off.text).toContain('*Active*\nno');
    expect(off.text).toContain('Deactivated by <@U0ALICE> · schedule #1');
    expect(labels(off.message)).toContain('Activate');
  });

  it('asks before /gl schedule delete; "Never mind" keeps it, "Yes" deletes it', async () => {
    const prompt = await h.ask('alice', 'schedule delete demo/web 3', /Delete schedule #3/);
    expect(prompt.text).toContain('Delete schedule #3 in demo/web? This cannot be undone.');
    const no = await h.click('alice', buttonOf(prompt, /^Never mind$/));
    expect(await no.waitFor((r) => r.kind === 'response_url' && r.body.delete_original === true)).not.toBeNull();
    expect(h.calls()).toEqual([]);

    const again = await h.ask('alice', 'schedule remove demo/web 3', /Delete schedule #3/);
    const yes = await h.press('alice', buttonOf(again, /^Yes, delete schedule #3$/), /was deleted/);
    expect(h.calls()).toEqual([call('DELETE', `${SCHEDULES}/3`, 'alice', { status: 202 })]);
    expect(yes.message.key).toBe(again.message.key);
    expect(yes.text).toContain('Schedule #3 “Visual regression snapshots” in demo/web was deleted by <@U0ALICE>.');
  });

  it("runs a card's Take ownership, Deactivate and Activate as the clicker and redraws the card", async () => {
    const card = await h.ask('alice', 'schedule demo/web 1 --share', /Schedule #1 /);
    const taken = await h.press('root', buttonOf(card, /^Take ownership$/), /Ownership taken by/);
    expect(h.calls(1)).toEqual([call('POST', `${SCHEDULES}/1/take_ownership`, 'root', { status: 201 })]);
    expect(taken.message.key).toBe(card.message.key);
    expect(taken.text).toContain('*Owner*\nAdministrator (@root)');
    expect(taken.text).toContain('Ownership taken by <@U0ROOT> · schedule #1');

    const off = await h.press('alice', buttonOf(taken, /^Deactivate$/), /Deactivated by/);
    expect(h.calls(2)).toEqual([call('PUT', `${SCHEDULES}/1`, 'alice', { body: { active: 'false' } })]);
    expect(off.message.key).toBe(card.message.key);
    expect(off.text).toContain('*Active*\nno');
    expect(off.text).toContain('Deactivated by <@U0ALICE> · schedule #1');
    expect(off.text).not.toContain('Ownership taken by');

    const on = await h.press('alice', buttonOf(off, /^Activate$/), /Activated by/);
    expect(h.calls(3)).toEqual([call('PUT', `${SCHEDULES}/1`, 'alice', { body: { active: 'true' } })]);
    expect(on.text).toContain('*Active*\nyes');
    expect(labels(on.message)).toEqual(['Take ownership', 'Deactivate', 'Delete', 'Open in GitLab']);
    expectWithinLimits(on.it);
  });

  it("deletes from a card's Delete button; the gone schedule's other buttons then say so and change nothing", async () => {
    const card = await h.ask('alice', 'schedule demo/web 3', /Schedule #3 /);
    const deactivate = buttonOf(card, /^Deactivate$/);
    const deleted = await h.press('alice', buttonOf(card, /^Delete$/), /was deleted/);
    expect(h.calls(1)).toEqual([call('DELETE', `${SCHEDULES}/3`, 'alice', { status: 202 })]);
    expect(deleted.message.key).toBe(card.message.key);
    expect(deleted.text).toContain('Schedule #3 “Visual regression snapshots” in demo/web was deleted by <@U0ALICE>.');

    const stale = await h.press('alice', deactivate, /not found/);
    expect(h.calls(2)).toEqual([call('PUT', `${SCHEDULES}/3`, 'alice', { body: { active: 'false' }, status: 404 })]);
    expect(stale.text).toContain('Schedule #3 in demo/web was not found, or you have no access to it (404).');
    expect(stale.message.key).not.toBe(card.message.key);
    expect(h.bot.fake.messages.get(card.message.key)?.text).toContain('was deleted');
  });

  it('refuses a developer who neither owns nor maintains, with words, and leaves the card as it was', async () => {
    const card = await h.ask('alice', 'schedule demo/web 3 --share', /Schedule #3 /);
    const refused = await h.press('bob', buttonOf(card, /^Take ownership$/), /may not/);
    expect(h.calls(1)).toEqual([call('POST', `${SCHEDULES}/3/take_ownership`, 'bob', { status: 403 })]);
    expect(refused.text).toContain(
      "Schedule #3 in demo/web: you may not take ownership of it (403). Only maintainers, or the schedule's owner, can.",
    );
    expect(refused.message).toMatchObject({ ephemeral: true, visibleTo: 'U0BOB' });
    expect(h.bot.fake.messages.get(card.message.key)?.version).toBe(1);
  });
});
