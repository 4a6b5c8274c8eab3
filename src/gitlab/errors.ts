import { redact } from '../redact.js';
import type { Resource } from './project.js';

/**
 * Every failure of a Delivery Service call becomes one of these. They carry what a person or an
 * operator needs (status, method, API path, the server's own words) and never a header, a URL
 * with a host, a request body or a token.
 */
export type GitlabErrorCode =
  | 'gitlab_error'
  | 'gitlab_bad_request'
  | 'gitlab_unauthorized'
  | 'gitlab_forbidden'
  | 'gitlab_not_found'
  | 'gitlab_not_allowed'
  | 'gitlab_not_acceptable'
  | 'gitlab_conflict'
  | 'gitlab_rate_limited'
  | 'gitlab_unavailable'
  | 'gitlab_response_shape'
  | 'gitlab_redirected';

export interface GitlabErrorInit {
  /** HTTP status, or null when no response came (timeout, network). */
  status: number | null;
  method: string;
  /** API path without host, `/api/v4` prefix or query string, e.g. `/projects/group%2Fapp/jobs/7`. */
  path: string;
  serverMessage?: string | null;
  /** Overrides the generated message (used when there is no status to describe). */
  message?: string;
}

const MAX_SERVER_MESSAGE = 300;

function describe(init: GitlabErrorInit): string {
  const head = `GitLab answered ${init.status ?? 'nothing'} to ${init.method} ${init.path}`;
  return init.serverMessage ? `${head}: ${init.serverMessage}` : head;
}

export class GitlabError extends Error {
  readonly code: GitlabErrorCode = 'gitlab_error';
  readonly status: number | null;
  readonly method: string;
  readonly path: string;
  readonly serverMessage: string | null;
  /** What the call was about, named by the operation that made it (see `about`), so messages can name it. */
  readonly subject: Resource | null = null;

  constructor(init: GitlabErrorInit) {
    super(init.message ?? describe(init));
    this.name = new.target.name;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serverMessage = init.serverMessage ?? null;
  }

  /**
   * The same error about `subject`: a copy (same class, message, stack and fields), so an error already thrown is
   * never changed under whoever else holds it.
   */
  about(subject: Resource): this {
    const copy = Object.create(Object.getPrototypeOf(this)) as this;
    Object.defineProperties(copy, Object.getOwnPropertyDescriptors(this));
    Object.defineProperty(copy, 'subject', { value: subject, enumerable: true });
    return copy;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      status: this.status,
      method: this.method,
      path: this.path,
      serverMessage: this.serverMessage,
      message: this.message,
    };
  }

  override toString(): string {
    return `${this.name} [${this.code}]: ${this.message}`;
  }
}

/** 400: the server refused the request as given (e.g. an issue move it will not do, a bad duration). */
export class BadRequestError extends GitlabError {
  override readonly code = 'gitlab_bad_request';
}

/** 401: no permission for this action, or the token is revoked/invalid. */
export class UnauthorizedError extends GitlabError {
  override readonly code = 'gitlab_unauthorized';
}

/** 403: authenticated but forbidden (e.g. admin-only endpoints, a job that cannot be retried). */
export class ForbiddenError extends GitlabError {
  override readonly code = 'gitlab_forbidden';
}

/** 404: not found, or no access to it. */
export class NotFoundError extends GitlabError {
  override readonly code = 'gitlab_not_found';
}

/** 405: cannot be merged (conflicts), or already merged or closed. */
export class NotAllowedError extends GitlabError {
  override readonly code = 'gitlab_not_allowed';
}

/** 406: already merged or closed, or not set to merge when the pipeline succeeds. */
export class NotAcceptableError extends GitlabError {
  override readonly code = 'gitlab_not_acceptable';
}

/** 409: the source branch moved (the `sha` given does not match its head). */
export class ConflictError extends GitlabError {
  override readonly code = 'gitlab_conflict';
}

/**
 * 429 that outlived the retries, or asked to wait longer than the call's time budget allows.
 * `attempts` tells them apart: 1 means the server's wait was not taken (retrying was pointless or
 * not allowed); more means the bot retried `attempts - 1` times and gave up.
 */
