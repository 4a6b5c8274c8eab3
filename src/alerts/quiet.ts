import type { QuietHours } from '../store/alert-store.js';

// Quiet hours: a range of the day in the person's Slack time zone during which alerts wait. `19:00-08:00` spans
// midnight; the end is not quiet any more (at 08:00 what waited goes out).

export type QuietCheck = { ok: true; value: QuietHours } | { ok: false; problem: string };

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

function minutesOf(text: string): number | null {
  const m = TIME.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** `19:00-08:00` → minutes of the day; a clear problem for anything else. */
export function parseQuietHours(text: string): QuietCheck {
  const parts = text.trim().split('-');
  const [from, to] = parts.map((p) => minutesOf(p.trim()));
  if (parts.length !== 2 || from === null || from === undefined || to === null || to === undefined) {
    return { ok: false, problem: 'must be two times of the day as HH:MM-HH:MM, e.g. 19:00-08:00' };
  }
  if (from === to) return { ok: false, problem: 'starts and ends at the same time: give a range, e.g. 19:00-08:00' };
  return { ok: true, value: { from, to } };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `19:00-08:00`, as typed. */
export function formatQuietHours(q: QuietHours): string {
  const t = (m: number) => `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
  return `${t(q.from)}-${t(q.to)}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes since midnight at `at` in `zone` (UTC when the zone is unknown). */
export function minuteOfDay(at: Date, zone: string): number {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', hour: 'numeric', minute: 'numeric' });
    } catch {
      f = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hourCycle: 'h23', hour: 'numeric', minute: 'numeric' });
    }
    if (formatters.size > 1000) formatters.clear();
    formatters.set(zone, f);
  }
  let hour = 0;
  let minute = 0;
  for (const p of f.formatToParts(at)) {
    if (p.type === 'hour') hour = Number(p.value) % 24;
    else if (p.type === 'minute') minute = Number(p.value);
  }
  return hour * 60 + minute;
}

export function isQuiet(q: QuietHours | null, at: Date, zone: string): boolean {
  if (!q) return false;
  const m = minuteOfDay(at, zone);
  return q.from < q.to ? m >= q.from && m < q.to : m >= q.from || m < q.to;
}
