import { describe, expect, it } from 'vitest';
import { formatSeconds, parseDuration } from '../../../src/grammar/duration.js';
import type { ValueSpec } from '../../../src/grammar/spec-types.js';
import { parseValue } from '../../../src/grammar/values.js';
import { SERVER } from './support.js';

function value(spec: ValueSpec, text: string): unknown {
  const result = parseValue(spec, text, SERVER);
  if (!result.ok) throw new Error(`${text}: ${result.problem}`);
  return result.value;
}

function refused(spec: ValueSpec, text: string): string {
  const result = parseValue(spec, text, SERVER);
  if (result.ok) throw new Error(`${text} was accepted as ${JSON.stringify(result.value)}`);
  return result.problem;
}

describe('durations', () => {
  it.each([
    ['3h30m', '3h 30m', 12600],
    ['1mo 2w 3d 4h 30m', '1mo 2w 3d 4h 30m', 966600],
    ['1w', '1w', 144000],
    ['1d', '1d', 28800],
    ['90m', '1h 30m', 5400],
    ['1.5h', '1h 30m', 5400],
    ['2 hours, 15 minutes', '2h 15m', 8100],
    ['8h', '1d', 28800],
    ['45s', '45s', 45],
    ['1MO', '1mo', 576000],
  ])('reads %s in GitLab units (1mo = 4w, 1w = 5d, 1d = 8h)', (text, normalised, seconds) => {
    expect(parseDuration(text, false)).toEqual({ ok: true, value: { text: normalised, seconds } });
  });

  it('reads a leading - as time taken back only where that is allowed', () => {
    expect(parseDuration('-1h 30m', true)).toEqual({ ok: true, value: { text: '-1h 30m', seconds: -5400 } });
    expect(parseDuration('-1h', false)).toEqual({ ok: false, problem: 'cannot be negative here' });
  });

  it.each([
    ['90', 'has no unit'],
    ['3 parsecs', 'has an unknown unit `parsecs`'],
    ['soon', 'is not a duration'],
    ['0h', 'must be longer than zero'],
    ['', 'needs a value'],
    ['99999999999999999mo', 'is too long'],
  ])('refuses %j', (text, problem) => {
    expect(parseDuration(text, true)).toEqual({ ok: false, problem });
  });

  it('formats seconds largest unit first', () => {
    expect(formatSeconds(576000 + 144000 + 60 + 1)).toBe('1mo 1w 1m 1s');
  });
});

describe('dates and date-times', () => {
  it('accepts calendar dates and refuses impossible ones', () => {
    expect(value({ type: 'date' }, '2024-02-29')).toBe('2024-02-29');
    expect(refused({ type: 'date' }, '2026-02-29')).toBe('must be a date as YYYY-MM-DD');
    expect(refused({ type: 'date' }, '2026-1-5')).toBe('must be a date as YYYY-MM-DD');
  });

  it.each([
    '2026-01-02',
    '2026-01-02T03:04',
    '2026-01-02T03:04:05Z',
    '2026-01-02T03:04:05.123+02:00',
    '2026-01-02t03:04:05-0500',
  ])('accepts the ISO 8601 form %s', (text) => {
    expect(value({ type: 'date-time' }, text)).toBe(text);
  });

  it.each(['2026-01-02T25:00', '2026-01-02 03:04', 'yesterday', '2026-13-01T00:00Z'])(
    'refuses %s as a date-time',
    (text) => {
      expect(refused({ type: 'date-time' }, text)).toBe('must be an ISO 8601 date or date-time');
    },
  );
});

