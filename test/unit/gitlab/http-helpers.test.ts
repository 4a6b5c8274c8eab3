import { describe, expect, it } from 'vitest';
import { parseRateLimit, parseRetryAfter } from '../../../src/gitlab/rate-limit.js';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
    expect(parseRetryAfter('0', now)).toBe(0);
  });

  it('reads an HTTP date as the time left until it', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });

  it('gives null for absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('-3', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
  });
});

describe('parseRateLimit', () => {
  it('reads the RateLimit-* headers', () => {
    expect(
      parseRateLimit({
        'ratelimit-limit': '600',
        'ratelimit-remaining': '598',
        'ratelimit-reset': '1767225600',
        'ratelimit-observed': '2',
      }),
    ).toEqual({ limit: 600, remaining: 598, reset: 1767225600, observed: 2 });
  });

  it('gives null when a response has none of them', () => {
    expect(parseRateLimit({ 'content-type': 'application/json' })).toBeNull();
  });
});
