import type { HeaderBag } from './paginate.js';

/**
 * What a response's headers say about waiting: `Retry-After` and GitLab's `RateLimit-*`.
 * Pure parsing; the transport decides what to do with it.
 */

/** What the `RateLimit-*` headers of a response said (null per header that was absent). */
export interface RateLimit {
  limit: number | null;
  remaining: number | null;
  /** Epoch seconds at which the window resets. */
  reset: number | null;
  /** Requests the server counted in this window (GitLab's `RateLimit-Observed`). */
  observed: number | null;
}

/** `Retry-After` as milliseconds to wait: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return null;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

export function parseRateLimit(headers: HeaderBag): RateLimit | null {
  const read = (name: string): number | null => {
    const value = headers[name];
    const raw = Array.isArray(value) ? value[0] : value;
    if (raw === undefined || raw.trim() === '') return null;
    const n = Number(raw.trim());
    return Number.isFinite(n) ? n : null;
  };
  const rateLimit = {
    limit: read('ratelimit-limit'),
    remaining: read('ratelimit-remaining'),
    reset: read('ratelimit-reset'),
    observed: read('ratelimit-observed'),
  };
  return Object.values(rateLimit).some((v) => v !== null) ? rateLimit : null;
}
