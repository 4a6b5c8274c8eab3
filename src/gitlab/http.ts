import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { setTimeout as timer } from 'node:timers/promises';
import type {
  Method,
  NormalizedOptions,
  OptionsInit,
  PlainResponse,
  Request,
  RequestError,
  Response,
  RetryObject,
} from 'got';
import got, { HTTPError, type Options, TimeoutError } from 'got';
import { type Logger, silentLogger } from '../log.js';
import {
  cleanMessage,
  errorForStatus,
  RedirectedError,
  ResponseShapeError,
  serverMessageOf,
  UnavailableError,
} from './errors.js';
import type { HeaderBag } from './paginate.js';
import { encodeParams, type Params } from './params.js';
import { toApiPath } from './paths.js';
import { parseRateLimit, parseRetryAfter, type RateLimit } from './rate-limit.js';

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
  /** Awaited after each answer before the caller sees it: the app's work turns (slack/transport/turns.ts). */
  nextTurn?: (otherCallsOutstanding: number) => Promise<void>;
  /** Spends the wait before a retry (default: a timer); tests pass one that returns at once, so no test sleeps. */
  sleep?: (ms: number) => Promise<void>;
  /** Told of every attempt once it ended, answered or not (the metrics of GitLab calls). */
  onAttempt?: (attempt: AttemptEnded) => void;
}

/** One attempt of a call: its path as sent (below `/api/v4`), its status (null: no answer) and how long it took. */
export interface AttemptEnded {
  method: string;
  path: string;
  status: number | null;
  ms: number;
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

/** What one call adds to its kind's got options (its context, its headers, its method and body). */
type CallInit = Pick<OptionsInit, 'context' | 'headers' | 'method' | 'body'>;

/** One call's own facts, handed to got's hooks as `context.call`: they outlive each attempt's options. */
type Call = { where: { method: string; path: string }; token: string; started: number };
const callOf = (options: Options): Call => options.context.call as Call;
const FORM = 'application/x-www-form-urlencoded';
const NOT_JSON = [{ path: [], message: 'the body is not JSON' }];
// Reads retry on these and on got's error codes (network, timeouts); writes only on a 429, which says it was not done.
const READS = { methods: ['GET', 'HEAD'] as Method[], statusCodes: [429, 502, 503, 504] };
const WRITES = { methods: ['POST', 'PUT', 'DELETE'] as Method[], statusCodes: [429], errorCodes: [] };
/** A download may outlast one attempt: each step up to its headers is bounded, then any silence (TLS, stalls). */
const downloadTimeout = (t: number) => ({ request: undefined, lookup: t, connect: t, response: t, socket: t });

const otherOrigin = (options: NormalizedOptions, response: PlainResponse) =>
  new URL(String(options.url)).origin !== new URL(response.url).origin;

/** A download may be redirected to object storage (artifacts are): followed, but GitLab's token stays behind. */
function dropTokenAcrossOrigins(options: NormalizedOptions, response: PlainResponse): void {
  if (otherOrigin(options, response)) delete options.headers['private-token'];
}

/** Thrown from got's redirect hook: the call fails before anything is sent to the other origin. */
class OtherOriginRedirect extends Error {}

/** An API call stays on the server: a redirect elsewhere would send the request (a write, too) to a stranger. */
function refuseOtherOrigin(options: NormalizedOptions, response: PlainResponse): void {
  if (otherOrigin(options, response)) throw new OtherOriginRedirect('redirected to another origin');
}

export function createTransport(options: TransportOptions): Transport {
  const { timeoutMs = 10_000, logger = silentLogger, random = Math.random, now = Date.now, sleep = timer } = options;
  const { limit = 3, baseDelayMs = 250, maxDelayMs = 4000, maxTotalMs = 15_000 } = options.retry ?? {};
  const debug = logger.level === 'debug';
  const { onAttempt } = options;
  const agent = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  let lastRateLimit: RateLimit | null = null;
  /** Calls sent and not yet answered: answers that may arrive together (see slack/transport/turns.ts). */
  let outstanding = 0;

  /** Every attempt ends here once, answered or not: the rate-limit headers it carried, and its log line. */
  function attemptEnded(call: Call, attempt: number, answer?: PlainResponse, failed?: RequestError) {
    const rateLimit = answer ? parseRateLimit(answer.headers) : null;
    if (rateLimit) lastRateLimit = rateLimit;
    if (debug || onAttempt) {
      const ms = Date.now() - ((answer ?? failed)?.timings?.start ?? Date.now());
      const status = answer?.statusCode ?? null;
      onAttempt?.({ ...call.where, status, ms });
      const error = answer ? undefined : failed instanceof TimeoutError ? 'timeout' : failed?.code;
      if (debug) logger.debug('gitlab request', { ...call.where, status, error, ms, attempt });
    }
    return rateLimit;
  }

  /** got asks this after each failed attempt: 0 fails the call now; otherwise the wait is spent here, then it retries. */
  async function calculateDelay({ attemptCount: attempt, error, computedValue }: RetryObject): Promise<number> {
    const call = callOf(error.options);
    const answer = error instanceof HTTPError ? error.response : undefined;
    attemptEnded(call, attempt, answer, error);
    if (computedValue === 0) return 0; // got's own rules said no: retry.limit, methods, statusCodes, errorCodes
    const step = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
    const wait = parseRetryAfter(answer?.headers['retry-after'], now()) ?? Math.round(step / 2 + (random() * step) / 2);
    const left = maxTotalMs - (now() - call.started) - wait;
    if (left <= 0) return 0;
    // The next attempt (got retries with these very options) gets no more time than is left of the budget.
    const timeout = error.options.timeout as Record<string, number | undefined>;
    for (const key in timeout) if (timeout[key] !== undefined) timeout[key] = Math.min(timeoutMs, left);
    if (debug) logger.debug('gitlab retry', { ...call.where, waitMs: wait, attempt });
    await sleep(wait);
    return 1; // waited already; got reads 0 as "never"
  }

  /** What every failed call rejects with: a GitlabError, the server's words scrubbed of the token. */
  function toGitlabError(error: RequestError): Error {
    const { where, token } = callOf(error.options);
    if (error.cause instanceof OtherOriginRedirect)
      return new RedirectedError({ ...where, status: error.response?.statusCode ?? null });
    if (error instanceof HTTPError) {
      const { statusCode: status, headers, rawBody } = error.response;
      const retryAfterMs = parseRetryAfter(headers['retry-after'], now());
      const retryAfterSeconds = retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000);
      const serverMessage = serverMessageOf(rawBody?.toString('utf8') ?? '', [token]);
      const attempts = error.request.retryCount + 1;
      return errorForStatus({ ...where, status, serverMessage, retryAfterSeconds, attempts });
    }
    const timedOut = error instanceof TimeoutError && (error.options.timeout as Record<string, number>)[error.event];
    const call = `${where.method} ${where.path}`;
    const message = timedOut
      ? `GitLab did not answer ${call} within ${timedOut} ms`
      : `GitLab could not be reached for ${call} (${cleanMessage(error.code, [token]) ?? 'network error'})`;
    return new UnavailableError({ ...where, status: null, reason: timedOut ? 'timeout' : 'network', message });
  }

