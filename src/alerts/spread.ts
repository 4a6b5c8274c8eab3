// Where each person's poll falls in the minute: at an offset of their own (a stable hash of their key), so that
// thousands of people polled every minute are polled evenly across it, not all at its start, and every replica
// agrees on when each of them is due.

/** FNV-1a of the key, into [0, intervalMs): the same in every process, cheap. */
export function offsetOf(key: string, intervalMs: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % intervalMs;
}

/**
 * The next poll of `key`, whose poll was due at `due` and ran at `at`: its own offset, in the first interval after
 * both `at` and half an interval past `due`. A poll on time comes again an interval later; one that ran late skips
 * the slots it missed rather than crowding the next ones; one due at some other moment (just turned on, resumed,
 * the first pass after a start) moves into its slot without being polled twice within half an interval.
 */
export function nextSpreadPoll(key: string, due: Date, at: Date, intervalMs: number): Date {
  const after = Math.max(at.getTime(), due.getTime() + intervalMs / 2);
  const offset = offsetOf(key, intervalMs);
  const slot = Math.floor((after - offset) / intervalMs) * intervalMs + offset;
  return new Date(slot + intervalMs);
}
