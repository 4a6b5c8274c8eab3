import { describe, expect, it } from 'vitest';
import { when } from '../../../src/views/common.js';
import {
  formatAbsolute,
  formatDateTime,
  formatRelative,
  formatUpcoming,
  formatWhen,
} from '../../../src/views/format.js';

// One house style for a time on any card or row: "3 Mar 2026, 14:02 · 2 months ago", absolute in the viewer's
// zone, relative counted in the unit a person would use.

const NOW = new Date('2026-05-03T12:02:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const DAY = 86_400_000;

describe('formatWhen', () => {
  it('writes the absolute time in the viewer’s zone beside the relative one', () => {
    expect(formatWhen(new Date('2026-03-03T13:02:00Z'), NOW, 'Europe/Berlin')).toBe('3 Mar 2026, 14:02 · 2 months ago');
    expect(formatWhen(new Date('2026-03-03T13:02:00Z'), NOW, 'America/New_York')).toBe(
      '3 Mar 2026, 08:02 · 2 months ago',
    );
  });

  it('says UTC when no zone is known, and "just now" within a minute either way', () => {
    expect(formatWhen(ago(30_000), NOW)).toBe('3 May 2026, 12:01 UTC · just now');
    expect(formatWhen(new Date(NOW.getTime() + 30_000), NOW, 'UTC')).toBe('3 May 2026, 12:02 · just now');
  });

  it('is what `when` draws from a server time, with a card context or only a now', () => {
    expect(when('2026-05-01T12:02:00Z', { now: NOW, timeZone: 'Asia/Tokyo' })).toBe('1 May 2026, 21:02 · 2 days ago');
    expect(when('2026-05-01T12:02:00Z', NOW)).toBe('1 May 2026, 12:02 UTC · 2 days ago');
    expect(when(null, NOW)).toBe('—');
    expect(when('not a date', NOW)).toBe('—');
  });
});

describe('formatRelative', () => {
  it.each([
    [ago(5_000), '5 seconds ago'],
    [ago(3 * 60_000), '3 minutes ago'],
    [ago(2 * 3_600_000), '2 hours ago'],
    [ago(1 * DAY), '1 day ago'],
    [ago(29 * DAY), '29 days ago'],
    [ago(40 * DAY), '1 month ago'],
    [ago(61 * DAY), '2 months ago'],
    [ago(330 * DAY), '11 months ago'],
    [ago(400 * DAY), '1 year ago'],
    [ago(3989 * DAY), '11 years ago'],
    [new Date(NOW.getTime() + 3 * 3_600_000), 'in 3 hours'],
    [new Date(NOW.getTime() + 90 * DAY), 'in 3 months'],
  ])('%s → %s', (date, words) => {
    expect(formatRelative(date, NOW)).toBe(words);
  });
});

describe('formatAbsolute and formatDateTime', () => {
  it('writes the day without a leading zero and the hour on a 24-hour clock; formatDateTime names the zone', () => {
    expect(formatAbsolute(new Date('2026-03-03T00:05:00Z'), 'UTC')).toBe('3 Mar 2026, 00:05');
    expect(formatDateTime(new Date('2026-03-03T00:05:00Z'), 'Europe/Berlin')).toBe('3 Mar 2026, 01:05 Europe/Berlin');
  });
});

describe('formatUpcoming', () => {
  it('says how soon a planned time is, never "just now" for one still ahead', () => {
    expect(formatUpcoming(new Date(NOW.getTime() + 30_000), NOW, 'UTC')).toBe('3 May 2026, 12:02 · in under a minute');
    expect(formatUpcoming(new Date(NOW.getTime() + 3 * 60_000), NOW, 'UTC')).toBe('3 May 2026, 12:05 · in 3 minutes');
    expect(formatUpcoming(ago(10_000), NOW, 'UTC')).toBe('3 May 2026, 12:01 · due now');
    expect(formatUpcoming(new Date(NOW.getTime() + 30_000), NOW)).toBe('3 May 2026, 12:02 UTC · in under a minute');
  });
});
