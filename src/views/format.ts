import { esc, Md, md } from './mrkdwn.js';

// Dates and sizes as people read them: the one place a time becomes text. Views get `now` and who reads the time
// injected; nothing here reads the clock.
//
// Who reads a time decides how it is drawn (`Readers`). One person (an ephemeral answer, a DM, their Home tab) reads
// it in their own zone. A shared message (a card in a channel, which anyone there may click and have redrawn, a link
// preview, a digest post) is read by many: its times are Slack's own date markup, which each reader's client draws
// in that reader's zone, with a fallback that names its zone (for notifications and clients that do not format
// dates). That text depends on nobody's zone, so a redraw by whoever clicked never moves a time.

// Building an Intl.DateTimeFormat costs far more than formatting with one, and a card formats several times: one
// per zone, kept. A zone Intl refuses throws on building, as before, and is not kept. Bounded by the zones people have.
const absoluteFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_ZONES = 1000;

function absoluteFormat(timeZone: string): Intl.DateTimeFormat {
  let f = absoluteFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    if (absoluteFormats.size >= MAX_ZONES) absoluteFormats.clear();
    absoluteFormats.set(timeZone, f);
  }
  return f;
}

/** "3 Mar 2026, 14:02" in the given zone: the absolute half of the house style. */
export function formatAbsolute(date: Date, timeZone = 'UTC'): string {
  // The first part of each type, as Intl gives them.
  let day: string | undefined;
  let month: string | undefined;
  let year: string | undefined;
  let hour: string | undefined;
  let minute: string | undefined;
  for (const p of absoluteFormat(timeZone).formatToParts(date)) {
    if (p.type === 'day') day ??= p.value;
    else if (p.type === 'month') month ??= p.value;
    else if (p.type === 'year') year ??= p.value;
    else if (p.type === 'hour') hour ??= p.value;
    else if (p.type === 'minute') minute ??= p.value;
  }
  return `${day ?? ''} ${month ?? ''} ${year ?? ''}, ${hour ?? ''}:${minute ?? ''}`;
}

/** "3 Mar 2026, 14:02 Europe/Berlin": an absolute time that names its zone (headers, notices). */
export function formatDateTime(date: Date, timeZone = 'UTC'): string {
  return `${formatAbsolute(date, timeZone)} ${timeZone}`;
}

/** Who reads a time: one person (in `timeZone`, UTC said so when unknown), or everyone who reads a shared message. */
export interface Readers {
  now: Date;
  /** The one reader's IANA zone. */
  timeZone?: string | undefined;
  /** Read by many (posted in a channel, or redrawn there by anyone's click): Slack draws it in each reader's zone. */
  shared?: boolean | undefined;
}

/**
 * Slack's date markup: each reader's client shows "Mar 3, 2026 at 2:02 PM" (or "Yesterday at …") in their own zone;
 * the fallback is the house style in `fallbackZone`, which it names.
 */
export function slackDate(date: Date, fallbackZone = 'UTC'): Md {
  const epoch = Math.floor(date.getTime() / 1000);
  const fallback = formatDateTime(date, fallbackZone).replace(/[|>]/g, ' ');
  return Md.trusted(`<!date^${epoch}^{date_short_pretty} {time}|${esc(fallback).text}>`);
}

/** The absolute half: in the one reader's zone (naming it when `named`, or when it is unknown), else Slack's markup. */
function absoluteFor(date: Date, r: Readers, named: boolean): Md {
  if (r.shared) return slackDate(date);
  if (!r.timeZone) return esc(formatDateTime(date));
  return esc(named ? formatDateTime(date, r.timeZone) : formatAbsolute(date, r.timeZone));
}

/** An absolute time that says its zone, for its readers: "3 Mar 2026, 14:02 Europe/Berlin" to one person. */
export function drawDateTime(date: Date, r: Readers): Md {
  return absoluteFor(date, r, true);
}

/**
 * The house style for a time on a card or row: "3 Mar 2026, 14:02 · 2 months ago", absolute for its readers and
 * relative to an injected now. Without a zone or a shared audience the absolute half says UTC, so it is never misread.
 */
export function drawWhen(date: Date, r: Readers): Md {
  // Something the server made a moment ago may carry a time a little ahead of the bot's clock.
  const relative = Math.abs(date.getTime() - r.now.getTime()) < 60_000 ? 'just now' : formatRelative(date, r.now);
  return md`${absoluteFor(date, r, false)} · ${relative}`;
}

/**
 * A planned time (a next run): "in under a minute" when it is that close, and "due now" once it has passed but has
 * not run yet, where a time the server reported would say "just now".
 */
export function drawUpcoming(date: Date, r: Readers): Md {
  const ahead = date.getTime() - r.now.getTime();
  const relative = ahead <= 0 ? 'due now' : ahead < 60_000 ? 'in under a minute' : formatRelative(date, r.now);
  return md`${absoluteFor(date, r, false)} · ${relative}`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return 'unknown size';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

/** 75 → "1m 15s"; 3725 → "1h 2m 5s". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h}h ${m}m ${rest}s`;
  if (m > 0) return `${m}m ${rest}s`;
  return `${rest}s`;
}

const DAY = 86_400;

/** "3 minutes ago", "in 2 hours", "2 months ago", "10 years ago", relative to an injected now. */
export function formatRelative(date: Date, now: Date): string {
  const diff = Math.round((date.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(diff);
  const months = Math.round(abs / (30.44 * DAY));
  const [n, unit] =
    abs < 60
      ? [abs, 'second']
      : abs < 3600
        ? [Math.round(abs / 60), 'minute']
        : abs < DAY
          ? [Math.round(abs / 3600), 'hour']
          : abs < 31 * DAY
            ? [Math.round(abs / DAY), 'day']
            : months < 12
              ? [months, 'month']
              : [Math.max(1, Math.round(abs / (365.25 * DAY))), 'year'];
  const label = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return diff >= 0 ? `in ${label}` : `${label} ago`;
}
