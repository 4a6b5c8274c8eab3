import { describe, expect, it } from 'vitest';
import { createTtlCache } from '../../../src/ttl-cache.js';

describe('the TTL cache', () => {
  it('keeps a value fresh for its time to live, then reads as missing', () => {
    const cache = createTtlCache<string>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', 'one', 5000);
    expect(cache.get('a', 5000)).toBe('one');
    expect(cache.get('a', 5999)).toBe('one');
    expect(cache.get('a', 6000)).toBeUndefined();
    expect(cache.get('b', 5000)).toBeUndefined();
  });

  it('reads an entry stored later than now (a clock set back) as missing', () => {
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', 1, 5000);
    expect(cache.get('a', 4999)).toBeUndefined();
  });

  it('drops the least recently stored entry when it holds more than its bound', () => {
    const cache = createTtlCache<number>({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('a', 3, 0); // stored again: now the newest
    cache.set('c', 4, 0);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([3, undefined, 4]);
  });

  it('keeps false and 0 as values, not as misses', () => {
    const cache = createTtlCache<boolean | number>({ ttlMs: 1000, maxEntries: 10 });
    cache.set('no', false, 0);
    cache.set('zero', 0, 0);
    expect(cache.get('no', 1)).toBe(false);
    expect(cache.get('zero', 1)).toBe(0);
  });
});
