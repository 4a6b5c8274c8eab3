import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { type Logger, silentLogger } from '../logger.js';
import { type AttemptFacts, createDownloads } from './download.js';
import { type Answer, ExchangeTimeout, exchange } from './exchange.js';
import type { HeaderBag } from './paginate.js';
import { encodeParams, type Params } from './params.js';
import { toApiPath } from './paths.js';
import { parseRateLimit, type RateLimit } from './rate-limit.js';
import { type Call, type Failure, failureError, nextAttempt, type RetryPolicy, retryable } from './retry.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
export type ResponseKind = 'json' | 'text' | 'stream';

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  limit?: number;
  /** First backoff step (default 250 ms); doubles per retry, with jitter. */
  baseDelayMs?: number;
  /** Cap of one backoff step (default 4000 ms); a server's Retry-After is honoured above it. */
  maxDelayMs?: number;
  /** Budget for all attempts and waits of one call (default 15000 ms): a wait that would overrun it is not taken. */
  maxTotalMs?: number;
}

export interface TransportOptions {
  /** GITLAB_URL, without `/api/v4`. */
  baseUrl: string;
  /** Per attempt (default 10000 ms): until the whole answer for json/text, each step until the headers for streams. */
  timeoutMs?: number;
  retry?: RetryOptions;
  /** Each attempt and each wait is a debug line ('gitlab request', 'gitlab retry' with `waitMs`). */
  logger?: Logger;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /** Epoch milliseconds; used for time budgets and HTTP-date `Retry-After`. */
  now?: () => number;
}

export interface RequestOptions<K extends ResponseKind = 'json'> {
  method: HttpMethod;
  /** API path below `/api/v4/`, with every path parameter already encoded. */
  path: string;
  /** The acting user's token, sent as `PRIVATE-TOKEN`. */
  token: string;
  query?: Params;
  /** Sent as an `application/x-www-form-urlencoded` body. */
  form?: Params;
  responseType?: K;
}

export type BodyOf<K extends ResponseKind> = K extends 'text' ? string : K extends 'stream' ? Readable : unknown;

export interface TransportResponse<B> {
  status: number;
  headers: HeaderBag;
  /** json: the decoded value (undefined when the body is empty, e.g. 204/304); text: the body; stream: the open body. */
  body: B;
  rateLimit: RateLimit | null;
}

export interface Transport {
  /** Resolves with 2xx and 304 answers; every other outcome rejects with a GitlabError subclass. */
  request<K extends ResponseKind = 'json'>(options: RequestOptions<K>): Promise<TransportResponse<BodyOf<K>>>;
  /** The RateLimit-* headers of the latest response that carried any. */
  readonly lastRateLimit: RateLimit | null;
  /** Frees the keep-alive sockets. */
  close(): void;
}

