import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import got, { type Got, type PlainResponse, RequestError } from 'got';
import { type Logger, silentLogger } from '../logger.js';
import {
  cleanMessage,
  errorForStatus,
  type GitlabError,
  ResponseShapeError,
  serverMessageOf,
  UnavailableError,
} from './errors.js';
import type { HeaderBag } from './paginate.js';
import { encodeParams, type Params } from './params.js';
import { toApiPath } from './paths.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
export type ResponseKind = 'json' | 'text' | 'stream';

/** What the `RateLimit-*` headers of a response said (null per header that was absent). */
export interface RateLimit {
  limit: number | null;
  remaining: number | null;
  /** Epoch seconds at which the window resets. */
  reset: number | null;
  /** Requests the server counted in this window (GitLab's `RateLimit-Observed`). */
  observed: number | null;
}

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  limit?: number;
  /** First backoff step (default 250 ms); doubles per retry, with jitter. */
  baseDelayMs?: number;
  /** Cap of one backoff step (default 4000 ms); a server's Retry-After is honoured above it. */
  maxDelayMs?: number;
  /** Budget for all attempts and waits of one call (default 15000 ms). */
  maxTotalMs?: number;
}

export interface TransportOptions {
  /** GITLAB_URL, without `/api/v4`. */
  baseUrl: string;
  /** Per attempt (default 10000 ms): until the whole answer for json/text, until the headers for streams. */
  timeoutMs?: number;
  retry?: RetryOptions;
  logger?: Logger;
  /** Waits between attempts; injectable so tests need not sleep. */
  delay?: (ms: number) => Promise<void>;
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

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
/** Failures before or during a response that are safe to retry for idempotent methods (as got's own list). */
const RETRY_ERROR_CODES = new Set([
  'ETIMEDOUT',
  'ECONNRESET',
  'EADDRINUSE',
  'ECONNREFUSED',
  'EPIPE',
  'ENOTFOUND',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export const defaultDelay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

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

function headerValue(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function parseRateLimit(headers: HeaderBag): RateLimit | null {
  const read = (name: string): number | null => {
    const raw = headerValue(headers, name);
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

type Outcome =
  | { kind: 'response'; status: number; headers: HeaderBag; text: string | null; stream: Readable | null }
  | { kind: 'failure'; timedOut: boolean; code: string | null };

async function readCapped(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      chunks.push(buffer);
      size += buffer.length;
      if (size >= MAX_ERROR_BODY_BYTES) break;
    }
  } catch {
    // The status already tells what happened; a broken error body adds nothing.
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

function failureOf(error: unknown): Outcome {
  if (error instanceof RequestError) {
    return { kind: 'failure', timedOut: error.name === 'TimeoutError', code: error.code ?? null };
  }
  return { kind: 'failure', timedOut: false, code: null };
}

/** GitLab's token must not follow a redirect to another origin (artifacts may redirect to object storage). */
function dropTokenAcrossOrigins(
  options: { url?: string | URL | undefined; headers: Record<string, unknown> },
  response: PlainResponse,
): void {
  const target = options.url ? new URL(String(options.url)) : null;
  const source = new URL(response.url);
  if (!target || target.origin !== source.origin) delete options.headers['private-token'];
}

export function createTransport(options: TransportOptions): Transport {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const limit = options.retry?.limit ?? 3;
  const baseDelayMs = options.retry?.baseDelayMs ?? 250;
  const maxDelayMs = options.retry?.maxDelayMs ?? 4000;
  const maxTotalMs = options.retry?.maxTotalMs ?? 15_000;
  const logger = options.logger ?? silentLogger;
  const delay = options.delay ?? defaultDelay;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  const agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  const instance: Got = got.extend({
    prefixUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/v4/`,
    agent: agents,
    retry: { limit: 0 },
    throwHttpErrors: false,
    followRedirect: true,
    headers: { accept: 'application/json', 'user-agent': 'gl-slack-bot' },
    hooks: { beforeRedirect: [dropTokenAcrossOrigins] },
  });

  let lastRateLimit: RateLimit | null = null;

  const backoff = (retry: number): number => {
    const cap = Math.min(maxDelayMs, baseDelayMs * 2 ** retry);
    return Math.round(cap / 2 + (random() * cap) / 2);
  };

  async function attemptOnce(
    url: string,
    method: HttpMethod,
    headers: Record<string, string>,
    body: string | undefined,
    kind: ResponseKind,
    attemptTimeoutMs: number,
  ): Promise<Outcome> {
    if (kind !== 'stream') {
      try {
        const response = await instance(url, {
          method,
          headers,
          body,
          responseType: 'text',
          timeout: { request: attemptTimeoutMs },
        });
        return {
          kind: 'response',
          status: response.statusCode,
          headers: response.headers,
          text: response.body,
          stream: null,
        };
      } catch (error) {
        return failureOf(error);
      }
    }
    const stream = instance.stream(url, { method, headers, body, timeout: { socket: attemptTimeoutMs } });
    return new Promise<Outcome>((resolve) => {
      // Only the wait for the headers is bounded: a large download may take longer than one attempt.
      // got wraps whatever destroys the stream, so the timeout is known by this flag, not by the error.
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        stream.destroy();
        resolve({ kind: 'failure', timedOut: true, code: 'ETIMEDOUT' });
      }, attemptTimeoutMs);
      stream.once('response', (response: PlainResponse) => {
        clearTimeout(timer);
        resolve({ kind: 'response', status: response.statusCode, headers: response.headers, text: null, stream });
      });
      // Stays attached after the response: the caller adds its own listeners, but an unobserved
      // stream error must not crash the process.
      stream.on('error', (error: unknown) => {
        clearTimeout(timer);
        if (!timedOut) resolve(failureOf(error));
      });
    });
  }

  async function request<K extends ResponseKind = 'json'>(
    req: RequestOptions<K>,
  ): Promise<TransportResponse<BodyOf<K>>> {
    const kind: ResponseKind = req.responseType ?? 'json';
    const method = req.method;
    const apiPath = toApiPath(req.path);
    const query = encodeParams(req.query);
    const url = `${req.path.replace(/^\/+/, '')}${query ? `?${query}` : ''}`;
    const headers: Record<string, string> = {};
    if (req.token) headers['private-token'] = req.token;
    let body: string | undefined;
    if (req.form) {
      body = encodeParams(req.form);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    const idempotent = method === 'GET' || method === 'HEAD';
    const secrets = [req.token];
    let used = 0;

    for (let attempt = 0; ; attempt += 1) {
      const attemptTimeoutMs = Math.max(1, Math.min(timeoutMs, maxTotalMs - used));
      const started = now();
      const outcome = await attemptOnce(url, method, headers, body, kind, attemptTimeoutMs);
      const ms = Math.max(0, now() - started);
      used += ms;

      if (outcome.kind === 'failure') {
        logger.debug('gitlab request', {
          method,
          path: apiPath,
          status: null,
          error: outcome.timedOut ? 'timeout' : (outcome.code ?? 'network'),
          ms,
          attempt: attempt + 1,
        });
        const retryable =
          idempotent && (outcome.timedOut || (outcome.code !== null && RETRY_ERROR_CODES.has(outcome.code)));
        if (retryable && attempt < limit) {
          const wait = backoff(attempt);
          if (used + wait < maxTotalMs) {
            logger.debug('gitlab retry', { method, path: apiPath, waitMs: wait, attempt: attempt + 1 });
            await delay(wait);
            used += wait;
            continue;
          }
        }
        throw new UnavailableError({
          status: null,
          method,
          path: apiPath,
          reason: outcome.timedOut ? 'timeout' : 'network',
          message: outcome.timedOut
            ? `GitLab did not answer ${method} ${apiPath} within ${attemptTimeoutMs} ms`
            : `GitLab could not be reached for ${method} ${apiPath} (${cleanMessage(outcome.code ?? 'network error', secrets) ?? 'network error'})`,
        });
      }

      const { status } = outcome;
      logger.debug('gitlab request', { method, path: apiPath, status, ms, attempt: attempt + 1 });
      const rateLimit = parseRateLimit(outcome.headers);
      if (rateLimit) lastRateLimit = rateLimit;

      if ((status >= 200 && status < 300) || status === 304) {
        return {
          status,
          headers: outcome.headers,
          body: decodeBody(kind, outcome, method, apiPath) as BodyOf<K>,
          rateLimit,
        };
      }

      const retryAfterMs = parseRetryAfter(headerValue(outcome.headers, 'retry-after'), now());
      const retryable = status === 429 || (idempotent && RETRY_STATUSES.has(status));
      if (retryable && attempt < limit) {
        const wait = retryAfterMs ?? backoff(attempt);
        if (used + wait < maxTotalMs) {
          outcome.stream?.destroy();
          logger.debug('gitlab retry', { method, path: apiPath, status, waitMs: wait, attempt: attempt + 1 });
          await delay(wait);
          used += wait;
          continue;
        }
      }
      throw await errorOf(outcome, method, apiPath, retryAfterMs, secrets);
    }
  }

  return {
    request,
    get lastRateLimit() {
      return lastRateLimit;
    },
    close() {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

function decodeBody(
  kind: ResponseKind,
  outcome: Extract<Outcome, { kind: 'response' }>,
  method: string,
  apiPath: string,
): unknown {
  if (kind === 'stream') return outcome.stream;
  const text = outcome.text ?? '';
  if (kind === 'text') return text;
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ResponseShapeError({
      status: outcome.status,
      method,
      path: apiPath,
      issues: [{ path: [], message: 'the body is not JSON' }],
    });
  }
}

async function errorOf(
  outcome: Extract<Outcome, { kind: 'response' }>,
  method: string,
  apiPath: string,
  retryAfterMs: number | null,
  secrets: readonly string[],
): Promise<GitlabError> {
  const text = outcome.stream ? await readCapped(outcome.stream) : (outcome.text ?? '');
  return errorForStatus({
    status: outcome.status,
    method,
    path: apiPath,
    serverMessage: serverMessageOf(text, secrets),
    retryAfterSeconds: retryAfterMs === null ? null : Math.ceil(retryAfterMs / 1000),
  });
}
