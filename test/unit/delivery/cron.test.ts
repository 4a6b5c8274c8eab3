import { createTask, type ScheduledTask } from 'node-cron';
import { afterEach, describe, expect, it } from 'vitest';
import { checkCron, checkZone, nextRunAfter } from '../../../src/delivery/cron.js';

// nextRunAfter computes node-cron's schedule without a task. It is checked against node-cron itself through its
// public API: every time it gives is one node-cron's task matches, and no minute between two of them matches.

const tasks: ScheduledTask[] = [];
afterEach(() => {
  for (const t of tasks.splice(0)) void t.destroy();
});

function taskFor(expression: string, zone: string): ScheduledTask {
  const t = createTask(expression, () => {}, { timezone: zone });
  tasks.push(t);
  return t;
}

function runs(expression: string, zone: string, from: string, n: number): Date[] {
  const out: Date[] = [];
  let at = new Date(from);
  for (let i = 0; i < n; i++) {
    const next = nextRunAfter(expression, zone, at);
    if (!next) break;
    out.push(next);
    at = next;
  }
  return out;
}

const wallTime = (d: Date, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(d);

/**
 * Every run found is a time node-cron's task matches, and no minute between two runs matches, except the second
 * reading of a wall-clock time the autumn change repeats (node-cron runs such a time once).
 */
function expectSameAsNodeCron(expression: string, zone: string, from: string, n: number): Date[] {
  const task = taskFor(expression, zone);
  const found = runs(expression, zone, from, n);
  expect(found).toHaveLength(n);
  const ranAt = new Set(found.map((d) => wallTime(d, zone)));
  let previous = new Date(from).getTime();
  for (const run of found) {
    expect(task.match(run), `${run.toISOString()} matches ${expression} in ${zone}`).toBe(true);
    for (let t = Math.floor(previous / 60_000) * 60_000 + 60_000; t < run.getTime(); t += 60_000) {
      const at = new Date(t);
      if (task.match(at) && !ranAt.has(wallTime(at, zone))) {
        expect.fail(`${at.toISOString()} also matches ${expression} in ${zone}`);
      }
    }
    previous = run.getTime();
  }
  return found;
}

const iso = (ds: Date[]) => ds.map((d) => d.toISOString());

describe('the next run of a digest', () => {
  it('is 09:00 on weekdays in the zone, skipping the weekend', () => {
    const found = expectSameAsNodeCron('0 9 * * 1-5', 'Europe/Berlin', '2026-03-05T12:00:00Z', 3);
    expect(iso(found)).toEqual(['2026-03-06T08:00:00.000Z', '2026-03-09T08:00:00.000Z', '2026-03-10T08:00:00.000Z']);
  });

  it('keeps to the local time across the spring change (09:00 Berlin moves from 08:00 to 07:00 UTC)', () => {
    const found = expectSameAsNodeCron('0 9 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 2);
    expect(iso(found)).toEqual(['2026-03-29T07:00:00.000Z', '2026-03-30T07:00:00.000Z']);
  });

  it('does not run at a local time the spring change skips, as node-cron', () => {
    const found = expectSameAsNodeCron('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00Z', 2);
    expect(iso(found)).toEqual(['2026-03-30T00:30:00.000Z', '2026-03-31T00:30:00.000Z']);
  });

  it('runs a repeated local time of the autumn change once, as node-cron', () => {
    // 02:30 comes at 00:30 and at 01:30 UTC on Oct 25; node-cron takes the reading after the change.
    const found = expectSameAsNodeCron('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00Z', 2);
    expect(iso(found)).toEqual(['2026-10-25T01:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  it('agrees with node-cron hour by hour across New York’s autumn change', () => {
    const found = expectSameAsNodeCron('0 * * * *', 'America/New_York', '2026-11-01T03:30:00Z', 4);
    // 01:00 comes at 05:00 (EDT) and at 06:00 UTC (EST); it runs once.
    expect(iso(found)).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
      '2026-11-01T08:00:00.000Z',
    ]);
  });

  it('agrees with node-cron on the last day of the month, the n-th weekday and Feb 29', () => {
    expectSameAsNodeCron('0 0 L * *', 'UTC', '2026-01-25T00:00:00Z', 2);
    expectSameAsNodeCron('0 9 * * 1#2', 'Asia/Kolkata', '2026-03-01T00:00:00Z', 2);
    const leap = runs('15 3 29 2 *', 'UTC', '2026-03-01T00:00:00Z', 1);
    expect(iso(leap)).toEqual(['2028-02-29T03:15:00.000Z']);
    expect(taskFor('15 3 29 2 *', 'UTC').match(leap[0] as Date)).toBe(true);
  });

  it('is strictly after the given time', () => {
    expect(nextRunAfter('0 9 * * *', 'UTC', new Date('2026-03-02T09:00:00Z'))?.toISOString()).toBe(
      '2026-03-03T09:00:00.000Z',
    );
  });
});

describe('cron and zone checks', () => {
  it('takes 5-field expressions only, as node-cron validates them', () => {
    expect(checkCron(' 0  9 * * 1-5 ')).toEqual({ ok: true, value: '0 9 * * 1-5' });
    expect(checkCron('*/5 * * * * *').ok).toBe(false); // 6 fields: seconds
    expect(checkCron('0 25 * * *').ok).toBe(false);
    expect(checkCron('every day').ok).toBe(false);
  });

  it('refuses a schedule that never comes', () => {
    expect(checkCron('0 0 31 2 *').ok).toBe(false);
  });

  it('takes IANA zones only', () => {
    expect(checkZone('Europe/Berlin')).toEqual({ ok: true, value: 'Europe/Berlin' });
    expect(checkZone('Mars/Olympus').ok).toBe(false);
    expect(checkZone('UTC; DROP').ok).toBe(false);
  });
});
