import { cleanMessage, errorForStatus, ResponseShapeError, serverMessageOf, UnavailableError } from './errors.js';
import type { HeaderBag } from './paginate.js';
import { parseRetryAfter } from './rate-limit.js';

// When a failed attempt is tried again, after how long, and what a call that gives up rejects with. Shared by the
// transport's two paths (answers read whole over node:http, downloads over got), so both behave alike.

/** One call's own facts: they outlive each attempt. */
export interface Call {
  where: { method: string; path: string };
  token: string;
  /** Epoch ms (the transport's clock) when the call began: the time budget counts from here. */
  started: number;
}

/** How an attempt failed: an answer that is no success, a success that is not JSON, no answer in time, no answer. */
export type Failure =
  | { kind: 'status'; status: number; headers: HeaderBag; body: string }
  | { kind: 'not-json'; status: number }
  | { kind: 'timeout'; ms: number }
  | { kind: 'network'; code: string | undefined };

export interface RetryPolicy {
  /** Retries after the first attempt. */
  limit: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxTotalMs: number;
  /** Per attempt. */
  timeoutMs: number;
  random: () => number;
  now: () => number;
}

// Reads retry on these and on network failures and timeouts; writes only on a 429, which says it was not done.
const READ_STATUSES = new Set([429, 502, 503, 504]);
const NETWORK_CODES = new Set([
  'ETIMEDOUT',
  'ECONNRESET',
  'EADDRINUSE',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const NOT_JSON = [{ path: [], message: 'the body is not JSON' }];

export const isRead = (method: string) => method === 'GET' || method === 'HEAD';

const first = (value: string | readonly string[] | undefined) => (Array.isArray(value) ? value[0] : value) as string;

/** Whether this failure may be tried again at all (before the limit and the budget have their say). */
export function retryable(method: string, failure: Failure): boolean {
  if (failure.kind === 'status') return isRead(method) ? READ_STATUSES.has(failure.status) : failure.status === 429;
  if (failure.kind === 'not-json' || !isRead(method)) return false;
  return failure.kind === 'timeout' || NETWORK_CODES.has(failure.code ?? '');
}

/**
 * The wait before the next attempt and the time that attempt gets, or null to give up: the server's Retry-After,
 * else an exponential step with jitter; a wait that would overrun the call's budget is not taken, and the next
 * attempt gets no more time than is left of it.
 */
export function nextAttempt(
  p: RetryPolicy,
  call: Call,
  attempt: number,
  failure: Failure,
): { waitMs: number; timeoutMs: number } | null {
  const step = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** (attempt - 1));
  const retryAfter = failure.kind === 'status' ? parseRetryAfter(first(failure.headers['retry-after']), p.now()) : null;
  const wait = retryAfter ?? Math.round(step / 2 + (p.random() * step) / 2);
  const left = p.maxTotalMs - (p.now() - call.started) - wait;
  if (left <= 0) return null;
  return { waitMs: wait, timeoutMs: Math.min(p.timeoutMs, left) };
}

/** What a call that gives up rejects with: a GitlabError, the server's words scrubbed of the token. */
export function failureError(call: Call, failure: Failure, attempts: number, now: number): Error {
  const { where, token } = call;
  switch (failure.kind) {
    case 'not-json':
      return new ResponseShapeError({ ...where, status: failure.status, issues: NOT_JSON });
    case 'status': {
      const retryAfterMs = parseRetryAfter(first(failure.headers['retry-after']), now);
      const retryAfterSeconds = retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000);
      const serverMessage = serverMessageOf(failure.body, [token]);
      return errorForStatus({ ...where, status: failure.status, serverMessage, retryAfterSeconds, attempts });
    }
    case 'timeout':
      return new UnavailableError({
        ...where,
        status: null,
        reason: 'timeout',
        message: `GitLab did not answer ${where.method} ${where.path} within ${failure.ms} ms`,
      });
    case 'network': {
      const why = cleanMessage(failure.code ?? '', [token]) ?? 'network error';
      return new UnavailableError({
        ...where,
        status: null,
        reason: 'network',
        message: `GitLab could not be reached for ${where.method} ${where.path} (${why})`,
      });
    }
  }
}
