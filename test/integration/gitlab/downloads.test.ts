import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../src/gitlab/errors.js';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';
import { TOKEN } from './support/harness.js';

// What happens to a download after its headers came: bodies the recording server cannot send (slow, cut short).

interface RawServer {
  url: string;
  hits: number;
  close(): Promise<void>;
}

/** Answers every request with `respond`. */
async function startRawServer(respond: (res: ServerResponse) => void): Promise<RawServer> {
  const server = createServer((_req, res) => {
    state.hits += 1;
    respond(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const state: RawServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: 0,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}

let raw: RawServer | undefined;
let transport: Transport | undefined;

afterEach(async () => {
  transport?.close();
  transport = undefined;
  await raw?.close();
  raw = undefined;
});

const download = (t: Transport) =>
  t.request({ method: 'GET', path: 'projects/1/jobs/8/artifacts', token: TOKEN, responseType: 'stream' });

async function readAll(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

describe('a download after its headers', () => {
  it('may take longer than the timeout while its body keeps coming', async () => {
    raw = await startRawServer((res) => {
      res.writeHead(200, { 'content-length': '5' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write('a');
        sent += 1;
        if (sent === 5) {
          clearInterval(timer);
          res.end();
        }
      }, 80);
    });
    // Five chunks 80 ms apart take about twice the 200 ms timeout; no gap between them reaches it.
    transport = createTransport({ baseUrl: raw.url, timeoutMs: 200 });
    const response = await download(transport);
    expect(await readAll(response.body)).toBe('aaaaa');
    expect(raw.hits).toBe(1);
  });

  it('is not retried when cut, and its error crashes nothing when the reader does not listen for it', async () => {
    raw = await startRawServer((res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('0123456789', () => setImmediate(() => res.socket?.destroy()));
    });
    transport = createTransport({ baseUrl: raw.url, retry: { limit: 3 } });
    const stream = (await download(transport)).body;
    const closed = new Promise((resolve) => stream.once('close', resolve));
    stream.resume(); // a careless reader: it takes the bytes and adds no 'error' listener
    await closed;
    expect(stream.errored).toBeInstanceOf(UnavailableError);
    expect((stream.errored as Error).message).toBe(
      'GitLab could not be reached for GET /projects/1/jobs/8/artifacts (ECONNRESET)',
    );
    expect(raw.hits).toBe(1);
  });
});
