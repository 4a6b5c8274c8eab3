import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../src/gitlab/errors.js';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';

// A read's answer is gathered whole before its caller sees it: these servers answer in pieces, or stop halfway.
type Answer = (res: http.ServerResponse, attempt: number) => void;

let server: http.Server | undefined;
let transport: Transport | undefined;
afterEach(async () => {
  transport?.close();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(answer: Answer): Promise<{ transport: Transport; attempts: () => number }> {
  let attempts = 0;
  server = http.createServer((_req, res) => answer(res, ++attempts));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  transport = createTransport({ baseUrl: `http://127.0.0.1:${port}`, sleep: async () => {} });
  return { transport, attempts: () => attempts };
}

const BODY = JSON.stringify([{ id: 41, body: 'x'.repeat(40_000) }, { id: 40 }]);

describe('a read whose answer comes in pieces', () => {
  it('is decoded from all of its pieces', async () => {
    const { transport } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(BODY.slice(0, 10));
      setImmediate(() => res.end(BODY.slice(10)));
    });
    const answer = await transport.request({ method: 'GET', path: 'todos', token: 't' });
    expect(answer.body).toEqual(JSON.parse(BODY));
    const text = await transport.request({ method: 'GET', path: 'todos', token: 't', responseType: 'text' });
    expect(text.body).toBe(BODY);
  });

  it('is read again when the connection is cut halfway through the body, and the caller sees the whole answer', async () => {
    const { transport, attempts } = await serve((res, attempt) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
      if (attempt > 1) return void res.end(BODY);
      res.write(BODY.slice(0, 100));
      setImmediate(() => res.socket?.destroy());
    });
    const answer = await transport.request({ method: 'GET', path: 'todos', token: 't' });
    expect(answer.body).toEqual(JSON.parse(BODY));
    expect(attempts()).toBe(2);
  });

  it('fails as unavailable when every attempt is cut halfway', async () => {
    const { transport, attempts } = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
      res.write(BODY.slice(0, 100));
      setImmediate(() => res.socket?.destroy());
    });
    await expect(transport.request({ method: 'GET', path: 'todos', token: 't' })).rejects.toBeInstanceOf(
      UnavailableError,
    );
    expect(attempts()).toBe(4);
  });
});
