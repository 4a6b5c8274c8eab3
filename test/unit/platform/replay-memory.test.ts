import { describe, expect, it } from 'vitest';
import { createReplayMemory, SIGNING_WINDOW_SEC } from '../../../src/listeners/request-guard.js';

describe('the memory of signatures', () => {
  it('knows a signature again within the signing window, and forgets it after', () => {
    const m = createReplayMemory();
    expect(m.seenBefore('v0=a', 1000, 1000)).toBe(false);
    expect(m.seenBefore('v0=a', 1000, 1000 + SIGNING_WINDOW_SEC)).toBe(true);
    // Past the window the timestamp alone refuses the request; the entry is swept.
    expect(m.seenBefore('v0=b', 2000, 1000 + SIGNING_WINDOW_SEC + 1)).toBe(false);
    expect(m.size).toBe(1);
  });

  it('stays within its bound, dropping the oldest', () => {
    const m = createReplayMemory(3);
    for (const sig of ['a', 'b', 'c', 'd']) m.seenBefore(sig, 1000, 1000);
    expect(m.size).toBe(3);
    expect(m.seenBefore('a', 1000, 1000)).toBe(false);
    expect(m.seenBefore('d', 1000, 1000)).toBe(true);
  });

  it('tells signatures apart by all their digits, remembered in a compact form', () => {
    const m = createReplayMemory();
    const first = 'ab'.repeat(32);
    const lastDigitDiffers = `${'ab'.repeat(31)}ac`;
    expect(m.seenBefore(first, 1000, 1000)).toBe(false);
    expect(m.seenBefore(lastDigitDiffers, 1000, 1000)).toBe(false);
    expect(m.seenBefore(first, 1000, 1000)).toBe(true);
    expect(m.seenBefore(lastDigitDiffers, 1000, 1000)).toBe(true);
    expect(m.size).toBe(2);
  });
});
