// The simulator's HTTP server: node:http, the route table under /api/v4, the
// control endpoints under /__sim/, the request log and fault injection.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pushToBranch } from './domain/pushing.js';
import { tick as advance } from './domain/tick.js';
import type { RequestContext, SimResponse } from './http/context.js';
import { invalid, notFound, paramError, SimError, statusText } from './http/errors.js';
import { bool, int, list, type Params, parseBody, parseUrlEncoded, requireStr, str } from './http/params.js';
import { createRouter } from './http/router.js';
import type { ProjectRecord, State, UserRecord } from './model.js';
import { projectPath } from './present.js';
import { awardEmojiRoutes } from './routes/award-emoji.js';
import { issueRoutes } from './routes/issues.js';
import { jobRoutes } from './routes/jobs.js';
import { mergeRequestRoutes } from './routes/merge-requests.js';
import { pipelineRoutes } from './routes/pipelines.js';
import { todoEventRoutes } from './routes/todos-events.js';
import { userProjectRoutes } from './routes/users-projects.js';
import type { HistorySize } from './seed/history.js';
import { buildSeed, type SeedName } from './seed/index.js';

export interface SimulatorOptions {
  /** 0 (the default) picks a free port */
  port?: number;
  /** default 127.0.0.1; `::` or `0.0.0.0` listen on every interface */
  host?: string;
  seed?: SeedName;
  /**
   * The demo seed with four weeks of delivery history in demo/web before its recent activity (pipelines, staging and
   * production deployments, failures and a rollback), for insights to chart. Off by default: it adds rows to the
   * project's lists. `npm run demo` turns it on; `npm run sim` with SIM_HISTORY=1.
   */
  history?: boolean | HistorySize;
  /** the clock behind every timestamp (default: real time) */
  now?: () => Date;
  /** events carry their `id`, as servers after 9.5 send them (default: false, as 9.5) */
  eventIds?: boolean;
}

export interface Faults {
  /** delay before every API answer */
  latencyMs?: number;
  /** share of API calls, 0..1, answered with errorStatus instead */
  errorRate?: number;
  /** default 500 */
  errorStatus?: number;
  /** several statuses, taken in turn for the injected errors (overrides errorStatus) */
  errorStatuses?: number[];
  /** seconds, sent as Retry-After with 429 and 503 (default 1 for 429) */
  retryAfter?: number;
  /** share of API calls, 0..1, that wait `spikeMs` more (spread evenly, like errors) */
  spikeRate?: number;
  /** the extra wait of a latency spike */
  spikeMs?: number;
  /** lists answer pages of this many items whatever per_page asks (a server that ignores per_page) */
  pageSize?: number;
  /** errors and spikes touch only calls whose `METHOD /api/v4/path` matches this regular expression */
  only?: string;
  /**
   * calls per user per minute: answers carry GitLab's RateLimit-Limit/-Remaining/-Reset/-Observed headers for
   * that window (counted, not enforced)
   */
  rateLimit?: number;
}

/** What a test may overwrite on a job, as a server that answers anything would send it. */
const JOB_FIELDS = ['name', 'ref', 'stage', 'status', 'trace'] as const;

export interface SimRequestLogEntry {
  seq: number;
  at: string;
  method: string;
  /** as received: URL-encoded, without the query string */
  path: string;
  /** `name[]` keys folded into arrays under `name` */
  query: Params;
  body: Params | null;
  status: number;
  user: string | null;
}

