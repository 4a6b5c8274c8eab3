import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';

// One request and its whole answer over node:http, for the calls whose answer is read whole (JSON and text):
// the transport's hot path. got's machinery (options objects, a duplex stream per request, promise wrappers)
// cost more CPU per call than the call itself; downloads keep using got for its streaming and redirects.

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Decoded (gzip, deflate, br) as the server declared it. */
  body: Buffer;
}

export interface ExchangeOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** For the whole exchange, up to the last byte of the answer. */
  timeoutMs: number;
  agents: { http: http.Agent; https: https.Agent };
}

/** No answer in time: `ms` is the limit this attempt had. */
export class ExchangeTimeout extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

const REDIRECTS = new Set([300, 301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

/** The asked encoding is undone here; anything else is handed on as it came. */
function decode(encoding: string | undefined, body: Buffer, done: (err: Error | null, out: Buffer) => void): void {
  if (encoding === 'gzip' || encoding === 'x-gzip') zlib.gunzip(body, done);
  else if (encoding === 'deflate') zlib.inflate(body, done);
  else if (encoding === 'br') zlib.brotliDecompress(body, done);
  else done(null, body);
}

const cut = () =>
  Object.assign(new Error('the connection closed before the whole answer came'), { code: 'ECONNRESET' });

export function exchangeOnce(url: URL, o: ExchangeOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const agent = url.protocol === 'https:' ? o.agents.https : o.agents.http;
    const req = (url.protocol === 'https:' ? https : http).request(url, {
      method: o.method,
      headers: o.headers,
      agent,
    });
    let settled = false;
    const settle = (err: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        req.destroy();
        reject(err);
      } else resolve(answer as Answer);
    };
    const timer = setTimeout(() => settle(new ExchangeTimeout(o.timeoutMs)), o.timeoutMs);
    req.on('error', (err) => settle(err));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', (err) => settle(err));
      res.on('close', () => {
        if (!res.complete) settle(cut());
      });
      res.on('end', () => {
        decode(res.headers['content-encoding'], Buffer.concat(chunks), (err, body) => {
          if (err) settle(Object.assign(err, { code: 'ERR_BODY_DECODE' }));
          else settle(null, { status: res.statusCode ?? 0, headers: res.headers, body });
        });
      });
    });
    req.end(o.body);
  });
}

/**
 * The exchange, following redirects as got does: the method is kept except that a 303 turns a write into a
 * GET, and the token is not sent to another origin (artifacts may live in object storage).
 */
export async function exchange(url: URL, o: ExchangeOptions): Promise<Answer> {
  let current = url;
  let options = o;
  for (let hops = 0; ; hops++) {
    const answer = await exchangeOnce(current, options);
    const location = answer.headers.location;
    if (!location || !REDIRECTS.has(answer.status)) return answer;
    if (hops >= MAX_REDIRECTS) throw Object.assign(new Error('too many redirects'), { code: 'ERR_TOO_MANY_REDIRECTS' });
    const next = new URL(Buffer.from(location, 'binary').toString(), current);
    const headers = { ...options.headers };
    if (next.host !== current.host) delete headers['private-token'];
    const toGet = answer.status === 303 && options.method !== 'GET' && options.method !== 'HEAD';
    if (toGet) {
      delete headers['content-type'];
      delete headers['content-length'];
    }
    options = { ...options, headers, ...(toGet ? { method: 'GET', body: undefined } : {}) };
    current = next;
  }
}
