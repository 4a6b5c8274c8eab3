import { describe, expect, it } from 'vitest';
import { emojiMd } from '../../../src/views/emoji.js';

// GitLab's emoji names that Slack lacks must never reach Slack as a `:shortcode:` it shows as text.

describe('emojiMd', () => {
  it('keeps a name Slack shares as its shortcode', () => {
    expect(emojiMd('thumbsup').text).toBe(':thumbsup:');
    expect(emojiMd('+1').text).toBe(':+1:');
  });

  it('draws a GitLab-only name as its Unicode character', () => {
    expect(emojiMd('mood_bubble_lightning').text).toBe('🗯');
    expect(emojiMd('slight_smile').text).toBe('🙂');
    expect(emojiMd('thinking').text).toBe('🤔');
  });

  it("turns GitLab's skin tones into Slack's", () => {
    expect(emojiMd('thumbsup_tone2').text).toBe(':thumbsup::skin-tone-3:');
    expect(emojiMd('vulcan_tone1').text).toBe('🖖');
  });

  it('writes a name neither side is known to draw in words, escaped', () => {
    expect(emojiMd('party-parrot').text).toBe('party parrot');
    expect(emojiMd('a<b>_c').text).toBe('a&lt;b&gt; c');
  });
});
