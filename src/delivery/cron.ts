import { parse, validate } from 'node-cron';

// When a digest runs: 5-field cron (so at most once a minute) in an IANA zone. The schedule itself is node-cron's
// (src/digest/scheduler.ts); this computes the same times without a task, for "next run" in lists, for catch-up
// after a restart and for tests. It follows node-cron's rules: day of month AND day of week must both match, a
// local time skipped by a daylight-saving jump does not run, a repeated one runs once (the first).

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

/** How far ahead a schedule must have a run; beyond that it is refused as one that never runs. */
const SEARCH_DAYS = 366 * 30;

export function checkCron(text: string): Checked<string> {
  const fields = text.trim().split(/\s+/);
  const expression = fields.join(' ');
  let valid = false;
  try {
    valid = fields.length === 5 && validate(expression);
  } catch {
    valid = false;
  }
  if (!valid)
    return { ok: false, problem: 'must be a cron expression of 5 fields: minute hour day-of-month month weekday' };
  if (nextRunAfter(expression, 'UTC', new Date(Date.UTC(2000, 0, 1))) === null) {
    return { ok: false, problem: 'never matches a day of the calendar' };
  }
  return { ok: true, value: expression };
}

export function checkZone(text: string): Checked<string> {
  try {
    if (!/^[A-Za-z][A-Za-z0-9_+/-]*$/.test(text)) throw new Error('not a zone name');
    new Intl.DateTimeFormat('en-US', { timeZone: text });
    return { ok: true, value: text };
  } catch {
    return { ok: false, problem: 'must be an IANA time zone, e.g. Europe/Berlin' };
  }
}

interface Fields {
  minutes: number[];
  hours: number[];
  days: (number | string)[];
  months: number[];
  weekdays: (number | string)[];
}

const fieldCache = new Map<string, Fields>();

function fieldsOf(expression: string): Fields {
  let f = fieldCache.get(expression);
  if (!f) {
    const p = parse(expression);
    f = {
      minutes: [...p.minute].sort((a, b) => a - b),
      hours: [...p.hour].sort((a, b) => a - b),
      days: p.dayOfMonth,
      months: p.month,
      weekdays: p.dayOfWeek.map((d) => (d === 7 ? 0 : d)),
    };
    if (fieldCache.size > 1000) fieldCache.clear();
    fieldCache.set(expression, f);
  }
  return f;
}

// ── calendar rules (node-cron's: L, nW, LW, L-n in the day of month; n#k, nL in the weekday) ───────────────

const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
const weekdayOf = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();

function nearestWeekday(y: number, m: number, target: number): number {
  const last = lastDay(y, m);
  if (target < 1 || target > last) return -1;
  const wd = weekdayOf(y, m, target);
  if (wd === 6) return target === 1 ? target + 2 : target - 1;
  if (wd === 0) return target === last ? target - 2 : target + 1;
  return target;
}

function dayMatches(
  field: (number | string)[],
  { year, month, day }: { year: number; month: number; day: number },
): boolean {
  for (const v of field) {
    if (v === day) return true;
    if (typeof v !== 'string') continue;
    if (v === 'L' && day === lastDay(year, month)) return true;
    const w = /^(\d{1,2}|L)W$/.exec(v);
    if (w && nearestWeekday(year, month, w[1] === 'L' ? lastDay(year, month) : Number(w[1])) === day) return true;
    const off = /^L-(\d{1,2})$/.exec(v);
    if (off && lastDay(year, month) - Number(off[1]) === day) return true;
  }
  return false;
}

function weekdayMatches(
  field: (number | string)[],
  { year, month, day }: { year: number; month: number; day: number },
): boolean {
  const wd = weekdayOf(year, month, day);
  for (const v of field) {
    if (v === wd) return true;
    if (typeof v !== 'string') continue;
    const nth = /^([0-7])#([1-5])$/.exec(v);
    if (nth && Number(nth[1]) % 7 === wd && Math.floor((day - 1) / 7) + 1 === Number(nth[2])) return true;
    const last = /^([0-7])L$/i.exec(v);
    if (last && Number(last[1]) % 7 === wd && day + 7 > lastDay(year, month)) return true;
  }
  return false;
}

