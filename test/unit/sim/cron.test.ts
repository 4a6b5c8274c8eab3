import { describe, expect, it } from 'vitest';
import { isValidTimeZone, nextCronRun, parseCron } from '../../../src/sim/cron.js';

function next(expr: string, zone: string, after: string): string | undefined {
  const spec = parseCron(expr);
  if (!spec) throw new Error(`invalid: ${expr}`);
  return nextCronRun(spec, zone, new Date(after))?.toISOString();
}

describe('parseCron', () => {
  it('reads lists, ranges, steps and names', () => {
    const spec = parseCron('0,30 9-17/2 1,15 jan-mar mon-fri');
    expect(spec?.minutes).toEqual([0, 30]);
    expect(spec?.hours).toEqual([9, 11, 13, 15, 17]);
    expect([...(spec?.daysOfMonth ?? [])]).toEqual([1, 15]);
    expect([...(spec?.months ?? [])]).toEqual([1, 2, 3]);
    expect([...(spec?.daysOfWeek ?? [])].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('treats 7 as Sunday and a/n as a..max step n', () => {
    expect([...(parseCron('* * * * 7')?.daysOfWeek ?? [])]).toEqual([0]);
    expect(parseCron('5/20 * * * *')?.minutes).toEqual([5, 25, 45]);
    expect(parseCron('*/15 * * * *')?.minutes).toEqual([0, 15, 30, 45]);
  });

  it('refuses what is not 5-field cron', () => {
    for (const bad of [
      '',
      '* * * *',
      '* * * * * *',
      '60 * * * *',
      '* 24 * * *',
      '* * 0 * *',
      '* * * 13 *',
      '* * * * 8',
      '5-1 * * * *',
      '*/0 * * * *',
      'a * * * *',
      '* * * foo *',
      '1-2-3 * * * *',
    ]) {
      expect(parseCron(bad), bad).toBeNull();
    }
  });
});

describe('nextCronRun', () => {
  it('finds the next minute strictly after the given time', () => {
    expect(next('* * * * *', 'UTC', '2026-03-02T10:00:00.000Z')).toBe('2026-03-02T10:01:00.000Z');
    expect(next('* * * * *', 'UTC', '2026-03-02T10:00:30.000Z')).toBe('2026-03-02T10:01:00.000Z');
  });

  it('matches the GitLab docs example: Fridays at 01:00 UTC', () => {
    expect(next('0 1 * * 5', 'UTC', '2017-05-19T13:43:08.169Z')).toBe('2017-05-26T01:00:00.000Z');
  });

  it('computes wall-clock times in the schedule’s zone', () => {
    expect(next('0 2 * * *', 'Asia/Tokyo', '2017-05-19T13:44:16.135Z')).toBe('2017-05-19T17:00:00.000Z');
    expect(next('30 6 * * 1', 'Europe/Berlin', '2026-03-02T10:00:00.000Z')).toBe('2026-03-09T05:30:00.000Z');
  });

  it('honours daylight saving: skipped times are skipped, repeated times run once', () => {
    // Berlin springs forward on 2026-03-29 02:00 -> 03:00
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00.000Z')).toBe('2026-03-30T00:30:00.000Z');
    expect(next('0 9 * * *', 'Europe/Berlin', '2026-03-28T12:00:00.000Z')).toBe('2026-03-29T07:00:00.000Z');
    // and falls back on 2026-10-25 03:00 -> 02:00: 02:30 happens twice, the first counts
    expect(next('30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00.000Z')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('uses the OR rule when both day fields are restricted, AND otherwise', () => {
    // the 13th or any Friday: from Mon 2026-03-02 the first is Fri 2026-03-06
    expect(next('0 0 13 * 5', 'UTC', '2026-03-02T10:00:00.000Z')).toBe('2026-03-06T00:00:00.000Z');
    // with * for the weekday only the day of month counts
    expect(next('0 0 13 * *', 'UTC', '2026-03-02T10:00:00.000Z')).toBe('2026-03-13T00:00:00.000Z');
    expect(next('0 0 * * sun', 'UTC', '2026-03-02T10:00:00.000Z')).toBe('2026-03-08T00:00:00.000Z');
  });

  it('finds rare dates such as 29 February', () => {
    expect(next('0 12 29 2 *', 'UTC', '2026-03-02T10:00:00.000Z')).toBe('2028-02-29T12:00:00.000Z');
  });

  it('answers null for a date that never comes', () => {
    const spec = parseCron('0 0 31 2 *');
    expect(spec).not.toBeNull();
    if (spec) expect(nextCronRun(spec, 'UTC', new Date('2026-01-01T00:00:00Z'))).toBeNull();
  });
});

describe('isValidTimeZone', () => {
  it('knows IANA zones and refuses others', () => {
    expect(isValidTimeZone('UTC')).toBe(true);
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(isValidTimeZone('')).toBe(false);
  });
});
