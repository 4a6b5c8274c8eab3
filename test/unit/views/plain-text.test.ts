import { describe, expect, it } from 'vitest';
import { plainText } from '../../../src/views/mrkdwn.js';

describe('plain text (headers, buttons, file titles)', () => {
  it('breaks up everything that could start an entity, and leaves the rest as it reads', () => {
    const out = plainText('Job <!channel> <@U1> <#C1> <https://evil.example|click> a < b > c');
    expect(out).not.toMatch(/<[!@#A-Za-z]/);
    expect(out.replace(/\u200b/g, '')).toBe('Job <!channel> <@U1> <#C1> <https://evil.example|click> a < b > c');
  });
});