export class RateLimitedError extends GitlabError {
  override readonly code = 'gitlab_rate_limited';
  /** The last answer's Retry-After, rounded up to whole seconds; null when it sent none (or none readable). */
  readonly retryAfterSeconds: number | null;
  /** Requests made for this call, the last (rate-limited) one included; at least 1. */
  readonly attempts: number;

  constructor(init: GitlabErrorInit & { retryAfterSeconds: number | null; attempts?: number }) {
    super(init);
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.attempts = init.attempts ?? 1;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterSeconds: this.retryAfterSeconds, attempts: this.attempts };
  }
}

/** 5xx, timeouts and network failures, after the retries the method allows. */
export class UnavailableError extends GitlabError {
  override readonly code = 'gitlab_unavailable';
  /** What went wrong: the server answered 5xx, did not answer in time, or could not be reached at all. */
  readonly reason: 'status' | 'timeout' | 'network';

  constructor(init: GitlabErrorInit & { reason?: 'status' | 'timeout' | 'network' }) {
    super(init);
    this.reason = init.reason ?? (init.status === null ? 'network' : 'status');
  }
}

/**
 * The server answered an API call with a redirect to another origin (host, port or scheme). The call is not
 * followed there: the other host would get the request (a write, too) and its answer would pass for the
 * server's.
 */
export class RedirectedError extends GitlabError {
  override readonly code = 'gitlab_redirected';

  constructor(init: { status: number | null; method: string; path: string }) {
    super({
      ...init,
      message: `GitLab redirected ${init.method} ${init.path} to another host; nothing was sent there`,
    });
  }
}

export interface ShapeIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

const MAX_LISTED_ISSUES = 3;

/** A 2xx body that is not JSON or that the resource's schema rejects: the server is not what we think it is. */
export class ResponseShapeError extends GitlabError {
  override readonly code = 'gitlab_response_shape';
  /** The first few problems as `field.path: message` (zod messages name types, never values). */
  readonly issues: readonly string[];

  constructor(init: { status: number; method: string; path: string; issues: readonly ShapeIssue[] }) {
    const listed = init.issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
      const where = issue.path.map((p) => String(p)).join('.');
      return where ? `${where}: ${issue.message}` : issue.message;
    });
    const more = init.issues.length > MAX_LISTED_ISSUES ? ` (+${init.issues.length - MAX_LISTED_ISSUES} more)` : '';
    super({
      status: init.status,
      method: init.method,
      path: init.path,
      message: `GitLab answered ${init.method} ${init.path} with a body of unexpected shape: ${listed.join('; ')}${more}`,
    });
    this.issues = listed;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** The class that stands for an HTTP error status (anything not listed is a plain GitlabError). */
export function errorForStatus(
  init: GitlabErrorInit & { retryAfterSeconds?: number | null; attempts?: number },
): GitlabError {
  switch (init.status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new UnauthorizedError(init);
    case 403:
      return new ForbiddenError(init);
    case 404:
      return new NotFoundError(init);
    case 405:
      return new NotAllowedError(init);
    case 406:
      return new NotAcceptableError(init);
    case 409:
      return new ConflictError(init);
    case 429:
      return new RateLimitedError({ ...init, retryAfterSeconds: init.retryAfterSeconds ?? null });
    default:
      if (init.status !== null && init.status >= 500) return new UnavailableError(init);
      return new GitlabError(init);
  }
}

function flatten(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(flatten).join(', ');
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, inner]) => `${key} ${flatten(inner)}`)
      .join('; ');
  }
  return '';
}

/**
 * The server's words from an error body (`message`, which may be a field→errors map, or `error`),
 * with any secret scrubbed, whitespace collapsed and the length bounded. Null for non-JSON bodies
 * (proxies' HTML pages say nothing useful).
 */
export function serverMessageOf(bodyText: string, secrets: readonly string[]): string | null {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object') return null;
  const record = body as Record<string, unknown>;
  const raw = record.message ?? record.error ?? record.error_description;
  return cleanMessage(flatten(raw), secrets);
}

export function cleanMessage(text: string, secrets: readonly string[]): string | null {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  out = redact(out).replace(/\s+/g, ' ').trim();
  if (out === '') return null;
  return out.length > MAX_SERVER_MESSAGE ? `${out.slice(0, MAX_SERVER_MESSAGE - 1)}…` : out;
}
