// A small cache of lookups that only save a read: an entry is fresh for `ttlMs`, and when more than `maxEntries`
// are kept the least recently stored one goes. Time is the caller's (`now` in milliseconds), so the request's
// clock decides what is fresh; an entry stored "later" than now (a clock set back) is read again.

export interface TtlCache<V> {
  /** The value stored for `key`, while it is fresh. */
  get(key: string, now: number): V | undefined;
  set(key: string, value: V, now: number): void;
  /** Forgets `key` (what it stood for changed). */
  delete(key: string): void;
}

export function createTtlCache<V>(o: { ttlMs: number; maxEntries: number }): TtlCache<V> {
  const entries = new Map<string, { value: V; at: number }>();
  return {
    get(key, now) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      const age = now - hit.at;
      return age >= 0 && age < o.ttlMs ? hit.value : undefined;
    },
    set(key, value, now) {
      entries.delete(key); // stored again: it moves to the newest end
      entries.set(key, { value, at: now });
      if (entries.size > o.maxEntries) entries.delete(entries.keys().next().value as string);
    },
    delete(key) {
      entries.delete(key);
    },
  };
}
