import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the server saw it. `path` is raw (still URL-encoded) and has no query string. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string | string[]>;
  form: Record<string, string | string[]>;
  contentType: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  /** JSON-encoded unless it is a string or a Buffer. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (the socket stays open until the server closes). */
  hang?: boolean;
  /** Cut the connection without answering (the client sees a network error). */
  destroy?: boolean;
}

export type Handler = (request: RecordedRequest) => Reply;

export interface RecordingServer {
  /** The base URL to give createTransport (no `/api/v4`). */
  url: string;
  requests: RecordedRequest[];
  /** Replies handed out in order; when none is queued the handler answers. */
  enqueue(...replies: Reply[]): void;
  setHandler(handler: Handler): void;
  reset(): void;
  close(): Promise<void>;
}

/** Repeated keys become arrays, and so does every `name[]` key even when it comes once. */
export function parseParams(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const existing = out[key];
    if (existing === undefined) out[key] = key.endsWith('[]') ? [value] : value;
    else out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

const defaultHandler: Handler = () => ({ status: 500, body: { message: 'no reply queued in the test' } });

function send(res: ServerResponse, reply: Reply): void {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let payload: string | Buffer = '';
  if (reply.body !== undefined) {
    if (typeof reply.body === 'string' || Buffer.isBuffer(reply.body)) payload = reply.body;
    else {
      payload = JSON.stringify(reply.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  res.writeHead(status, headers);
  res.end(payload);
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  let queue: Reply[] = [];
  let handler: Handler = defaultHandler;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawUrl = req.url ?? '/';
      const queryAt = rawUrl.indexOf('?');
      const body = Buffer.concat(chunks).toString('utf8');
      const contentType = req.headers['content-type'];
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt),
        query: queryAt === -1 ? {} : parseParams(rawUrl.slice(queryAt + 1)),
        form: contentType?.startsWith('application/x-www-form-urlencoded') ? parseParams(body) : {},
        contentType,
        headers: req.headers,
        body,
      };
      requests.push(recorded);
      const reply = queue.shift() ?? handler(recorded);
      if (reply.hang) return;
      if (reply.destroy) {
        req.socket.destroy();
        return;
      }
      send(res, reply);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...replies) => queue.push(...replies),
    setHandler: (next) => {
      handler = next;
    },
    reset: () => {
      requests.length = 0;
      queue = [];
      handler = defaultHandler;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
