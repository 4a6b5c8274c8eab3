import { describe, expect, it } from 'vitest';
import { createRecentReads } from '../../../src/operations/recent-reads.js';

// The Home tab's short memory of a person's reads, on the request clock.

const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 10, 0, s));

function counter() {
  let reads = 0;
  return {
    read:
      (value = 'ok') =>
      () => {
        reads += 1;
        return Promise.resolve(value);
      },
    get reads() {
      return reads;
    },
  };
}

describe('recent reads', () => {
  it('serve a read again within the time to live, and read again after it, or when asked to', async () => {
    const recent = createRecentReads<string>({ ttlMs: 10_000, max: 10 });
    const c = counter();
    expect(await recent.get('alice', at(0), c.read('first'))).toBe('first');
    expect(await recent.get('alice', at(9), c.read('second'))).toBe('first');
    expect(c.reads).toBe(1);
    expect(await recent.get('alice', at(10), c.read('third'))).toBe('third');
    expect(await recent.get('alice', at(11), c.read('fourth'), { fresh: true })).toBe('fourth');
    expect(c.reads).toBe(3);
  });

  it('share a read still under way, and keep nothing that failed or that `keep` turns down', async () => {
    const recent = createRecentReads<string>({ ttlMs: 10_000, max: 10, keep: (v) => v !== 'partial' });
    let release: (v: string) => void = () => {};
    const slow = new Promise<string>((resolve) => {
      release = resolve;
    });
    const first = recent.get('alice', at(0), () => slow);
    const second = recent.get('alice', at(1), () => Promise.resolve('other'));
    release('done');
    expect(await first).toBe('done');
    expect(await second).toBe('done');

    await expect(recent.get('bob', at(0), () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await recent.get('bob', at(1), () => Promise.resolve('up'))).toBe('up');

    expect(await recent.get('eve', at(0), () => Promise.resolve('partial'))).toBe('partial');
    await Promise.resolve();
    expect(await recent.get('eve', at(1), () => Promise.resolve('whole'))).toBe('whole');
  });

  it('forget a key, do not serve a read to a clock that went back, and keep at most `max` keys', async () => {
    const recent = createRecentReads<string>({ ttlMs: 10_000, max: 2 });
    const c = counter();
    await recent.get('alice', at(5), c.read());
    recent.forget('alice');
    await recent.get('alice', at(6), c.read());
    expect(c.reads).toBe(2);
    await recent.get('alice', at(1), c.read());
    expect(c.reads).toBe(3);
    await recent.get('bob', at(1), c.read());
    await recent.get('eve', at(1), c.read());
    expect(recent.size).toBe(2);
    // alice was read least recently: she went first.
    await recent.get('alice', at(2), c.read());
    expect(c.reads).toBe(6);
  });
});
