// A 5-field cron calculator (minute hour day-of-month month day-of-week) for
// pipeline schedules' `next_run_at`. Lists, ranges, steps and month/day names
// are supported; when both day fields are restricted a day matches either of
// them (the Vixie cron rule GitLab follows). Times are wall-clock times in the
// schedule's IANA zone, converted with Intl so daylight saving is honoured:
// a time that does not exist on a spring-forward day is skipped, and an
// ambiguous autumn time runs at its first occurrence.

export interface CronSpec {
  minutes: number[];
  hours: number[];
  daysOfMonth: Set<number>;
  months: Set<number>;
  daysOfWeek: Set<number>;
  domRestricted: boolean;
  dowRestricted: boolean;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldDef {
  min: number;
  max: number;
  names?: string[];
  namesOffset?: number;
}

const FIELDS: FieldDef[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES, namesOffset: 1 },
  { min: 0, max: 7, names: DAY_NAMES, namesOffset: 0 },
];

function parseValue(text: string, def: FieldDef): number | null {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= def.min && n <= def.max ? n : null;
  }
  if (def.names) {
    const i = def.names.indexOf(text.toLowerCase());
    if (i >= 0) return i + (def.namesOffset ?? 0);
  }
  return null;
}

function parseField(text: string, def: FieldDef): number[] | null {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(item);
    if (!m) return null;
    const base = m[1] ?? '';
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) return null;
    let lo: number;
    let hi: number;
    if (base === '*') {
      lo = def.min;
      hi = def.max;
    } else if (base.includes('-')) {
      const [a, b, extra] = base.split('-');
      if (extra !== undefined || a === undefined || b === undefined) return null;
      const av = parseValue(a, def);
      const bv = parseValue(b, def);
      if (av === null || bv === null || av > bv) return null;
      lo = av;
      hi = bv;
    } else {
      const v = parseValue(base, def);
      if (v === null) return null;
      lo = v;
      hi = m[2] === undefined ? v : def.max;
    }
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return [...out].sort((a, b) => a - b);
}

/** The parsed expression, or null when it is not valid 5-field cron. */
export function parseCron(expression: string): CronSpec | null {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) return null;
  const fields: number[][] = [];
  for (let i = 0; i < 5; i++) {
    const f = parseField(parts[i] ?? '', FIELDS[i] as FieldDef);
    if (!f || f.length === 0) return null;
    fields.push(f);
  }
  const [minutes, hours, doms, months, dows] = fields as [number[], number[], number[], number[], number[]];
  return {
    minutes,
    hours,
    daysOfMonth: new Set(doms),
    months: new Set(months),
    // 7 is another name for Sunday
    daysOfWeek: new Set(dows.map((d) => (d === 7 ? 0 : d))),
    domRestricted: !(parts[2] ?? '').startsWith('*'),
    dowRestricted: !(parts[4] ?? '').startsWith('*'),
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether Intl knows the zone (GitLab accepts IANA names). */
export function isValidTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    formatterFor(zone);
    return true;
  } catch {
    return false;
  }
}

interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

function wallTime(instant: number, zone: string): WallTime {
  const parts = formatterFor(zone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

function offsetAt(instant: number, zone: string): number {
  const w = wallTime(instant, zone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  return asUtc - Math.floor(instant / 60_000) * 60_000;
}

/** The instant a wall-clock time happens in a zone, or null when it does not exist there. */
export function zonedTimeToInstant(w: WallTime, zone: string): number | null {
  const naive = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  const candidates = new Set([naive - offsetAt(naive, zone)]);
  // around a transition the offset at the guess may be the other one
  for (const probe of [naive - 3 * 3_600_000, naive + 3 * 3_600_000]) candidates.add(naive - offsetAt(probe, zone));
  const matching = [...candidates].filter((t) => {
    const back = wallTime(t, zone);
    return (
      back.year === w.year &&
      back.month === w.month &&
      back.day === w.day &&
      back.hour === w.hour &&
      back.minute === w.minute
    );
  });
  return matching.length ? Math.min(...matching) : null;
}

const DAY_MS = 86_400_000;
/** Feb 29 on a Monday can be 28 years away; leave room for that. */
const SEARCH_DAYS = 366 * 30;

/** The first run strictly after `after`, or null when the expression never fires. */
export function nextCronRun(spec: CronSpec, zone: string, after: Date): Date | null {
  const from = after.getTime();
  const start = wallTime(from, zone);
  const startDay = Date.UTC(start.year, start.month - 1, start.day);
  for (let d = 0; d < SEARCH_DAYS; d++) {
    const day = new Date(startDay + d * DAY_MS);
    const month = day.getUTCMonth() + 1;
    if (!spec.months.has(month)) continue;
    const domOk = spec.daysOfMonth.has(day.getUTCDate());
    const dowOk = spec.daysOfWeek.has(day.getUTCDay());
    const dayOk = spec.domRestricted && spec.dowRestricted ? domOk || dowOk : domOk && dowOk;
    if (!dayOk) continue;
    for (const hour of spec.hours) {
      if (d === 0 && hour < start.hour - 1) continue;
      for (const minute of spec.minutes) {
        const t = zonedTimeToInstant({ year: day.getUTCFullYear(), month, day: day.getUTCDate(), hour, minute }, zone);
        if (t !== null && t > from) return new Date(t);
      }
    }
  }
  return null;
}
