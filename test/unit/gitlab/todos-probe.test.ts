import { describe, expect, it } from 'vitest';
import { ResponseShapeError } from '../../../src/gitlab/errors.js';
import type { RequestOptions, Transport } from '../../../src/gitlab/http.js';
import { createTodosApi } from '../../../src/gitlab/todos.js';

// An alert poll's probe: the newest pending todo's id, one read, the rest of the answer left undecoded; an answer
// of the wrong shape is refused as any other would be.

function answering(body: unknown) {
  const sent: RequestOptions<'json'>[] = [];
  const transport = {
    async request(options: RequestOptions<'json'>) {
      sent.push(options);
      return { status: 200, headers: {}, body, rateLimit: null };
    },
    lastRateLimit: null,
    close() {},
  } as unknown as Transport;
  return { api: createTodosApi(transport, 'tok'), sent };
}

describe('the newest pending todo id', () => {
  it('reads one pending todo as the token owner and gives its id, or null when there is none', async () => {
    const one = answering([{ id: 42, body: 'anything at all', target: { nested: true } }]);
    expect(await one.api.newestPendingId()).toBe(42);
    expect(one.sent).toEqual([
      { method: 'GET', path: 'todos', token: 'tok', query: { state: 'pending', per_page: 1 } },
    ]);
    expect(await answering([]).api.newestPendingId()).toBeNull();
  });

  it('refuses an answer that is not a list of todos with ids', async () => {
    for (const body of [{}, 'x', [{ id: '42' }], [null], [{ id: 1.5 }]]) {
      await expect(answering(body).api.newestPendingId()).rejects.toBeInstanceOf(ResponseShapeError);
    }
  });
});