export interface RunningSimulator {
  /** `http://127.0.0.1:PORT`, no trailing slash */
  url: string;
  port: number;
  close(): Promise<void>;
  /** back to the data set as it was at start; clears the log, the faults and the revocations */
  reset(): void;
  /** one step of the fake runner and of the team's activity */
  tick(): void;
  requests(): SimRequestLogEntry[];
  setFaults(f: Faults): void;
  /** Makes a user's token answer 401 on every API route (`restore` undoes it); throws for an unknown username. */
  revoke(username: string, o?: { restore?: boolean }): void;
  /** Whether events carry their `id` from now on (a reset goes back to the start option). */
  setEventIds(on: boolean): void;
  /** Adds a branch at the head of the project's default branch (as `POST /__sim/branches` does). */
  addBranch(project: string, name: string): void;
  /** Overwrites a job's name, ref, stage, status or trace (as `POST /__sim/jobs/:id` does). */
  editJob(id: number, fields: Partial<Record<'name' | 'ref' | 'stage' | 'status' | 'trace', string>>): void;
  /** A push of one commit onto an existing branch, as `username` (see PushRequest); answers the new head. */
  push(p: PushRequest): { sha: string };
}

/**
 * `POST /__sim/push`: one commit onto an existing branch. Open merge requests from that branch get the new
 * head (a merge pinned to the old one answers 409); those into it that change one of the files become
 * conflicting (a merge answers 405).
 */
export interface PushRequest {
  /** A path (`demo/web`) or a numeric id. */
  project: string | number;
  branch: string;
  username: string;
  message?: string;
  /** The files the commit changes (default: CHANGELOG.md); at most 5,000. */
  files?: readonly string[];
  /** Lines added to each file, 1 to 1,000 (default 1). */
  lines?: number;
}

const API_PREFIX = '/api/v4';
/** the log keeps the newest entries; scripts read it by sequence number */
const LOG_LIMIT = 50_000;

const router = createRouter([
  ...userProjectRoutes,
  ...jobRoutes,
  ...pipelineRoutes,
  ...issueRoutes,
  ...mergeRequestRoutes,
  ...awardEmojiRoutes,
  ...todoEventRoutes,
]);

function readBody(req: IncomingMessage): Promise<Buffer> {
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    return Promise.resolve(Buffer.alloc(0));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, r: SimResponse): void {
  const headers: Record<string, string | number> = { ...r.headers };
  let payload: Buffer | string | undefined;
  if (r.raw !== undefined) payload = r.raw;
  else if (r.body !== undefined) {
    payload = JSON.stringify(r.body);
    headers['Content-Type'] = 'application/json';
  }
  if (payload !== undefined) headers['Content-Length'] = Buffer.byteLength(payload);
  res.writeHead(r.status, headers);
  res.end(payload);
}

function tokenOf(req: IncomingMessage): string | undefined {
  const token = req.headers['private-token'];
  if (typeof token === 'string' && token) return token;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  return undefined;
}

