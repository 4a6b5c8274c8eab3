import { describe, expect, it } from 'vitest';
import { findKeyProblems } from '../../../src/store/key-check.js';

const census = (byKey: Record<string, number>, previousKeyId: string | null = null, resealed = 0) => ({
  byKey: new Map(Object.entries(byKey)),
  currentKeyId: 'cur',
  previousKeyId,
  resealed,
});

describe('what the stored tokens say about the keys', () => {
  it('says nothing when every token is under the current key', () => {
    expect(findKeyProblems(census({ cur: 3 }))).toEqual([]);
  });

  it('names TOKEN_ENCRYPTION_KEY and the remedy for tokens under another key', () => {
    const [f] = findKeyProblems(census({ cur: 1, old: 2 }));
    expect(f?.level).toBe('warn');
    expect(f?.message).toMatch(/^2 stored tokens were sealed under another key than TOKEN_ENCRYPTION_KEY/);
    expect(f?.message).toContain('set the old key back as TOKEN_ENCRYPTION_KEY');
    expect(f?.fields).toEqual({ unreadable: 2, total: 3, keyIds: ['old'] });
  });

  it('names TOKEN_ENCRYPTION_KEY_PREVIOUS when it does not match the tokens', () => {
    const [f] = findKeyProblems(census({ old: 1 }, 'wrong'));
    expect(f?.message).toMatch(/^1 stored token was sealed under a key that is neither/);
    expect(f?.message).toContain('TOKEN_ENCRYPTION_KEY_PREVIOUS is probably not the key used before');
  });

  it('counts tokens the previous key did not open as damaged, and says when the previous key can go', () => {
    expect(findKeyProblems(census({ cur: 2, prev: 1 }, 'prev', 3))[0]?.message).toMatch(/^1 stored token under/);
    expect(findKeyProblems(census({ cur: 2 }, 'prev', 0))).toEqual([
      expect.objectContaining({ level: 'info', message: expect.stringMatching(/can be removed/) }),
    ]);
    expect(findKeyProblems(census({ cur: 2 }, 'prev', 2))).toEqual([]);
  });
});
