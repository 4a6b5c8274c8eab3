import type { Agent as HttpAgent } from 'node:http';
import type { Agent as HttpsAgent } from 'node:https';
import type { Method, NormalizedOptions, Options, PlainResponse, Request, RequestError, RetryObject } from 'got';
import got, { HTTPError, ParseError, TimeoutError } from 'got';
import type { HeaderBag } from './paginate.js';
import { type Call, type Failure, failureError } from './retry.js';

// Downloads (artifacts, and traces read only up to their first bytes): got, for its streams, its timeouts per step
// and its redirects. The retry rules and the errors are the transport's own (retry.ts), reached through got's hooks.

/** What an attempt left behind: the headers of its answer, or what went wrong when there was none. */
export interface AttemptFacts {
  headers?: HeaderBag | undefined;
  error?: string | undefined;
}

export interface DownloadHooks {
  /** Every attempt ends here once, answered or not. */
  ended(call: Call, attempt: number, startedAt: number, status: number | null, more: AttemptFacts): void;
  /** The next attempt after a failure, or null to give up. */
  next(call: Call, attempt: number, failure: Failure): { waitMs: number; timeoutMs: number } | null;
  now(): number;
}

export type OpenDownload = (
  path: string,
  call: Call,
  headers: Record<string, string>,
) => Promise<{ answer: PlainResponse; body: Request }>;

const callOf = (options: Options): Call => options.context.call as Call;
// got's own rules: it asks calculateDelay only when these allow a retry.
const READS = { methods: ['GET', 'HEAD'] as Method[], statusCodes: [429, 502, 503, 504] };
/** A download may outlast one attempt: each step up to its headers is bounded, then any silence (TLS, stalls). */
const stepTimeouts = (t: number) => ({ request: undefined, lookup: t, connect: t, response: t, socket: t });

/** GitLab's token must not follow a redirect to another origin (artifacts may redirect to object storage). */
function dropTokenAcrossOrigins(options: NormalizedOptions, response: PlainResponse): void {
  if (new URL(String(options.url)).origin !== new URL(response.url).origin) delete options.headers['private-token'];
}

/** A failed got attempt, said the way the shared retry rules read it. */
function failureOf(error: RequestError): Failure {
  if (error instanceof ParseError) return { kind: 'not-json', status: error.response.statusCode };
  if (error instanceof HTTPError) {
    const { statusCode: status, headers, rawBody } = error.response;
    return { kind: 'status', status, headers, body: rawBody?.toString('utf8') ?? '' };
  }
  const ms = error instanceof TimeoutError ? (error.options.timeout as Record<string, number>)[error.event] : 0;
  return ms ? { kind: 'timeout', ms } : { kind: 'network', code: error.code };
}

export function createDownloads(o: {
  prefixUrl: string;
  agents: { http: HttpAgent; https: HttpsAgent };
  timeoutMs: number;
  limit: number;
  hooks: DownloadHooks;
}): OpenDownload {
  /** got asks this after each failed attempt: 0 fails the call now, anything else is the wait got sleeps first. */
  function calculateDelay({ attemptCount: attempt, error, computedValue }: RetryObject): number {
    const call = callOf(error.options);
    const failure = failureOf(error);
    const answer = error instanceof HTTPError ? error.response : undefined;
    const label = failure.kind === 'timeout' ? 'timeout' : failure.kind === 'network' ? failure.code : undefined;
    const startedAt = (answer ?? error).timings?.start ?? Date.now();
    o.hooks.ended(call, attempt, startedAt, answer?.statusCode ?? null, { headers: answer?.headers, error: label });
    if (computedValue === 0) return 0; // got's own rules said no: retry.limit, methods, statusCodes, errorCodes
    const next = o.hooks.next(call, attempt, failure);
    if (!next) return 0;
    // The next attempt (got retries with these very options) gets no more time than is left of the budget.
    const timeout = error.options.timeout as Record<string, number | undefined>;
    for (const key in timeout) if (timeout[key] !== undefined) timeout[key] = next.timeoutMs;
    return Math.max(1, next.waitMs); // a Retry-After of 0 means "now", which got would read as "never"
  }

  const downloads = got.extend({
    prefixUrl: o.prefixUrl,
    agent: o.agents,
    timeout: stepTimeouts(o.timeoutMs),
    retry: { ...READS, limit: o.limit, maxRetryAfter: Infinity, calculateDelay }, // calculateDelay weighs Retry-After
    hooks: {
      beforeRedirect: [dropTokenAcrossOrigins],
      beforeError: [
        (error) =>
          failureError(callOf(error.options), failureOf(error), (error.request?.retryCount ?? 0) + 1, o.hooks.now()),
      ],
    },
  });

  return (path, call, headers) =>
    new Promise((resolve, reject) => {
      const follow = (stream: Request): void => {
        stream.on('error', reject); // stays attached: an error nobody else listens for must not crash the process
        stream.once('retry', (_count: number, _error: unknown, next: () => Request) => follow(next()));
        stream.once('response', (answer: PlainResponse) => {
          stream.removeAllListeners('retry'); // the body is the caller's now: a failure in it is not retried
          resolve({ answer, body: stream });
        });
      };
      follow(downloads.stream(path, { context: { call }, method: call.where.method as Method, headers }));
    });
}