function parseFaults(body: Params | null): Faults {
  const out: Faults = {};
  const num = (key: Exclude<keyof Faults, 'errorStatuses' | 'only'>, min: number, max: number) => {
    const v = body?.[key];
    if (v === undefined || v === null) return;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) throw paramError(`${key} is invalid`);
    out[key] = n;
  };
  num('latencyMs', 0, 60_000);
  num('errorRate', 0, 1);
  num('errorStatus', 400, 599);
  num('retryAfter', 0, 86_400);
  num('spikeRate', 0, 1);
  num('spikeMs', 0, 60_000);
  num('pageSize', 1, 100_000);
  num('rateLimit', 1, 1_000_000);
  const statuses = body?.errorStatuses;
  if (statuses !== undefined && statuses !== null) {
    const list = Array.isArray(statuses) ? statuses.map(Number) : [];
    if (list.length === 0 || list.some((n) => !Number.isInteger(n) || n < 400 || n > 599))
      throw paramError('errorStatuses is invalid');
    out.errorStatuses = list;
  }
  const only = body?.only;
  if (only !== undefined && only !== null) {
    if (typeof only !== 'string' || only.length > 500) throw paramError('only is invalid');
    try {
      new RegExp(only);
    } catch {
      throw paramError('only is not a regular expression');
    }
    out.only = only;
  }
  return out;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const now = options.now ?? (() => new Date());
  const seed = buildSeed(options.seed ?? 'demo', now(), { history: options.history ?? false });
  let state: State = structuredClone(seed);
  let log: SimRequestLogEntry[] = [];
  let seq = 0;
  let faults: Faults = {};
  // errors are spread evenly: every call adds errorRate, each whole unit is one error
  let errorBudget = 0;
  let errorTurn = 0;
  let spikeBudget = 0;
  // ids of the users whose tokens the server no longer accepts, as if revoked in its UI
  let revoked = new Set<number>();
  let eventIds = options.eventIds ?? false;

  const reset = () => {
    state = structuredClone(seed);
    log = [];
    faults = {};
    errorBudget = 0;
    errorTurn = 0;
    spikeBudget = 0;
    revoked = new Set();
    eventIds = options.eventIds ?? false;
  };
  const tick = () => advance(state, now());
  const setFaults = (f: Faults) => {
    faults = { ...f };
    errorBudget = 0;
    errorTurn = 0;
    spikeBudget = 0;
  };
  const revoke = (username: string, o: { restore?: boolean } = {}) => {
    const user = [...state.users.values()].find((u) => u.username === username);
    if (!user) throw notFound('User');
    if (o.restore) revoked.delete(user.id);
    else revoked.add(user.id);
  };

  const push = (p: PushRequest): { sha: string } => {
    const key = String(p.project);
    const project = [...state.projects.values()].find((x: ProjectRecord) =>
      /^\d+$/.test(key) ? x.id === Number(key) : projectPath(state, x) === key,
    );
    if (!project) throw notFound('Project');
    const author = [...state.users.values()].find((u) => u.username === p.username);
    if (!author) throw notFound('User');
    if (!project.branches[p.branch]) throw new SimError(400, { message: `branch ${p.branch} does not exist` });
    const files = p.files ?? [];
    if (files.length > 5000 || files.some((f) => f.length === 0 || f.length > 255)) throw invalid('files');
    const lines = p.lines ?? 1;
    if (!Number.isInteger(lines) || lines < 1 || lines > 1000) throw invalid('lines');
    const commit = pushToBranch(
      state,
      project,
      { branch: p.branch, author, files, lines, ...(p.message ? { message: p.message } : {}) },
      now(),
    );
    return { sha: commit.id };
  };

  function pushControl(body: Params | null): SimResponse {
    const params = body ?? {};
    const lines = int(params, 'lines');
    const files = list(params, 'files');
    const message = str(params, 'message');
    const result = push({
      project: requireStr(params, 'project'),
      branch: requireStr(params, 'branch'),
      username: requireStr(params, 'username'),
      ...(message ? { message } : {}),
      ...(files ? { files } : {}),
      ...(lines !== undefined ? { lines } : {}),
    });
    return { status: 200, body: result };
  }

  function revokeControl(body: Params | null): SimResponse {
    const params = body ?? {};
    const username = requireStr(params, 'username');
    const restore = bool(params, 'restore') ?? false;
    revoke(username, { restore });
    return { status: 200, body: { username, revoked: !restore } };
  }

  /**
   * More tokens for one user, as GitLab lets a person hold many: each authenticates as that user (a bench gives
   * each of its thousands of people a token of their own). A reset takes them back; a revoke covers them all.
   */
  function addTokens(body: Params | null): SimResponse {
    const params = body ?? {};
    const username = requireStr(params, 'username');
    const tokens = list(params, 'tokens') ?? [];
    if (tokens.length === 0) throw paramError('tokens is missing');
    if (tokens.length > 100_000 || tokens.some((t) => !/^[\x21-\x7e]{8,255}$/.test(t))) throw invalid('tokens');
    const user = [...state.users.values()].find((u) => u.username === username);
    if (!user) throw notFound('User');
    if (tokens.some((t) => (state.tokens.get(t) ?? user.id) !== user.id))
      throw new SimError(409, { message: 'a token belongs to another user' });
    for (const t of tokens) state.tokens.set(t, user.id);
    return { status: 201, body: { username, tokens: tokens.length } };
  }

  /** Overwrites fields of a job, e.g. a name, ref or status no real runner would produce, or a trace. */
  function editJob(id: number, body: Params | null): SimResponse {
    const job = state.jobs.get(id);
    if (!job) throw notFound('Job');
    const edits: Partial<Record<(typeof JOB_FIELDS)[number], string>> = {};
    for (const field of JOB_FIELDS) {
      const value = body?.[field];
      if (value === undefined) continue;
      if (typeof value !== 'string') throw paramError(`${field} is invalid`);
      edits[field] = value;
    }
    Object.assign(job, edits);
    return { status: 200, body: { id, ...edits } };
  }

  /** A branch of any name (the API has no route to push one), at the head of the default branch. */
  function addBranch(body: Params | null): SimResponse {
    const params = body ?? {};
    const path = requireStr(params, 'project');
    const name = requireStr(params, 'name');
    const project = [...state.projects.values()].find((p) => projectPath(state, p) === path);
    if (!project) throw notFound('Project');
    const head = project.branches[project.default_branch];
    if (!head) throw paramError('the default branch has no commit');
    project.branches[name] = head;
    return { status: 201, body: { project: path, name, commit: head } };
  }

  function control(method: string, path: string, body: Params | null): SimResponse {
    const job = /^\/__sim\/jobs\/(\d+)$/.exec(path);
    if (job && method === 'POST') return editJob(Number(job[1]), body);
    switch (`${method} ${path}`) {
      case 'GET /__sim/requests':
        return { status: 200, body: log };
      case 'POST /__sim/reset':
        reset();
        return { status: 200, body: { status: 'reset' } };
      case 'POST /__sim/tick':
        tick();
        return { status: 200, body: { ticks: state.ticks } };
      case 'POST /__sim/faults':
        setFaults(parseFaults(body));
        return { status: 200, body: faults };
      case 'GET /__sim/faults':
        return { status: 200, body: faults };
      case 'POST /__sim/revoke':
        return revokeControl(body);
      case 'POST /__sim/tokens':
        return addTokens(body);
      case 'POST /__sim/branches':
        return addBranch(body);
      case 'POST /__sim/push':
        return pushControl(body);
      case 'POST /__sim/events': {
        const ids = bool(body ?? {}, 'ids');
        if (ids === undefined) throw paramError('ids is missing');
        eventIds = ids;
        return { status: 200, body: { ids } };
      }
      default:
        return { status: 404, body: { error: '404 Not Found' } };
    }
  }

  const touched = (method: string, path: string) => !faults.only || new RegExp(faults.only).test(`${method} ${path}`);

  function spikeNow(): number {
    const rate = faults.spikeRate ?? 0;
    if (rate <= 0) return 0;
    spikeBudget += rate;
    if (spikeBudget < 1 - 1e-9) return 0;
    spikeBudget -= 1;
    return faults.spikeMs ?? 0;
  }

  function faultNow(): SimResponse | null {
    const rate = faults.errorRate ?? 0;
    if (rate <= 0) return null;
    errorBudget += rate;
    if (errorBudget < 1 - 1e-9) return null;
    errorBudget -= 1;
    const turn = faults.errorStatuses;
    const status = turn ? (turn[errorTurn++ % turn.length] as number) : (faults.errorStatus ?? 500);
    const headers: Record<string, string> = {};
    const retryAfter = faults.retryAfter ?? (status === 429 ? 1 : undefined);
    if (retryAfter !== undefined && (status === 429 || status === 503)) headers['Retry-After'] = String(retryAfter);
    return { status, body: { message: `${status} ${statusText(status)}` }, headers };
  }

  function api(
    req: IncomingMessage,
    {
      method,
      path,
      query,
      body,
      user,
    }: { method: string; path: string; query: Params; body: Params | null; user: UserRecord | undefined },
  ): SimResponse {
    const match = path.startsWith(`${API_PREFIX}/`) ? router.match(method, path.slice(API_PREFIX.length)) : null;
    if (!match) return { status: 404, body: { error: '404 Not Found' } };
    if (!user) return { status: 401, body: { message: '401 Unauthorized' } };
    const ctx: RequestContext = {
      state,
      user,
      params: body ? { ...query, ...body } : query,
      route: match.route,
      baseUrl: `http://${req.headers.host ?? '127.0.0.1'}`,
      path,
      query,
      now: now(),
      eventIds,
      clientIp: req.socket.remoteAddress ?? '127.0.0.1',
      userAgent: String(req.headers['user-agent'] ?? ''),
      ...(faults.pageSize ? { pageSize: faults.pageSize } : {}),
    };
    return match.handler(ctx);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const path = qi >= 0 ? url.slice(0, qi) : url;
    const query = qi >= 0 ? parseUrlEncoded(url.slice(qi + 1)) : {};
    let body: Params | null = null;
    let parseError: SimError | null = null;
    try {
      body = parseBody(await readBody(req), req.headers['content-type']);
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      parseError = err;
    }
    if (path.startsWith('/__sim/')) {
      send(
        res,
        parseError ? { status: parseError.status, body: parseError.body } : safely(() => control(method, path, body)),
      );
      return;
    }
    const token = tokenOf(req);
    const userId = token === undefined ? undefined : state.tokens.get(token);
    // a revoked token authenticates nobody: 401 on every route, logged without a user
    const user = userId === undefined || revoked.has(userId) ? undefined : state.users.get(userId);
    const faulty = touched(method, path);
    const latency = (faults.latencyMs ?? 0) + (faulty ? spikeNow() : 0);
    if (latency > 0) await sleep(latency);
    const response =
      (faulty ? faultNow() : null) ??
      (parseError
        ? { status: parseError.status, body: parseError.body }
        : safely(() => api(req, { method, path, query, body, user })));
    seq += 1;
    log.push({
      seq,
      at: now().toISOString(),
      method,
      path,
      query,
      body,
      status: response.status,
      user: user?.username ?? null,
    });
    if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
    send(res, faults.rateLimit && user ? withRateLimit(response, user.username, faults.rateLimit) : response);
  }

  const windows = new Map<string, { start: number; used: number }>();
  function withRateLimit(response: SimResponse, username: string, limit: number): SimResponse {
    const start = Math.floor(now().getTime() / 60_000) * 60_000;
    let w = windows.get(username);
    if (!w || w.start !== start) {
      w = { start, used: 0 };
      windows.set(username, w);
    }
    w.used += 1;
    const headers = {
      ...response.headers,
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(Math.max(0, limit - w.used)),
      'RateLimit-Reset': String((start + 60_000) / 1000),
      'RateLimit-Observed': String(w.used),
    };
    return { ...response, headers };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`simulator: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      if (!res.headersSent) send(res, { status: 500, body: { message: '500 Internal Server Error' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const wildcard = host === '::' || host === '0.0.0.0' || host === '127.0.0.1';
  const urlHost = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
    reset,
    tick,
    requests: () => log.slice(),
    setFaults,
    revoke,
    addBranch: (project, name) => {
      const r = addBranch({ project, name });
      if (r.status !== 201) throw new Error(`no project ${project}`);
    },
    editJob: (id, fields) => {
      const r = editJob(id, fields);
      if (r.status !== 200) throw new Error(`no job ${id}`);
    },
    push,
    setEventIds(on) {
      eventIds = on;
    },
  };
}

/** Runs a handler, turning a SimError into its response. */
function safely(run: () => SimResponse): SimResponse {
  try {
    return run();
  } catch (err) {
    if (err instanceof SimError) return { status: err.status, body: err.body };
    throw err;
  }
}
