// GitLab's human time-tracking durations ("1mo 2w 3d 4h 30m", "3h30m"), with
// its working-time units: a day is 8 hours, a week 5 days, a month 4 weeks.
// A bare number means hours, as in GitLab.

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 8 * HOUR;
const WEEK = 5 * DAY;
const MONTH = 4 * WEEK;

const UNITS: [RegExp, number][] = [
  [/^(mo|mos|month|months)$/, MONTH],
  [/^(w|wk|wks|week|weeks)$/, WEEK],
  [/^(d|day|days)$/, DAY],
  [/^(h|hr|hrs|hour|hours)$/, HOUR],
  [/^(m|min|mins|minute|minutes)$/, MINUTE],
  [/^(s|sec|secs|second|seconds)$/, 1],
];

/** Seconds for a duration text (negative with a leading "-"), or null when it cannot be read. */
export function parseHumanDuration(text: string): number | null {
  let s = text.trim().toLowerCase();
  let sign = 1;
  if (s.startsWith('-')) {
    sign = -1;
    s = s.slice(1).trim();
  }
  if (s === '') return null;
  if (/^\d+(\.\d+)?$/.test(s)) return sign * Math.round(Number(s) * HOUR);
  const re = /(\d+(?:\.\d+)?)\s*([a-z]+)[\s,]*/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    const unit = UNITS.find(([pattern]) => pattern.test(m?.[2] ?? ''));
    if (!unit) return null;
    total += Number(m[1]) * unit[1];
    consumed = re.lastIndex;
  }
  if (consumed !== s.length) return null;
  return sign * Math.round(total);
}

const OUTPUT: [string, number][] = [
  ['mo', MONTH],
  ['w', WEEK],
  ['d', DAY],
  ['h', HOUR],
  ['m', MINUTE],
  ['s', 1],
];

/** "1w 2d 3h 30m" for seconds, or null for zero (GitLab's human_* fields). */
export function formatHumanDuration(seconds: number): string | null {
  if (seconds === 0) return null;
  let rest = Math.abs(seconds);
  const parts: string[] = [];
  for (const [unit, size] of OUTPUT) {
    const n = Math.floor(rest / size);
    if (n > 0) {
      parts.push(`${n}${unit}`);
      rest -= n * size;
    }
  }
  return `${seconds < 0 ? '-' : ''}${parts.join(' ')}`;
}
