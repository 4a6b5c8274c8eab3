import type { PipelineBasic } from '../gitlab/schemas.js';
import type { WatchStatusFilter } from '../store/watch-store.js';

// What a poll makes of the newest pipelines, compared with the statuses remembered from the last one. Pure and
// cheap: a poll with nothing new costs one comparison of two short strings.

/** The statuses a pipeline ends in. */
const FINISHED = new Set(['success', 'failed', 'canceled']);

/** `id:status` of each pipeline of a page, newest first, as a watch remembers them. */
export function encodeSeen(items: readonly Pick<PipelineBasic, 'id' | 'status'>[]): string {
  let out = '';
  for (const p of items) out += `${out ? ' ' : ''}${p.id}:${p.status}`;
  return out;
}

export function decodeSeen(seen: string): Map<number, string> {
  const out = new Map<number, string>();
  if (!seen) return out;
  for (const part of seen.split(' ')) {
    const at = part.indexOf(':');
    if (at > 0) out.set(Number(part.slice(0, at)), part.slice(at + 1));
  }
  return out;
}

export interface PipelineDiff {
  changed: boolean;
  /** The statuses to remember from now on. */
  seen: string;
  /** Pipelines that finished since the last poll and are to be posted, oldest first. */
  finished: PipelineBasic[];
  /** Successes since the last poll: each fixes the failures of its ref up to it. */
  fixes: { ref: string; by: number }[];
}

export function diffPipelines({
  before,
  beforeText,
  items,
  floorId,
  filter,
}: {
  before: ReadonlyMap<number, string> | (() => ReadonlyMap<number, string>);
  beforeText: string;
  items: readonly PipelineBasic[];
  floorId: number;
  filter: WatchStatusFilter;
}): PipelineDiff {
  const seen = encodeSeen(items);
  if (seen === beforeText) return { changed: false, seen, finished: [], fixes: [] };
  const known = typeof before === 'function' ? before() : before;
  const finished: PipelineBasic[] = [];
  const fixes: { ref: string; by: number }[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const p = items[i] as PipelineBasic;
    const was = known.get(p.id);
    if (was === p.status) continue;
    // A pipeline older than the watch that the page shows again (newer ones were deleted) is not news.
    if (was === undefined && p.id <= floorId) continue;
    if (!FINISHED.has(p.status)) continue;
    if (p.status === 'failed' || filter === 'finished') finished.push(p);
    if (p.status === 'success') fixes.push({ ref: p.ref, by: p.id });
  }
  return { changed: true, seen, finished, fixes };
}

/**
 * When a watch is polled next: a minute after it was due, keeping its place in the minute (so that watches stay
 * spread over it); a poll that came late skips the slots it missed rather than crowding the next ones.
 */
export function nextPollOf(due: Date, now: Date, intervalMs: number): Date {
  const behind = now.getTime() - due.getTime();
  const slots = behind < 0 ? 0 : Math.floor(behind / intervalMs) + 1;
  return new Date(due.getTime() + slots * intervalMs);
}
