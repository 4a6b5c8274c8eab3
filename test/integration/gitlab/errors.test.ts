import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  GitlabError,
  NotAcceptableError,
  NotAllowedError,
  NotFoundError,
  RateLimitedError,
  ResponseShapeError,
  UnauthorizedError,
  UnavailableError,
} from '../../../src/gitlab/errors.js';
import { example } from './support/examples.js';
import { type Harness, startHarness, TOKEN } from './support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ timeoutMs: 100, retry: { limit: 0 } });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  h.server.reset();
});

const caught = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );

/** Every rendering of an error someone might log or show. */
function renderings(error: unknown): string[] {
  const e = error as Error;
  return [e.message, String(e), e.toString(), JSON.stringify(e), inspect(e, { depth: 10 }), e.stack ?? ''];
}

const STATUSES = [
  [400, BadRequestError, 'gitlab_bad_request'],
  [401, UnauthorizedError, 'gitlab_unauthorized'],
  [403, ForbiddenError, 'gitlab_forbidden'],
  [404, NotFoundError, 'gitlab_not_found'],
  [405, NotAllowedError, 'gitlab_not_allowed'],
  [406, NotAcceptableError, 'gitlab_not_acceptable'],
  [409, ConflictError, 'gitlab_conflict'],
  [422, GitlabError, 'gitlab_error'],
  [429, RateLimitedError, 'gitlab_rate_limited'],
  [500, UnavailableError, 'gitlab_unavailable'],
  [502, UnavailableError, 'gitlab_unavailable'],
  [503, UnavailableError, 'gitlab_unavailable'],
  [504, UnavailableError, 'gitlab_unavailable'],
] as const;

describe('every error status over HTTP', () => {
  it.each(STATUSES)(
    '%i becomes %o (%s) with status, method, path and the server message',
    async (status, type, code) => {
      h.server.enqueue({ status, body: { message: `${status} says the server` } });
      const error = await caught(h.client.mergeRequests.merge('demo/web', 3, { sha: 'abc' }));
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({
        code,
        status,
        method: 'PUT',
        path: '/projects/demo%2Fweb/merge_requests/3/merge',
        serverMessage: `${status} says the server`,
      });
    },
  );

  it('304 is not an error: subscribe answers "unchanged"', async () => {
    h.server.enqueue({ status: 304 });
    await expect(h.client.issues.subscribe('demo/web', 3)).resolves.toEqual({ changed: false });
  });

  it('a body the schema rejects becomes ResponseShapeError', async () => {
    h.server.enqueue({ body: { id: 'x' } });
    await expect(h.client.keys.get(1)).rejects.toBeInstanceOf(ResponseShapeError);
  });

  it('a server that never answers becomes UnavailableError with no status', async () => {
    h.server.enqueue({ hang: true });
    const error = await caught(h.client.keys.get(1));
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).status).toBeNull();
  });

  it('a cut connection becomes UnavailableError', async () => {
    h.server.enqueue({ destroy: true });
    await expect(h.client.keys.get(1)).rejects.toBeInstanceOf(UnavailableError);
  });

  it('reads the error body of a download too', async () => {
    h.server.enqueue({ status: 404, body: { message: '404 Not found' } });
    const error = await caught(h.client.jobs.artifacts('demo/web', 9));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).serverMessage).toBe('404 Not found');
  });
});

describe('the token stays secret', () => {
  /** One way to provoke each error class, with the server echoing the token wherever it can. */
  const provocations: Array<[string, () => Promise<unknown>]> = [
    ...STATUSES.map(([status]): [string, () => Promise<unknown>] => [
      `status ${status}`,
      async () => {
        h.server.enqueue({
          status,
          headers: { 'x-echo': TOKEN, 'retry-after': '99' },
          body: { message: `token ${TOKEN} is not welcome`, error: TOKEN },
        });
        return caught(h.client.issues.edit('demo/web', 1, { title: TOKEN }));
      },
    ]),
    [
      'a response shape error',
      async () => {
        h.server.enqueue({ body: { ...(example('keys/01-get-key-with-user') as object), id: TOKEN, title: 7 } });
        return caught(h.client.keys.get(1));
      },
    ],
    [
      'a body that is not JSON',
      async () => {
        h.server.enqueue({ body: `not json ${TOKEN}` });
        return caught(h.client.keys.get(1));
      },
    ],
    [
      'a timeout',
      async () => {
        h.server.enqueue({ hang: true });
        return caught(h.client.users.findByUsername(TOKEN));
      },
    ],
    [
      'a cut connection',
      async () => {
        h.server.enqueue({ destroy: true });
        return caught(h.client.todos.markAllDone());
      },
    ],
    [
      'a refused cancel of auto-merge (201 with an error hash)',
      async () => {
        h.server.enqueue(
          { status: 405, body: { error: '405 Not Allowed' } },
          { status: 201, body: { message: `Can't cancel ${TOKEN}`, status: 'error', http_status: 406 } },
        );
        return caught(h.client.mergeRequests.cancelMergeWhenPipelineSucceeds('demo/web', 1));
      },
    ],
    [
      'a failed download',
      async () => {
        h.server.enqueue({ status: 403, body: { message: TOKEN } });
        return caught(h.client.jobs.artifacts('demo/web', 1));
      },
    ],
  ];

  it.each(provocations)('appears in no message, toString, JSON or inspection of %s', async (_name, provoke) => {
    const error = await provoke();
    expect(error).toBeInstanceOf(GitlabError);
    for (const text of renderings(error)) expect(text).not.toContain(TOKEN);
  });

  it('covers every error class', async () => {
    const seen = new Set<string>();
    for (const [, provoke] of provocations) seen.add(((await provoke()) as Error).constructor.name);
    expect([...seen].sort()).toEqual(
      [
        'BadRequestError',
        'ConflictError',
        'ForbiddenError',
        'GitlabError',
        'NotAcceptableError',
        'NotAllowedError',
        'NotFoundError',
        'RateLimitedError',
        'ResponseShapeError',
        'UnauthorizedError',
        'UnavailableError',
      ].sort(),
    );
  });

  it('appears in no log line, while the token did reach the server', async () => {
    h.logLines.length = 0;
    for (const [, provoke] of provocations) await provoke();
    expect(h.logLines.length).toBeGreaterThan(provocations.length);
    for (const line of h.logLines) expect(line).not.toContain(TOKEN);
    expect(h.server.requests.every((request) => request.headers['private-token'] === TOKEN)).toBe(true);
  });
});
