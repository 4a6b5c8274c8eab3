import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callMethod } from './fake-slack-api.js';
import { answerResponseUrl } from './fake-slack-response-url.js';
import { type FakeRecord, type FakeSlackOptions, type FakeUser, FakeWorkspace } from './fake-slack-state.js';
import { type Body, extractUpload, parseBody, readAll } from './fake-slack-wire.js';
import { FakeSocketMode } from './fake-socket.js';

// A local stand-in for Slack's Web API: records every call in order, keeps the messages
// people would see (posted, ephemeral, updated through chat.update or a response_url,
// deleted, unfurled, with their metadata), the views opened, and uploaded files. Like
// Slack it answers HTTP 200 { ok: false } on errors, refuses blocks that break the limits,
// lets a trigger_id be used once within 3 seconds, and answers HTTP 429 with Retry-After
// when a test asks it to rate-limit a method. This file is the server and what tests set up;
// what it holds is fake-slack-state.ts, the methods fake-slack-api.ts, response_urls
// fake-slack-response-url.ts.

export type {
  FakeFile,
  FakeFunctionExecution,
  FakeMessage,
  FakeRecord,
  FakeSlackOptions,
  FakeUser,
} from './fake-slack-state.js';

export class FakeSlack extends FakeWorkspace {
  private readonly rateLimits = new Map<string, { remaining: number; retryAfter: number }>();
  private server: http.Server | null = null;
  /** Requests each connection has carried, to tell a kept-alive connection's later requests from its first. */
  private readonly served = new WeakMap<object, number>();
  private resetsOfReused: { pathPrefix: string; times: number } | null = null;
  /** Socket Mode: the app-level token apps.connections.open accepts, and the socket it hands out. */
  private appToken: string | null;
  readonly socketMode = new FakeSocketMode();

  /** Socket Mode: from now on apps.connections.open refuses the app-level token (`invalid_auth`), or accepts it. */
  refuseAppToken(refused = true): void {
    this.refusedAppToken = refused;
  }
  private refusedAppToken = false;

  constructor(botToken: string, users: FakeUser[], options: FakeSlackOptions = {}) {
    super(botToken, users, options);
    this.appToken = options.appToken ?? null;
  }

