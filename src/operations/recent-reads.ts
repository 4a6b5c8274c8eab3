// The latest read per key, served again for a short while by the request clock (never the wall clock, so tests
// and replays see what the request saw). A read still under way is shared; one that fails, or that `keep` turns
// down, is not served again. At most `max` keys are kept: the least recently read go first.

export interface RecentReads<T> {
  /** The read of `key` made less than `ttlMs` before `now`, else a new one (always a new one when `fresh`). */
  get(key: string, now: Date, read: () => Promise<T>, options?: { fresh?: boolean }): Promise<T>;
  forget(key: string): void;
  readonly size: number;
}

export function createRecentReads<T>(options: {
  ttlMs: number;
  max: number;
  keep?: (value: T) => boolean;
}): RecentReads<T> {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  const drop = (key: string, value: Promise<T>) => {
    if (entries.get(key)?.value === value) entries.delete(key);
  };
  return {
    get(key, now, read, { fresh = false } = {}) {
      const t = now.getTime();
      const hit = entries.get(key);
      // A clock that went back (a test's, or a corrected one) does not make an old read new.
      if (!fresh && hit && t >= hit.at && t - hit.at < options.ttlMs) return hit.value;
      const value = read();
      entries.delete(key);
      entries.set(key, { at: t, value });
      while (entries.size > options.max) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
      value.then(
        (v) => {
          if (options.keep && !options.keep(v)) drop(key, value);
        },
        () => drop(key, value),
      );
      return value;
    },
    forget(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
