import type { Duration } from './types.js';

/** GitLab's time-tracking units: a month is 4 weeks, a week 5 days, a day 8 hours. */
const UNITS = [
  { unit: 'mo', seconds: 4 * 5 * 8 * 3600, words: ['mo', 'mon', 'mos', 'month', 'months'] },
  { unit: 'w', seconds: 5 * 8 * 3600, words: ['w', 'wk', 'wks', 'week', 'weeks'] },
  { unit: 'd', seconds: 8 * 3600, words: ['d', 'day', 'days'] },
  { unit: 'h', seconds: 3600, words: ['h', 'hr', 'hrs', 'hour', 'hours'] },
  { unit: 'm', seconds: 60, words: ['m', 'min', 'mins', 'minute', 'minutes'] },
  { unit: 's', seconds: 1, words: ['s', 'sec', 'secs', 'second', 'seconds'] },
] as const;

const SECONDS_BY_WORD = new Map<string, number>(UNITS.flatMap((u) => u.words.map((w) => [w, u.seconds] as const)));
const PART = /(\d+(?:\.\d+)?)\s*([a-z]+)[\s,]*/y;

export type DurationResult = { ok: true; value: Duration } | { ok: false; problem: string };

/** `1mo 2w 3d 4h 30m`, `3h30m`, `1.5h`, `90 minutes`; with `signed`, a leading `-` subtracts. */
export function parseDuration(text: string, signed: boolean): DurationResult {
  let body = text.trim().toLowerCase();
  let sign = 1;
  if (body.startsWith('-')) {
    if (!signed) return { ok: false, problem: 'cannot be negative here' };
    sign = -1;
    body = body.slice(1).trimStart();
  }
  if (body === '') return { ok: false, problem: 'needs a value' };
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < body.length) {
    const at = PART.lastIndex;
    const match = PART.exec(body);
    if (!match) {
      const unitless = /^\d+(?:\.\d+)?$/.test(body.slice(at).trim());
      return { ok: false, problem: unitless ? 'has no unit' : 'is not a duration' };
    }
    const perUnit = SECONDS_BY_WORD.get(match[2] ?? '');
    if (perUnit === undefined) return { ok: false, problem: `has an unknown unit \`${match[2] ?? ''}\`` };
    total += Number(match[1]) * perUnit;
  }
  const seconds = Math.round(total);
  if (seconds === 0) return { ok: false, problem: 'must be longer than zero' };
  if (!Number.isSafeInteger(seconds)) return { ok: false, problem: 'is too long' };
  return { ok: true, value: { text: `${sign < 0 ? '-' : ''}${formatSeconds(seconds)}`, seconds: sign * seconds } };
}

/** The same amount in GitLab's largest units first: 12600 → `3h 30m`. */
export function formatSeconds(seconds: number): string {
  const parts: string[] = [];
  let left = seconds;
  for (const { unit, seconds: size } of UNITS) {
    const count = Math.floor(left / size);
    if (count > 0) {
      parts.push(`${count}${unit}`);
      left -= count * size;
    }
  }
  return parts.join(' ');
}