  /** The value for SLACK_API_URL. */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      if (this.resetReused(req)) return;
      this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ok: false, error: `fake_internal_error: ${String(err)}` }));
      });
    });
    this.server.on('upgrade', (req, socket) => {
      if ((req.url ?? '').startsWith('/socket')) this.socketMode.upgrade(req, socket);
      else socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    this.socketMode.dropAll();
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  // ------------------------------------------------------------ for tests

  issueTrigger(): string {
    const id = `${Math.floor(this.now().getTime() / 1000)}.${crypto.randomInt(1e9, 9e9)}.${crypto.randomBytes(8).toString('hex')}`;
    this.triggers.set(id, { issuedAt: performance.now(), used: false });
    return id;
  }

  registerResponseUrl(meta: { channel: string; user: string; originKey?: string | null }): string {
    const id = crypto.randomBytes(10).toString('hex');
    this.responseUrls.set(id, { channel: meta.channel, user: meta.user, originKey: meta.originKey ?? null, uses: 0 });
    return `${this.baseUrl}/response/${id}`;
  }

  /**
   * A Workflow Builder step Slack starts running (function_executed): its execution id and the workflow token that
   * comes with it. Like Slack's, the token works for the Web API until the execution ends, and is refused after.
   */
  startFunctionExecution(callbackId: string, inputs: Record<string, unknown>): { executionId: string; token: string } {
    const executionId = this.nextId('Fx');
    this.functionExecutions.set(executionId, { id: executionId, callbackId, inputs, ended: null });
    return { executionId, token: this.issueWorkflowToken(executionId) };
  }

  /** Another workflow token for an execution (a click on a message posted with one carries a fresh one). */
  issueWorkflowToken(executionId: string): string {
    const token = `xwfp-${crypto.randomBytes(12).toString('hex')}`;
    this.workflowTokens.set(token, executionId);
    return token;
  }

  /** Links a person is typing: the unfurl_id Slack's link_shared carries for them (source `composer`). */
  startComposing(urls: readonly string[]): string {
    const id = `${crypto.randomUUID()}`;
    this.composing.set(id, { text: urls.map((u) => `<${u}>`).join(' ') });
    return id;
  }

  /**
   * The next `times` calls of `method` answer HTTP 429 `{ ok: false, error: 'ratelimited' }` with
   * `Retry-After: retryAfter` (seconds, default 1), as Slack does; later calls are served again.
   */
  rateLimit(method: string, o: { times: number; retryAfter?: number }): void {
    const retryAfter = o.retryAfter ?? 1;
    if (!Number.isInteger(o.times) || o.times < 0)
      throw new Error(`rateLimit: times must be a whole number, got ${o.times}`);
    if (!Number.isInteger(retryAfter) || retryAfter < 0)
      throw new Error(`rateLimit: retryAfter must be whole seconds, got ${retryAfter}`);
    if (o.times === 0) this.rateLimits.delete(method);
    else this.rateLimits.set(method, { remaining: o.times, retryAfter });
  }

  /**
   * Posts (chat.postMessage) into `channel` answer `{ ok: false, error }` from now on, as when the bot was removed
   * from it or it was archived; `null` lets them through again.
   */
  refusePosts(channel: string, error: string | null): void {
    if (error === null) this.refusedChannels.delete(channel);
    else this.refusedChannels.set(channel, error);
  }

  /** Uploads (files.getUploadURLExternal) answer `{ ok: false, error }` from now on; `null` lets them through again. */
  refuseUploads(error: string | null): void {
    this.refusedUploads = error;
  }

  /**
   * Posts that show an uploaded file in an image block (`slack_file`) answer `{ ok: false, error }` from now on, as
   * Slack answers `invalid_blocks` for a file it has not finished processing; `null` lets them through again.
   */
  refuseFileImages(error: string | null): void {
    this.refusedFileImages = error;
  }

  /**
   * The next `times` requests to a path starting with `pathPrefix` that arrive on a kept-alive connection already
   * used find it closed without an answer: what a client meets when the server's idle timeout ends that connection
   * just as the client sends on it again.
   */
  resetReusedConnections(pathPrefix: string, times = 1): void {
    this.resetsOfReused = times > 0 ? { pathPrefix, times } : null;
  }

  // ------------------------------------------------------------ the server

  private resetReused(req: http.IncomingMessage): boolean {
    const before = this.served.get(req.socket) ?? 0;
    this.served.set(req.socket, before + 1);
    const reset = this.resetsOfReused;
    if (!reset || before === 0 || !(req.url ?? '').startsWith(reset.pathPrefix)) return false;
    reset.times -= 1;
    if (reset.times <= 0) this.resetsOfReused = null;
    req.socket.destroy();
    return true;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const buf = await readAll(req);
    const contentType = String(req.headers['content-type'] ?? '');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      res.end(JSON.stringify(body));
    };
    if (url.pathname.startsWith('/upload/')) {
      const id = decodeURIComponent(url.pathname.slice('/upload/'.length));
      const file = this.files.get(id);
      this.record({ kind: 'upload', method: 'upload', body: { id, length: buf.length }, ok: !!file, violations: [] });
      if (!file) return send(404, { ok: false });
      file.bytes = extractUpload(buf, contentType);
      file.content = file.bytes.toString('utf8');
      return send(200, { ok: true });
    }
    if (url.pathname.startsWith('/response/')) {
      return send(
        ...answerResponseUrl(
          this,
          url.pathname.slice('/response/'.length),
          parseBody(buf, contentType || 'application/json'),
        ),
      );
    }
    const m = /^\/api\/([A-Za-z0-9_.]+)$/.exec(url.pathname);
    if (!m) return send(404, { ok: false, error: 'unknown_path' });
    const method = m[1] as string;
    const body = parseBody(buf, contentType);
    for (const [k, v] of url.searchParams) if (!(k in body)) body[k] = v;
    const auth = String(req.headers.authorization ?? '');
    const token = /^Bearer\s+(.+)$/i.exec(auth)?.[1] ?? (typeof body.token === 'string' ? body.token : undefined);
    const shown = { ...body };
    if ('token' in shown) shown.token = '[redacted]';
    const rec: Omit<FakeRecord, 'seq'> = { kind: 'api', method, body: shown, ok: false, violations: [] };
    let response: Body;
    const limit = this.rateLimits.get(method);
    if (limit && limit.remaining > 0) {
      limit.remaining -= 1;
      rec.error = 'ratelimited';
      this.record(rec);
      return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(limit.retryAfter) });
    }
    if (!token) response = { ok: false, error: 'not_authed' };
    else if (method === 'apps.connections.open') {
      // Only the app-level token opens a socket, as in Slack.
      response =
        this.appToken && token === this.appToken && !this.refusedAppToken
          ? { ok: true, url: `ws://127.0.0.1:${this.port}/socket/${this.nextId('S')}` }
          : { ok: false, error: token === this.botToken ? 'not_allowed_token_type' : 'invalid_auth' };
    } else if (token === this.botToken) response = callMethod(this, { method, body, rec });
    else if (this.workflowTokens.has(token)) {
      const execution = this.functionExecutions.get(this.workflowTokens.get(token) as string);
      // Slack revokes a workflow token once its step has completed.
      if (execution) rec.viaExecution = execution.id;
      response =
        execution && execution.ended === null
          ? callMethod(this, { method, body, rec, viaExecution: execution.id })
          : { ok: false, error: 'token_revoked' };
    } else response = { ok: false, error: 'invalid_auth' };
    rec.ok = response.ok === true;
    if (!rec.ok && typeof response.error === 'string') rec.error = response.error;
    this.record(rec);
    return send(200, response);
  }
}

export async function startFakeSlack(
  botToken: string,
  users: FakeUser[],
  o: FakeSlackOptions = {},
): Promise<FakeSlack> {
  return new FakeSlack(botToken, users, o).start();
}