const FORM = 'application/x-www-form-urlencoded';
const isAnswer = (status: number) => (status >= 200 && status < 300) || status === 304;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createTransport(options: TransportOptions): Transport {
  const { timeoutMs = 10_000, logger = silentLogger, random = Math.random, now = Date.now } = options;
  const { limit = 3, baseDelayMs = 250, maxDelayMs = 4000, maxTotalMs = 15_000 } = options.retry ?? {};
  const policy: RetryPolicy = { limit, baseDelayMs, maxDelayMs, maxTotalMs, timeoutMs, random, now };
  const debug = logger.level === 'debug';
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  const prefix = `${options.baseUrl.replace(/\/+$/, '')}/api/v4/`;
  const firstTimeout = Math.min(timeoutMs, maxTotalMs); // no attempt outlasts the call's budget
  let lastRateLimit: RateLimit | null = null;

  /** Every attempt ends here once, answered or not: the rate-limit headers it carried, and its log line. */
  function attemptEnded(call: Call, attempt: number, startedAt: number, status: number | null, more: AttemptFacts) {
    const rateLimit = more.headers ? parseRateLimit(more.headers) : null;
    if (rateLimit) lastRateLimit = rateLimit;
    if (debug) {
      const ms = Date.now() - startedAt;
      logger.debug('gitlab request', { ...call.where, status, error: more.error, ms, attempt });
    }
    return rateLimit;
  }

  /** The next attempt after a failure, or null when the call gives up (limit, method, status, budget). */
  function retryAfterFailure(call: Call, attempt: number, failure: Failure) {
    const next =
      attempt <= limit && retryable(call.where.method, failure) ? nextAttempt(policy, call, attempt, failure) : null;
    if (next && debug) logger.debug('gitlab retry', { ...call.where, waitMs: next.waitMs, attempt });
    return next;
  }

  /** JSON and text: node:http, answers read whole, retried by the shared rules. */
  async function fetchWhole(call: Call, url: URL, method: string, headers: Record<string, string>, body?: string) {
    let timeout = firstTimeout;
    for (let attempt = 1; ; attempt++) {
      const startedAt = Date.now();
      let failure: Failure;
      try {
        const answer: Answer = await exchange(url, { method, headers, body, timeoutMs: timeout, agents });
        if (isAnswer(answer.status)) return { answer, attempt, startedAt };
        attemptEnded(call, attempt, startedAt, answer.status, answer);
        failure = {
          kind: 'status',
          status: answer.status,
          headers: answer.headers,
          body: answer.body.toString('utf8'),
        };
      } catch (err) {
        const timedOut = err instanceof ExchangeTimeout;
        const code = (err as NodeJS.ErrnoException).code;
        attemptEnded(call, attempt, startedAt, null, { error: timedOut ? 'timeout' : code });
        failure = timedOut ? { kind: 'timeout', ms: err.ms } : { kind: 'network', code };
      }
      const next = retryAfterFailure(call, attempt, failure);
      if (!next) throw failureError(call, failure, attempt, now());
      await sleep(next.waitMs);
      timeout = next.timeoutMs;
    }
  }

  const openDownload = createDownloads({
    prefixUrl: prefix,
    agents,
    timeoutMs: firstTimeout,
    limit,
    hooks: { ended: attemptEnded, next: retryAfterFailure, now },
  });

  async function request<K extends ResponseKind>(req: RequestOptions<K>): Promise<TransportResponse<BodyOf<K>>> {
    const query = encodeParams(req.query);
    const path = `${req.path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`;
    const call: Call = { where: { method: req.method, path: toApiPath(req.path) }, token: req.token, started: now() };
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'gl-slack-bot' };
    if (req.token) headers['private-token'] = req.token;
    if (req.responseType === 'stream') {
      const { answer, body } = await openDownload(path, call, headers);
      const rateLimit = attemptEnded(call, answer.retryCount + 1, answer.timings.start, answer.statusCode, answer);
      return { status: answer.statusCode, headers: answer.headers, body: body as BodyOf<K>, rateLimit };
    }
    const form = req.form && encodeParams(req.form);
    headers['accept-encoding'] = 'gzip, deflate, br';
    if (form !== undefined) {
      headers['content-type'] = FORM;
      headers['content-length'] = String(Buffer.byteLength(form));
    }
    const { answer, attempt, startedAt } = await fetchWhole(call, new URL(path, prefix), req.method, headers, form);
    const rateLimit = attemptEnded(call, attempt, startedAt, answer.status, answer);
    const text = answer.body.toString('utf8');
    if (req.responseType === 'text')
      return { status: answer.status, headers: answer.headers, body: text as BodyOf<K>, rateLimit };
    let body: unknown;
    try {
      body = text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      throw failureError(call, { kind: 'not-json', status: answer.status }, attempt, now());
    }
    return { status: answer.status, headers: answer.headers, body: body as BodyOf<K>, rateLimit };
  }

  return {
    request,
    get lastRateLimit() {
      return lastRateLimit;
    },
    close() {
      for (const pool of Object.values(agents)) pool.destroy();
    },
  };
}
