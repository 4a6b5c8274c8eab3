import crypto from 'node:crypto';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

// GET /metrics in Prometheus' text format. On the port Slack reaches it answers only to the operator's token
// (METRICS_TOKEN, as `Authorization: Bearer …`) and is not there at all without one; on a port of its own
// (METRICS_PORT, bound where the operator says) it needs none.

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

const digest = (text: string) => crypto.createHash('sha256').update(text).digest();

/** Whether the header carries the token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && crypto.timingSafeEqual(digest(m[1] as string), digest(token));
}

async function serve(registry: Registry, res: ServerResponse): Promise<void> {
  try {
    const text = await registry.metrics();
    res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
    res.end(text);
  } catch {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end('the metrics could not be gathered\n');
  }
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain', ...headers });
  res.end(`${text}\n`);
}

/** /metrics on the bot's own port: the token or nothing. */
export function metricsOnBotPort(registry: Registry | null, token: string | null): RouteHandler {
  return (req, res) => {
    req.resume();
    if (!registry || !token) return plain(res, 404, 'Not Found');
    if (!bearerMatches(req.headers.authorization, token)) {
      return plain(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    return serve(registry, res);
  };
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** A server of its own for /metrics (METRICS_PORT): no token, nothing else served. */
export async function startMetricsServer(registry: Registry, at: { host: string | null; port: number }) {
  const server: Server = http.createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/metrics') return plain(res, 404, 'Not Found');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method Not Allowed', { allow: 'GET' });
    return serve(registry, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host ?? undefined, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return {
    port: address && typeof address === 'object' ? address.port : at.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  } satisfies MetricsServer;
}
