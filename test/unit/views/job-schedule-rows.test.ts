import { describe, expect, it } from 'vitest';
import { projectOf } from '../../../src/gitlab/project.js';
import type { Job, PipelineSchedule } from '../../../src/gitlab/schemas.js';
import { jobRow } from '../../../src/views/jobs.js';
import { scheduleRow } from '../../../src/views/schedules.js';

// What people scan lists for: how long each job ran (a 9.5 server sends no `duration`) and when each schedule
// runs next.

const SERVER = 'https://gitlab.example.com';
const project = projectOf('demo/web');
const now = new Date('2026-03-03T12:00:00Z');

const job = (o: Partial<Job>): Job =>
  ({
    id: 8,
    name: 'test',
    stage: 'test',
    ref: 'main',
    status: 'success',
    web_url: `${SERVER}/demo/web/-/jobs/8`,
    started_at: null,
    finished_at: null,
    ...o,
  }) as Job;

const rowText = (x: unknown) => JSON.stringify(x);

describe('job rows', () => {
  it('compute the duration from started/finished when the server sends none', () => {
    const row = jobRow(job({ started_at: '2026-03-03T11:00:00Z', finished_at: '2026-03-03T11:01:05Z' }), {
      project,
      place: null,
      slot: 0,
      serverUrl: SERVER,
    });
    expect(rowText(row)).toContain('· success · 1m 5s');
  });

  it('show a sub-second job as "<1s", not "0s"', () => {
    const fromTimes = job({ started_at: '2026-03-03T11:00:00.000Z', finished_at: '2026-03-03T11:00:00.300Z' });
    expect(rowText(jobRow(fromTimes, { project, place: null, slot: 0, serverUrl: SERVER }))).toContain(
      '· success · &lt;1s',
    );
    expect(rowText(jobRow(job({ duration: 0.2 }), { project, place: null, slot: 0, serverUrl: SERVER }))).toContain(
      '· success · &lt;1s',
    );
    expect(rowText(jobRow(job({ duration: 42 }), { project, place: null, slot: 0, serverUrl: SERVER }))).toContain(
      '· success · 42s',
    );
  });
});

describe('schedule rows', () => {
  const schedule = (o: Partial<PipelineSchedule>): PipelineSchedule =>
    ({
      id: 5,
      description: 'Nightly',
      ref: 'main',
      cron: '0 2 * * *',
      cron_timezone: 'UTC',
      active: true,
      next_run_at: '2026-03-04T02:00:00Z',
      owner: null,
      ...o,
    }) as PipelineSchedule;

  it('show the next run of an active schedule, in the viewer’s zone', () => {
    const text = rowText(scheduleRow(schedule({}), project, 0, { now, timeZone: 'UTC' }));
    expect(text).toMatch(/next run [^"]*4 Mar 2026[^"]*02:00/);
  });

  it('leave it out for an inactive one', () => {
    const text = rowText(scheduleRow(schedule({ active: false }), project, 0, { now, timeZone: 'UTC' }));
    expect(text).not.toContain('next run');
  });
});
