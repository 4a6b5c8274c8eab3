import { describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  cleanMessage,
  errorForStatus,
  ForbiddenError,
  GitlabError,
  NotAcceptableError,
  NotAllowedError,
  NotFoundError,
  RateLimitedError,
  ResponseShapeError,
  serverMessageOf,
  UnauthorizedError,
  UnavailableError,
} from '../../../src/gitlab/errors.js';
import { projectOf } from '../../../src/gitlab/project.js';
import { about } from '../../../src/operations/subject.js';

const at = { method: 'GET', path: '/projects/1/jobs/2', serverMessage: 'nope' };

describe('errorForStatus', () => {
  it.each([
    [400, BadRequestError, 'gitlab_bad_request'],
    [401, UnauthorizedError, 'gitlab_unauthorized'],
    [403, ForbiddenError, 'gitlab_forbidden'],
    [404, NotFoundError, 'gitlab_not_found'],
    [405, NotAllowedError, 'gitlab_not_allowed'],
    [406, NotAcceptableError, 'gitlab_not_acceptable'],
    [409, ConflictError, 'gitlab_conflict'],
    [429, RateLimitedError, 'gitlab_rate_limited'],
    [500, UnavailableError, 'gitlab_unavailable'],
    [502, UnavailableError, 'gitlab_unavailable'],
    [503, UnavailableError, 'gitlab_unavailable'],
    [422, GitlabError, 'gitlab_error'],
  ] as const)('maps %i to %o with code %s', (status, type, code) => {
    const error = errorForStatus({ status, ...at });
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(GitlabError);
    expect(error.code).toBe(code);
    expect(error.name).toBe(type.name);
    expect(error.status).toBe(status);
  });

  it('carries retry-after seconds on a rate-limited error', () => {
    const error = errorForStatus({ status: 429, ...at, retryAfterSeconds: 30 });
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterSeconds).toBe(30);
    expect(error.toJSON()).toMatchObject({ retryAfterSeconds: 30, code: 'gitlab_rate_limited' });
  });

  it('says how many requests a rate-limited call made, one unless told otherwise', () => {
    const once = errorForStatus({ status: 429, ...at, retryAfterSeconds: 60 }) as RateLimitedError;
    const gaveUp = errorForStatus({ status: 429, ...at, retryAfterSeconds: 2, attempts: 4 }) as RateLimitedError;
    expect(once.attempts).toBe(1);
    expect(gaveUp.attempts).toBe(4);
    expect(gaveUp.toJSON()).toMatchObject({ retryAfterSeconds: 2, attempts: 4 });
  });
});

describe('GitlabError', () => {
  it('says status, method, path and the server message', () => {
    const error = new NotFoundError({
      status: 404,
      method: 'GET',
      path: '/projects/9',
      serverMessage: '404 Project Not Found',
    });
    expect(error.message).toBe('GitLab answered 404 to GET /projects/9: 404 Project Not Found');
    expect(String(error)).toBe(
      'NotFoundError [gitlab_not_found]: GitLab answered 404 to GET /projects/9: 404 Project Not Found',
    );
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'NotFoundError',
      code: 'gitlab_not_found',
      status: 404,
      method: 'GET',
      path: '/projects/9',
      serverMessage: '404 Project Not Found',
      message: error.message,
    });
  });
});

describe('ResponseShapeError', () => {
  it('lists the first three issues with their field paths and counts the rest', () => {
    const issues = [
      { path: [0, 'id'], message: 'Invalid input: expected number, received string' },
      { path: ['status'], message: 'Required' },
      { path: [], message: 'odd' },
      { path: ['x'], message: 'a' },
      { path: ['y'], message: 'b' },
    ];
    const error = new ResponseShapeError({ status: 200, method: 'GET', path: '/todos', issues });
    expect(error.issues).toEqual(['0.id: Invalid input: expected number, received string', 'status: Required', 'odd']);
    expect(error.message).toContain('(+2 more)');
    expect(error.code).toBe('gitlab_response_shape');
  });
});

describe('serverMessageOf', () => {
  it('reads message, error and field-error maps', () => {
    expect(serverMessageOf('{"message":"404 Not found"}', [])).toBe('404 Not found');
    expect(serverMessageOf('{"error":"scope does not have a valid value"}', [])).toBe(
      'scope does not have a valid value',
    );
    expect(serverMessageOf('{"message":{"title":["can\'t be blank"],"cron":["is invalid","is empty"]}}', [])).toBe(
      "title can't be blank; cron is invalid, is empty",
    );
  });

  it('says nothing for bodies that are not JSON objects', () => {
    expect(serverMessageOf('<html>Bad Gateway</html>', [])).toBeNull();
    expect(serverMessageOf('', [])).toBeNull();
    expect(serverMessageOf('"text"', [])).toBeNull();
  });

  it('scrubs secrets and bounds the length', () => {
    const text = serverMessageOf(JSON.stringify({ message: `token secret-abc-123 rejected ${'x'.repeat(500)}` }), [
      'secret-abc-123',
    ]);
    expect(text).not.toContain('secret-abc-123');
    expect(text).toContain('[redacted]');
    expect(text?.length).toBeLessThanOrEqual(300);
  });

  it('scrubs well-known token shapes even when nobody named them', () => {
    expect(cleanMessage('bad glpat-abcdefghijklmnop', [])).toBe('bad [redacted]');
  });
});

describe('an error about a subject', () => {
  it('is a copy naming the subject; the error thrown first is left as it was', async () => {
    const thrown = new RateLimitedError({
      status: 429,
      method: 'GET',
      path: '/projects/demo%2Fweb/jobs/8',
      retryAfterSeconds: 3,
      attempts: 2,
    });
    const subject = { kind: 'job', project: projectOf('demo/web'), id: 8 } as const;
    const seen = await about(subject, Promise.reject(thrown)).catch((err: unknown) => err);
    expect(seen).not.toBe(thrown);
    expect(seen).toBeInstanceOf(RateLimitedError);
    expect(seen).toMatchObject({ subject, status: 429, retryAfterSeconds: 3, attempts: 2, message: thrown.message });
    expect((seen as Error).stack).toBe(thrown.stack);
    expect(thrown.subject).toBeNull();
    // A subject named nearer the call stays: an outer `about` does not rename it.
    const outer = await about({ kind: 'project', project: projectOf('demo/web') }, Promise.reject(seen)).catch(
      (err: unknown) => err,
    );
    expect(outer).toBe(seen);
  });
});