describe('cron expressions and time zones', () => {
  it('accepts five fields and normalises their spacing', () => {
    expect(value({ type: 'cron' }, ' 0   9 * *  1-5 ')).toBe('0 9 * * 1-5');
    expect(value({ type: 'cron' }, '*/15 8-18 * * MON-FRI')).toBe('*/15 8-18 * * MON-FRI');
  });

  it.each(['0 0 9 * * 1-5', '0 9 * *', 'every day'])('refuses %j', (text) => {
    expect(refused({ type: 'cron' }, text)).toMatch(/^must be a cron expression of 5 fields/);
  });

  it.each([
    ['61 * * * *', 'must have its minute from 0 to 59, not 61'],
    ['0 25 * * *', 'must have its hour from 0 to 23, not 25'],
    ['0 9 0 * *', 'must have its day of the month from 1 to 31, not 0'],
    ['0 9 * 1-13 *', 'must have its month from 1 to 12, not 13'],
    ['0 9 * * 1,8', 'must have its weekday from 0 to 7, not 8'],
  ])('names the field of %j that is out of range', (text, problem) => {
    expect(refused({ type: 'cron' }, text)).toBe(problem);
  });

  it('accepts IANA zones in any case and keeps the name given, properly cased', () => {
    expect(value({ type: 'timezone' }, 'europe/berlin')).toBe('Europe/Berlin');
    expect(value({ type: 'timezone' }, 'UTC')).toBe('UTC');
    expect(value({ type: 'timezone' }, 'utc')).toBe('UTC');
    expect(value({ type: 'timezone' }, 'America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    expect(value({ type: 'timezone' }, 'asia/kolkata')).toBe('Asia/Kolkata');
    expect(value({ type: 'timezone' }, 'america/port-au-prince')).toBe('America/Port-au-Prince');
  });

  it.each(['Mars/Base', 'Berlin Time', '../etc'])('refuses %j as a time zone', (text) => {
    expect(refused({ type: 'timezone' }, text)).toBe('must be an IANA time zone');
  });
});

describe('emoji', () => {
  it.each([
    [':thumbsup:', 'thumbsup'],
    ['thumbsup', 'thumbsup'],
    [':+1:', 'thumbsup'],
    [':-1:', 'thumbsdown'],
    [':Rocket:', 'rocket'],
    [':+1::skin-tone-2:', 'thumbsup_tone1'],
    ['👍', 'thumbsup'],
    ['8ball', '8ball'],
  ])('reads %s as %s', (text, name) => {
    expect(value({ type: 'emoji' }, text)).toBe(name);
  });

  it.each(['::', 'two words', ':a:b:'])('refuses %j', (text) => {
    expect(refused({ type: 'emoji' }, text)).toBe('must be an emoji name like `:thumbsup:` or `thumbsup`');
  });
});

describe('lists, labels, enums and numbers', () => {
  it('splits lists on commas, trims and drops empty parts', () => {
    expect(value({ type: 'list' }, ' a , b,,c ')).toEqual(['a', 'b', 'c']);
    expect(value({ type: 'int-list' }, '1,2,2,3')).toEqual([1, 2, 3]);
  });

  it('reads --labels none as the API spelling of no label', () => {
    expect(value({ type: 'labels' }, 'none')).toEqual(['No Label']);
    expect(value({ type: 'labels' }, 'NONE')).toEqual(['No Label']);
    expect(value({ type: 'labels' }, 'bug,none')).toEqual(['bug', 'none']);
    expect(value({ type: 'labels' }, 'needs review,bug')).toEqual(['needs review', 'bug']);
  });

  it('matches enum values ignoring case, - and _ but returns the API spelling', () => {
    const spec: ValueSpec = { type: 'enum', values: ['created-by-me', 'Issue', 'build_failed'] };
    expect(value(spec, 'CREATED_BY_ME')).toBe('created-by-me');
    expect(value(spec, 'issue')).toBe('Issue');
    expect(value(spec, 'build-failed')).toBe('build_failed');
  });

  it('suggests the closest enum value', () => {
    expect(parseValue({ type: 'enum', values: ['opened', 'closed'] }, 'opend', SERVER)).toEqual({
      ok: false,
      problem: 'must be one of opened, closed',
      suggestion: 'opened',
    });
  });

  it('keeps integers within their range', () => {
    expect(value({ type: 'int', min: 1, max: 100 }, '100')).toBe(100);
    expect(refused({ type: 'int', min: 1, max: 100 }, '101')).toBe('must be a whole number from 1 to 100');
    expect(refused({ type: 'int', min: 1 }, '1e3')).toBe('must be a whole number from 1');
    expect(refused({ type: 'int', min: 1 }, '99999999999999999999')).toBe('must be a whole number from 1');
  });

  it('reads booleans in the usual spellings', () => {
    for (const yes of ['true', 'YES', 'on', '1']) expect(value({ type: 'bool' }, yes)).toBe(true);
    for (const no of ['false', 'No', 'off', '0']) expect(value({ type: 'bool' }, no)).toBe(false);
  });

  it('reads users by id or username, with or without @', () => {
    expect(value({ type: 'user' }, '42')).toEqual({ kind: 'id', id: 42 });
    expect(value({ type: 'user' }, '@alice')).toEqual({ kind: 'username', username: 'alice' });
    expect(refused({ type: 'user' }, 'a b')).toBe('must be a user id, a username or a Slack @mention');
  });

  it('reads a Slack mention in the word as that person', () => {
    const mentions = [{ text: '@alice', userId: 'U0123ABC' }];
    expect(parseValue({ type: 'user' }, '@alice', SERVER, mentions)).toEqual({
      ok: true,
      value: { kind: 'slack', userId: 'U0123ABC' },
    });
    // The same text typed without a mention is a server username.
    expect(value({ type: 'user' }, '@alice')).toEqual({ kind: 'username', username: 'alice' });
  });

  it('reads a list of people in any of the three forms, once each', () => {
    const mentions = [
      { text: '@bob', userId: 'U2' },
      { text: '@U3', userId: 'U3' },
    ];
    expect(parseValue({ type: 'user-list' }, '4, alice,@bob,@U3,4,Alice', SERVER, mentions)).toEqual({
      ok: true,
      value: [
        { kind: 'id', id: 4 },
        { kind: 'username', username: 'alice' },
        { kind: 'slack', userId: 'U2' },
        { kind: 'slack', userId: 'U3' },
      ],
    });
    expect(refused({ type: 'user-list' }, 'alice,a b')).toBe(
      'has `a b`, but each person must be a user id, a username or a Slack @mention',
    );
    expect(refused({ type: 'user-list' }, ',')).toBe('needs one or more people');
  });

  it('reads ids as numbers from 1, naming the record when it is not one', () => {
    expect(value({ type: 'id', of: 'key' }, '7')).toBe(7);
    expect(refused({ type: 'id', of: 'key' }, 'abc')).toBe('is not a key id: a key id is a number');
    expect(refused({ type: 'id', of: 'award' }, '0')).toBe('is not an award id: an award id is a number from 1');
    expect(refused({ type: 'id', of: 'todo' }, '12345678901234567890123')).toBe('is too large for a todo id');
  });

  it('reads merge request iids with or without !', () => {
    expect(value({ type: 'mr-iid' }, '!34')).toBe(34);
    expect(value({ type: 'mr-iid' }, '34')).toBe(34);
  });

  it('reads groups by path or id', () => {
    expect(value({ type: 'group' }, 'demo')).toEqual({ kind: 'path', path: 'demo' });
    expect(value({ type: 'group' }, 'demo/sub/')).toEqual({ kind: 'path', path: 'demo/sub' });
    expect(value({ type: 'group' }, '9')).toEqual({ kind: 'id', id: 9 });
  });
});