  const base: OptionsInit = {
    prefixUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/v4/`,
    agent,
    headers: { accept: 'application/json', 'user-agent': 'gl-slack-bot' },
    timeout: { request: Math.min(timeoutMs, maxTotalMs) }, // no attempt outlasts the call's budget
    retry: { ...READS, limit, maxRetryAfter: Infinity, calculateDelay }, // calculateDelay weighs Retry-After
    hooks: { beforeError: [toGitlabError] },
  };
  // Instances made once with got.extend (got concatenates hooks when it merges options: each kind of call gets its own
  // redirect rule, not both).
  const api = got.extend(base);
  const reads = api.extend({ hooks: { beforeRedirect: [refuseOtherOrigin] } });
  const writes = reads.extend({ retry: WRITES });
  const downloads = api.extend({
    timeout: downloadTimeout(Math.min(timeoutMs, maxTotalMs)),
    hooks: { beforeRedirect: [dropTokenAcrossOrigins] },
  });

  function openStream(url: string, init: CallInit): Promise<{ answer: PlainResponse; body: Request }> {
    return new Promise((resolve, reject) => {
      const follow = (stream: Request): void => {
        stream.on('error', reject); // stays attached: an error nobody else listens for must not crash the process
        stream.once('retry', (_count: number, _error: unknown, next: () => Request) => follow(next()));
        stream.once('response', (answer: PlainResponse) => {
          stream.removeAllListeners('retry'); // the body is the caller's now: a failure in it is not retried
          resolve({ answer, body: stream });
        });
      };
      follow(downloads.stream(url, init));
    });
  }

  /** The decoded value of a JSON answer (undefined when the body is empty, e.g. 204/304). */
  function decodeJson(raw: Buffer, status: number, call: Call): unknown {
    const text = raw.toString('utf8');
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new ResponseShapeError({ ...call.where, status, issues: NOT_JSON });
    }
  }

  /** What got is given for one call, on top of its kind's defaults. */
  function initOf(req: RequestOptions<ResponseKind>, call: Call): CallInit {
    const headers: Record<string, string> = req.token ? { 'private-token': req.token } : {};
    const init: CallInit = { context: { call }, headers };
    if (req.method !== 'GET') init.method = req.method; // every kind's defaults say GET
    if (req.form) {
      headers['content-type'] = FORM;
      init.body = encodeParams(req.form);
    }
    return init;
  }

  async function request<K extends ResponseKind>(req: RequestOptions<K>): Promise<TransportResponse<BodyOf<K>>> {
    const query = encodeParams(req.query);
    const url = `${req.path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`;
    const call: Call = { where: { method: req.method, path: toApiPath(req.path) }, token: req.token, started: now() };
    const init = initOf(req, call);
    let answer: PlainResponse;
    let body: unknown;
    outstanding++;
    try {
      if (req.responseType === 'stream') ({ answer, body } = await openStream(url, init));
      else {
        const kind = req.method === 'GET' || req.method === 'HEAD' ? reads : writes;
        // A JSON answer comes back as its bytes: it is decoded by `decodeJson` once its turn has come (see below).
        const got =
          req.responseType === 'text'
            ? kind(url, { ...init, responseType: 'text' })
            : kind(url, { ...init, responseType: 'buffer' });
        answer = await got;
        body = (answer as Response<unknown>).body; // BodyOf<K> types it
      }
    } finally {
      outstanding--;
    }
    const rateLimit = attemptEnded(call, answer.retryCount + 1, answer);
    if (options.nextTurn) await options.nextTurn(outstanding);
    // Decoded in the turn that uses it: while it waited for that turn, the answer was its bytes (outside the
    // JavaScript heap), not the thousands of small objects of a decoded list, which every collection meanwhile
    // would have copied.
    const decoded = body instanceof Buffer ? decodeJson(body, answer.statusCode, call) : body;
    return { status: answer.statusCode, headers: answer.headers, body: decoded as BodyOf<K>, rateLimit };
  }

  return {
    request,
    get lastRateLimit() {
      return lastRateLimit;
    },
    close() {
      for (const pool of Object.values(agent)) pool.destroy();
    },
  };
}
