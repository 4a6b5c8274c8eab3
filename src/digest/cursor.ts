import crypto from 'node:crypto';
import type { Event } from '../gitlab/schemas.js';
import type { DigestCursor } from '../store/digest-store.js';

// What a digest has not posted yet. Real servers filter events by day only (`after` is a date) and 9.5 sends
// events without an id, so the cursor is the newest `created_at` posted plus the keys of what was posted at
// exactly that instant. Pure: the runner reads pages and asks this what is new and where to stop.

/**
 * A stable key for an event without relying on an id (old servers send none, and a server upgraded in between
 * would start sending them): the fields that never change once it happened. Titles are left out; they can change.
 */
export function eventKey(e: Event): string {
  const parts = [
    e.created_at ?? '',
    e.action_name,
    e.author_id,
    e.project_id ?? '',
    e.target_type ?? '',
    e.target_id ?? '',
    e.note?.id ?? '',
    e.push_data ? [e.push_data.action, e.push_data.ref, e.push_data.commit_to, e.push_data.commit_count].join('/') : '',
  ];
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

const timeOf = (e: Event): number | null => {
  if (!e.created_at) return null;
  const t = Date.parse(e.created_at);
  return Number.isNaN(t) ? null : t;
};

/**
 * The `after` parameter that still returns everything since the cursor: the server compares with the end of that
 * day in its own zone, which may be up to 14 hours off UTC, so two days before the cursor's UTC day.
 */
export function afterParam(cursor: DigestCursor): string {
  const t = Date.parse(cursor.at);
  return new Date(t - 2 * 86_400_000).toISOString().slice(0, 10);
}

/** Whether a page (newest first) reached events the cursor already covers, so no older page is needed. */
export function reachedCursor(page: readonly Event[], cursor: DigestCursor): boolean {
  const at = Date.parse(cursor.at);
  return page.some((e) => {
    const t = timeOf(e);
    return t !== null && t < at;
  });
}

export interface Collected {
  /** What was not posted yet, oldest first. */
  fresh: Event[];
  /** The cursor once these are posted. */
  next: DigestCursor;
}

/** Splits what was read (newest first, as the server lists them) into the events not posted yet and the cursor after posting them. */
export function collectNew(events: readonly Event[], cursor: DigestCursor): Collected {
  const at = Date.parse(cursor.at);
  // Keys posted at the cursor's instant, counted: two identical events without ids are two events.
  const posted = new Map<string, number>();
  for (const k of cursor.keys) posted.set(k, (posted.get(k) ?? 0) + 1);
  const fresh: { e: Event; t: number; key: string; i: number }[] = [];
  for (const [i, e] of events.entries()) {
    const t = timeOf(e);
    if (t === null || t < at) continue;
    const key = eventKey(e);
    if (t === at) {
      const left = posted.get(key) ?? 0;
      if (left > 0) {
        posted.set(key, left - 1);
        continue;
      }
    }
    fresh.push({ e, t, key, i });
  }
  // Oldest first; events of one instant keep the server's order reversed (it lists newest first).
  fresh.sort((a, b) => a.t - b.t || b.i - a.i);
  const newest = fresh.at(-1);
  if (!newest) return { fresh: [], next: cursor };
  const atNewest = fresh.filter((f) => f.t === newest.t).map((f) => f.key);
  const keys = newest.t === at ? [...cursor.keys, ...atNewest] : atNewest;
  return { fresh: fresh.map((f) => f.e), next: { at: new Date(newest.t).toISOString(), keys } };
}
