import { describe, expect, it } from 'vitest';
import { when } from '../../../src/views/common.js';
import {
  drawDateTime,
  drawUpcoming,
  drawWhen,
  formatAbsolute,
  formatDateTime,
  formatRelative,
  slackDate,
} from '../../../src/views/format.js';

const formatWhen = (date: Date, now: Date, timeZone?: string) => drawWhen(date, { now, timeZone }).text;
const formatUpcoming = (date: Date, now: Date, timeZone?: string) => drawUpcoming(date, { now, timeZone }).text;

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
    expect(when('2026-05-01T12:02:00Z', { now: NOW, timeZone: 'Asia/Tokyo' }).text).toBe(
      '1 May 2026, 21:02 · 2 days ago',
    );
    expect(when('2026-05-01T12:02:00Z', NOW).text).toBe('1 May 2026, 12:02 UTC · 2 days ago');
    expect(when(null, NOW).text).toBe('—');
    expect(when('not a date', NOW).text).toBe('—');
  });
});

describe('a time read by many (a shared card, a preview, a digest in a channel)', () => {
  const at = new Date('2026-03-03T13:02:00Z');
  const DATE = '<!date^1772542920^{date_short_pretty} {time}|3 Mar 2026, 13:02 UTC>';

  it("is Slack's date markup, drawn in each reader's zone, whose fallback names its zone", () => {
    expect(slackDate(at).text).toBe(DATE);
    expect(slackDate(at, 'Europe/Berlin').text).toBe(
      '<!date^1772542920^{date_short_pretty} {time}|3 Mar 2026, 14:02 Europe/Berlin>',
    );
    expect(drawWhen(at, { now: NOW, shared: true }).text).toBe(`${DATE} · 2 months ago`);
    expect(drawUpcoming(new Date(NOW.getTime() + 30_000), { now: NOW, shared: true }).text).toMatch(
      /^<!date\^\d+\^\{date_short_pretty\} \{time\}\|3 May 2026, 12:02 UTC> · in under a minute$/,
    );
    expect(drawDateTime(at, { now: NOW, shared: true }).text).toBe(DATE);
  });

  it('is the same text whoever draws it, whatever their zone: a redraw never moves it', () => {
    const drawn = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', undefined].map(
      (timeZone) => when(at.toISOString(), { now: NOW, timeZone, shared: true }).text,
    );
    expect(new Set(drawn)).toEqual(new Set([`${DATE} · 2 months ago`]));
  });

  it('to one person is in their zone, and says the zone where it stands alone', () => {
    expect(drawWhen(at, { now: NOW, timeZone: 'America/New_York' }).text).toBe('3 Mar 2026, 08:02 · 2 months ago');
    expect(drawDateTime(at, { now: NOW, timeZone: 'America/New_York' }).text).toBe(
      '3 Mar 2026, 08:02 America/New_York',
    );
    expect(drawDateTime(at, { now: NOW }).text).toBe('3 Mar 2026, 13:02 UTC');
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
