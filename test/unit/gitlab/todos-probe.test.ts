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
      { method: 'GET', path: 'todos', token: 'tok', query: { state: 'pending', per_page: 1 }, responseType: 'text' },
    ]);
    expect(await answering([]).api.newestPendingId()).toBeNull();
  });

  it('reads the id from the text of the answer when the first todo starts with it, and parses anything else whole', async () => {
    const todo = (id: string) =>
      `{"id":${id},"project":{"id":7,"name":"web"},"body":"[{\\"id\\":1}]","state":"pending"}`;
    expect(await answering(`[${todo('42')}]`).api.newestPendingId()).toBe(42);
    expect(await answering(` [ \n{ "id" : 7 } ]\n`).api.newestPendingId()).toBe(7);
    expect(await answering('[]').api.newestPendingId()).toBeNull();
    expect(await answering(' [ ] ').api.newestPendingId()).toBeNull();
    // Not in that form (the id elsewhere, more digits than the text is read for): decoded whole, same answer.
    expect(await answering('[{"project":{"id":7},"id":43}]').api.newestPendingId()).toBe(43);
    expect(await answering('[{"id":1234567890123456}]').api.newestPendingId()).toBe(1234567890123456);
  });

  it('refuses an answer text that is not a list of todos with ids', async () => {
    for (const body of ['', 'x', '{}', '[{"id":"42"}]', '[null]', '[{"id":1.5}]', '[{"id":42', '[{"id":007}]']) {
      await expect(answering(body).api.newestPendingId()).rejects.toBeInstanceOf(ResponseShapeError);
    }
    await expect(answering('[{"id":12345678901234567890}]').api.newestPendingId()).rejects.toBeInstanceOf(
      ResponseShapeError,
    );
  });

  it('refuses an answer that is not a list of todos with ids', async () => {
    for (const body of [{}, 'x', [{ id: '42' }], [null], [{ id: 1.5 }]]) {
      await expect(answering(body).api.newestPendingId()).rejects.toBeInstanceOf(ResponseShapeError);
    }
  });
});
