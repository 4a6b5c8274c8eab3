import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseUrlError, respondTo } from '../../../src/slack/web-api/respond.js';

// Answers go to a response_url as one JSON POST over kept-alive sockets; a refusal is an error the
// middleware can tell the person about, never a silent loss.

let server: http.Server;
let base = '';
const seen: { path: string; type: string; body: unknown }[] = [];
/** Requests to /held are answered only when the test says so. */
const held: (() => void)[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ path: req.url ?? '', type: String(req.headers['content-type']), body: JSON.parse(body) });
      const answer = () => {
        res.writeHead(req.url === '/expired' ? 404 : 200);
        res.end('ok');
      };
      if (req.url === '/held') held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('respondTo', () => {
  it('posts the message as JSON, and a bare string as its text', async () => {
    await respondTo(`${base}/ok`)?.({ text: 'hi', response_type: 'ephemeral' });
    await respondTo(`${base}/ok`)?.('plain');
    expect(seen.slice(-2)).toEqual([
      { path: '/ok', type: 'application/json', body: { text: 'hi', response_type: 'ephemeral' } },
      { path: '/ok', type: 'application/json', body: { text: 'plain' } },
    ]);
  });

  it('rejects when Slack refuses the answer (an expired response_url)', async () => {
    await expect(respondTo(`${base}/expired`)?.({ text: 'late' })).rejects.toEqual(new ResponseUrlError(404));
  });

  it('keeps only the encoded answer while it is on its way, not the message it was made from', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    let message: { text: string; blocks: object[] } | null = { text: 'big', blocks: [{ type: 'divider' }] };
    const ref = new WeakRef(message);
    const sent = respondTo(`${base}/held`)?.(message);
    message = null;
    await expect.poll(() => held.length).toBe(1); // the POST is out; Slack has not answered yet
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(ref.deref()).toBeUndefined();
    held.shift()?.();
    await sent;
    expect(seen.at(-1)?.body).toEqual({ text: 'big', blocks: [{ type: 'divider' }] });
  });

  it('rejects when nothing answers, and gives nothing for a payload without a response_url', async () => {
    await expect(respondTo('http://127.0.0.1:9/gone')?.({ text: 'x' })).rejects.toBeInstanceOf(ResponseUrlError);
    expect(respondTo(undefined)).toBeUndefined();
    expect(respondTo('javascript:alert(1)')).toBeUndefined();
  });
});