// ── local times in a zone ─────────────────────────────────────────────────────────────────────────────────

interface Local {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function localOf(at: Date, zone: string): Local {
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    partsFormatters.set(zone, f);
  }
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(at)) if (p.type !== 'literal') out[p.type] = Number(p.value);
  return {
    year: out.year ?? 0,
    month: out.month ?? 0,
    day: out.day ?? 0,
    hour: (out.hour ?? 0) % 24,
    minute: out.minute ?? 0,
  };
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(at: number, zone: string): number {
  const l = localOf(new Date(at), zone);
  const asUtc = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute);
  return Math.round((asUtc - Math.floor(at / 60_000) * 60_000) / 60_000);
}

const sameLocal = (a: Local, b: Local) =>
  a.year === b.year && a.month === b.month && a.day === b.day && a.hour === b.hour && a.minute === b.minute;

/**
 * The instant node-cron gives a local time: the offset at the naive UTC reading, corrected once. A repeated time
 * (clocks going back) comes out as node-cron runs it; a skipped one comes out as a time the caller must check.
 */
function instantOf(l: Local, zone: string): number {
  const guess = Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute);
  const first = offsetMinutes(guess, zone);
  const c1 = guess - first * 60_000;
  const second = offsetMinutes(c1, zone);
  if (second === first) return c1;
  const c2 = guess - second * 60_000;
  if (sameLocal(localOf(new Date(c1), zone), l)) return c1;
  if (sameLocal(localOf(new Date(c2), zone), l)) return c2;
  return Math.max(c1, c2);
}

function matches(f: Fields, l: Local): boolean {
  return (
    f.minutes.includes(l.minute) &&
    f.hours.includes(l.hour) &&
    f.months.includes(l.month) &&
    dayMatches(f.days, l) &&
    weekdayMatches(f.weekdays, l)
  );
}

// Digests sharing a schedule ask for the same next run thousands of times a minute: the last answer per schedule
// holds for any time from where it was asked up to the run it named.
const lastAnswers = new Map<string, { from: number; next: Date | null }>();

/** The first run strictly after `after`, or null when the schedule has none within the next 30 years. */
export function nextRunAfter(expression: string, zone: string, after: Date): Date | null {
  const key = `${expression} ${zone}`;
  const at = after.getTime();
  const hit = lastAnswers.get(key);
  if (hit && at >= hit.from && hit.next !== null && at < hit.next.getTime()) return hit.next;
  const next = searchNextRun(expression, zone, after);
  if (lastAnswers.size > 1000) lastAnswers.clear();
  lastAnswers.set(key, { from: at, next });
  return next;
}

function searchNextRun(expression: string, zone: string, after: Date): Date | null {
  const f = fieldsOf(expression);
  const start = localOf(after, zone);
  let day = new Date(Date.UTC(start.year, start.month - 1, start.day));
  for (let i = 0; i < SEARCH_DAYS; i++, day = new Date(day.getTime() + 86_400_000)) {
    const y = day.getUTCFullYear();
    const m = day.getUTCMonth() + 1;
    const d = day.getUTCDate();
    if (
      !f.months.includes(m) ||
      !dayMatches(f.days, { year: y, month: m, day: d }) ||
      !weekdayMatches(f.weekdays, { year: y, month: m, day: d })
    )
      continue;
    for (const hour of f.hours) {
      for (const minute of f.minutes) {
        const t = instantOf({ year: y, month: m, day: d, hour, minute }, zone);
        if (t > after.getTime() && matches(f, localOf(new Date(t), zone))) return new Date(t);
      }
    }
  }
  return null;
}
