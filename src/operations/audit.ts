import { GitlabError, UnavailableError } from '../gitlab/errors.js';
import type { BodyOf, RequestOptions, ResponseKind, Transport, TransportResponse } from '../gitlab/http.js';
import { routeOf } from '../gitlab/route-template.js';
import type { Logger } from '../log.js';

// One structured line for every call that may change something on the server (POST, PUT, DELETE), made as
// a person: who in Slack, who on the server, what (method, route template, resource), how it ended and how
// long it took. Never a token, a header, a query or a body: the route is a template and the resource is
// the ids it names.

/** Who a call is made for. */
export interface AuditWho {
  team: string;
  user: string;
  /** The server account of the token (null for connections made before the bot asked). */
  username: string | null;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function auditLine(
  logger: Logger,
  who: () => Promise<AuditWho>,
  {
    method,
    path,
    started,
    outcome,
  }: {
    method: string;
    path: string;
    started: number;
    outcome: { status: number | null; error?: string };
  },
): Promise<void> {
  const { route, resource } = routeOf(path);
  logger.info('audit', {
    ...(await who()),
    method,
    route,
    resource,
    status: outcome.status,
    ...(outcome.error ? { error: outcome.error } : {}),
    ms: Math.round(performance.now() - started),
  });
}

/** A write, then its audit line (also when it failed). */
async function auditedWrite<K extends ResponseKind>(
  base: Transport,
  r: RequestOptions<K>,
  who: () => Promise<AuditWho>,
  logger: Logger,
): Promise<TransportResponse<BodyOf<K>>> {
  const started = performance.now();
  try {
    const res = await base.request(r);
    await auditLine(logger, who, { method: r.method, path: r.path, started, outcome: { status: res.status } });
    return res;
  } catch (err) {
    const status = err instanceof GitlabError ? err.status : null;
    const error =
      err instanceof UnavailableError && err.status === null ? err.reason : status === null ? 'failed' : undefined;
    await auditLine(logger, who, {
      method: r.method,
      path: r.path,
      started,
      outcome: { status, ...(error ? { error } : {}) },
    }).catch(() => {});
    throw err;
  }
}

/** The transport for one person's calls, with an audit line after each write. */
export function auditedTransport(base: Transport, who: () => Promise<AuditWho>, logger: Logger): Transport {
  // Built for every call a person makes, most of them reads: a read goes straight to the base transport.
  return {
    request: (r) => (WRITES.has(r.method) ? auditedWrite(base, r, who, logger) : base.request(r)),
    get lastRateLimit() {
      return base.lastRateLimit;
    },
    close: () => base.close(),
  };
}
