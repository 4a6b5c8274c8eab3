import { describe, expect, it } from 'vitest';
import { AWARD_EMOJI_NAMES, closestAwardEmoji, isKnownAwardEmoji } from '../../../src/gitlab/emoji-names.js';
import { EMOJI_NAMES as SIMULATED } from '../../../src/sim/emoji.js';

// The emoji names the bot lets through to an award: every name the simulator (and so the demo) accepts,
// skin tones of known names, and the closest names for a typo.

describe('award emoji names', () => {
  it('knows every name the simulator accepts', () => {
    expect([...SIMULATED].filter((name) => !AWARD_EMOJI_NAMES.has(name))).toEqual([]);
  });

  it('knows skin tones of known names only', () => {
    expect(isKnownAwardEmoji('thumbsup_tone2')).toBe(true);
    expect(isKnownAwardEmoji('thumbsup_tone9')).toBe(false);
    expect(isKnownAwardEmoji('nosuchemoji_tone2')).toBe(false);
    expect(isKnownAwardEmoji('thumbsupp')).toBe(false);
  });

  it.each([
    ['thumbsupp', ['thumbsup']],
    ['thumbup', ['thumbsup']],
    ['thumbs', ['thumbsup', 'thumbsdown']],
    ['hart', ['heart', 'art', 'dart']],
    ['tadaa', ['tada']],
    ['smiel', ['smile', 'smirk', 'shield']],
    ['qqqqqqqqq', []],
    ['', []],
  ])('suggests the closest names for %j', (typed, names) => {
    expect(closestAwardEmoji(typed)).toEqual(names);
  });
});
