import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findBlockViolations, findLimitViolations } from '../views/limits.js';
import { checkUnfurls, historyPage, type MessageMetadata, parseMetadata } from './fake-slack-rules.js';
import { FakeSocketMode } from './fake-socket.js';

// A local stand-in for Slack's Web API: records every call in order, keeps the messages
// people would see (posted, ephemeral, updated through chat.update or a response_url,
// deleted, unfurled, with their metadata), the views opened, and uploaded files. Like
// Slack it answers HTTP 200 { ok: false } on errors, refuses blocks that break the limits,
// lets a trigger_id be used once within 3 seconds, and answers HTTP 429 with Retry-After
// when a test asks it to rate-limit a method.

export interface FakeUser {
  id: string;
  name: string;
  realName?: string;
  tz?: string;
  /** A workspace admin (users.info `is_admin`). */
  isAdmin?: boolean;
}

export interface FakeMessage {
  key: string;
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  ephemeral: boolean;
  visibleTo: string | null;
  deleted: boolean;
  version: number;
  source: string;
  files?: { id: string; name: string; content: string }[];
  /** Who wrote it when it is not the app's own message (a person's message, for unfurls). */
  user?: string;
  metadata?: MessageMetadata;
  /** chat.unfurl's unfurls by URL; a later call for the same URL replaces its unfurl. */
  unfurls?: Record<string, Record<string, unknown>>;
}

export interface FakeSlackOptions {
  /** The clock behind message timestamps (default: real time). */
  now?: () => Date;
  /** An app-level token (`xapp-…`): apps.connections.open then hands out a Socket Mode connection. */
  appToken?: string;
}

export interface FakeRecord {
  seq: number;
  kind: 'api' | 'response_url' | 'upload';
  method: string;
  body: Record<string, unknown>;
  ok: boolean;
  error?: string;
  violations: string[];
  message?: FakeMessage;
  view?: Record<string, unknown>;
}

type Body = Record<string, unknown>;

const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'files', 'metadata', 'unfurls', 'user_auth_blocks']);
const truthy = (x: unknown) => x === true || x === 'true' || x === '1' || x === 1;

function parseBody(buf: Buffer, contentType: string): Body {
  const text = buf.toString('utf8');
  if (contentType.includes('application/json')) {
    try {
      return text ? (JSON.parse(text) as Body) : {};
    } catch {
      return { __unparsable: text };
    }
  }
  const out: Body = {};
  for (const [k, v] of new URLSearchParams(text)) {
    if (JSON_FIELDS.has(k) && /^\s*[[{]/.test(v)) {
      try {
        out[k] = JSON.parse(v);
        continue;
      } catch {
        /* keep the raw string */
      }
    }
    out[k] = v;
  }
  return out;
}

const readAll = (req: http.IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export class FakeSlack extends EventEmitter {
  readonly records: FakeRecord[] = [];
  readonly messages = new Map<string, FakeMessage>();
  readonly views = new Map<string, Record<string, unknown>>();
  readonly files = new Map<string, { id: string; filename: string; content: string | null; title?: string }>();
  /** Links still in someone's message composer (link_shared with source `composer`), by unfurl_id. */
  readonly composing = new Map<string, { text: string; unfurls?: Record<string, Record<string, unknown>> }>();
  private readonly triggers = new Map<string, { issuedAt: number; used: boolean }>();
  private readonly responseUrls = new Map<
    string,
    { channel: string; user: string; originKey: string | null; uses: number }
  >();
  private readonly users: Map<string, FakeUser>;
  private readonly rateLimits = new Map<string, { remaining: number; retryAfter: number }>();
  private readonly refusedChannels = new Map<string, string>();
  private server: http.Server | null = null;
  private seq = 0;
  private tsCounter = 0;
  private lastTsSeconds = 0;
  private idCounter = 0;
  private readonly now: () => Date;
  /** Socket Mode: the app-level token apps.connections.open accepts, and the socket it hands out. */
  private appToken: string | null;
  readonly socketMode = new FakeSocketMode();

  /** Socket Mode: from now on apps.connections.open refuses the app-level token (`invalid_auth`), or accepts it. */
  refuseAppToken(refused = true): void {
    this.refusedAppToken = refused;
  }
  private refusedAppToken = false;
  port = 0;

  constructor(
    readonly botToken: string,
    users: FakeUser[],
    readonly team = { id: 'T0TEST', domain: 'test-team' },
    readonly bot = { userId: 'U0BOT', botId: 'B0BOT', appId: 'A0APP' },
    o: FakeSlackOptions = {},
  ) {
    super();
    this.setMaxListeners(0);
    this.users = new Map(users.map((u) => [u.id, u]));
    this.now = o.now ?? (() => new Date());
    this.appToken = o.appToken ?? null;
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The value for SLACK_API_URL. */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
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

  /** Links a person is typing: the unfurl_id Slack's link_shared carries for them (source `composer`). */
  startComposing(urls: readonly string[]): string {
    const id = `${crypto.randomUUID()}`;
    this.composing.set(id, { text: urls.map((u) => `<${u}>`).join(' ') });
    return id;
  }

  /** Adds a message as if the command's ack body had shown it. */
  addMessage(m: Omit<FakeMessage, 'key' | 'ts' | 'deleted' | 'version'>): FakeMessage {
    const ts = this.nextTs();
    const msg: FakeMessage = { ...m, key: `${m.channel}:${ts}`, ts, deleted: false, version: 1 };
    this.messages.set(msg.key, msg);
    return msg;
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

  get lastSeq(): number {
    return this.seq;
  }

  since(seq: number, pred?: (r: FakeRecord) => boolean): FakeRecord[] {
    return this.records.filter((r) => r.seq > seq && (!pred || pred(r)));
  }

  calls(method: string): FakeRecord[] {
    return this.records.filter((r) => r.method === method);
  }

  /** Resolves with the first record after `fromSeq` matching `pred`, or null after `timeoutMs`. */
  waitFor(pred: (r: FakeRecord) => boolean, { fromSeq = 0, timeoutMs = 5000 } = {}): Promise<FakeRecord | null> {
    const hit = this.records.find((r) => r.seq > fromSeq && pred(r));
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve) => {
      const onRecord = (r: FakeRecord) => {
        if (r.seq > fromSeq && pred(r)) {
          clearTimeout(timer);
          this.off('record', onRecord);
          resolve(r);
        }
      };
      const timer = setTimeout(() => {
        this.off('record', onRecord);
        resolve(null);
      }, timeoutMs);
      this.on('record', onRecord);
    });
  }

  // ------------------------------------------------------------ internals

  /** Unique and increasing, even when the clock stands still or goes back. */
  private nextTs(): string {
    this.tsCounter += 1;
    this.lastTsSeconds = Math.max(this.lastTsSeconds, Math.floor(this.now().getTime() / 1000));
    return `${this.lastTsSeconds}.${String(1_000_000 + (this.tsCounter % 1_000_000)).slice(-6)}`;
  }

  private nextId(prefix: string): string {
    this.idCounter += 1;
    return `${prefix}FAKE${String(this.idCounter).padStart(5, '0')}`;
  }

  private record(r: Omit<FakeRecord, 'seq'>): FakeRecord {
    this.seq += 1;
    const rec = { seq: this.seq, ...r };
    this.records.push(rec);
    this.emit('record', rec);
    return rec;
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
      file.content = extractUpload(buf, contentType);
      return send(200, { ok: true });
    }
    if (url.pathname.startsWith('/response/')) {
      return send(
        ...this.responseUrl(url.pathname.slice('/response/'.length), parseBody(buf, contentType || 'application/json')),
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
    } else if (token !== this.botToken) response = { ok: false, error: 'invalid_auth' };
    else response = this.api(method, body, rec);
    rec.ok = response.ok === true;
    if (!rec.ok && typeof response.error === 'string') rec.error = response.error;
    this.record(rec);
    return send(200, response);
  }

  /** A message as Slack's API shows it (chat.postMessage's answer, conversations.history). */
  private apiMessage(m: FakeMessage, withMetadata: boolean): Body {
    const out: Body = { type: 'message', ts: m.ts, text: m.text };
    if (m.user) out.user = m.user;
    else
      Object.assign(out, { user: this.bot.userId, bot_id: this.bot.botId, app_id: this.bot.appId, team: this.team.id });
    if (m.blocks) out.blocks = m.blocks;
    if (m.version > 1) out.edited = { user: m.user ?? this.bot.userId, ts: m.ts };
    if (m.unfurls)
      out.attachments = Object.entries(m.unfurls).map(([url, u], i) => ({ ...u, from_url: url, id: i + 1 }));
    if (withMetadata && m.metadata) out.metadata = m.metadata;
    return out;
  }

  /** A message the app may change: not ephemeral, not deleted, in the channel given. */
  /** What chat.unfurl addresses: channel and ts (a posted message), or unfurl_id and source (links in the composer). */
  private unfurlTargetOf(
    body: Body,
  ): { message: FakeMessage } | { draft: { text: string; unfurls?: Record<string, Body> } } | { error: string } {
    if (body.unfurl_id !== undefined || body.source !== undefined) {
      if (typeof body.unfurl_id !== 'string' || !body.unfurl_id) return { error: 'invalid_arguments' };
      if (body.source !== 'composer' && body.source !== 'conversations_history') return { error: 'invalid_source' };
      if (body.channel !== undefined || body.ts !== undefined) return { error: 'invalid_arguments' };
      const draft = body.source === 'composer' ? this.composing.get(body.unfurl_id) : undefined;
      return draft ? { draft } : { error: 'cannot_find_message' };
    }
    if (typeof body.channel !== 'string' || !body.channel) return { error: 'missing_channel' };
    if (typeof body.ts !== 'string' || !body.ts) return { error: 'missing_ts' };
    const message = this.findMessage(body);
    return message ? { message } : { error: 'cannot_find_message' };
  }

  private findMessage(body: Body): FakeMessage | undefined {
    const m = this.messages.get(`${this.resolveChannel(String(body.channel ?? ''))}:${String(body.ts ?? '')}`);
    return m && !m.deleted && !m.ephemeral ? m : undefined;
  }

  private responseUrl(id: string, body: Body): [number, Body] {
    const entry = this.responseUrls.get(id);
    const rec: Omit<FakeRecord, 'seq'> = {
      kind: 'response_url',
      method: 'response_url',
      body,
      ok: false,
      violations: [],
    };
    const fail = (status: number, error: string): [number, Body] => {
      rec.error = error;
      this.record(rec);
      return [status, { ok: false, error }];
    };
    if (!entry) return fail(404, 'no_active_hooks');
    entry.uses += 1;
    if (entry.uses > 5) return fail(404, 'used_url');
    const violations = findBlockViolations(body.blocks, 'message');
    if (violations.length) {
      rec.violations.push(...violations);
      return fail(400, 'invalid_blocks');
    }
    const truthy = (x: unknown) => x === true || x === 'true';
    if (truthy(body.delete_original)) {
      const m = entry.originKey ? this.messages.get(entry.originKey) : undefined;
      if (!m) return fail(404, 'message_not_found');
      m.deleted = true;
      rec.message = m;
    } else if (truthy(body.replace_original)) {
      const m = entry.originKey ? this.messages.get(entry.originKey) : undefined;
      if (!m) return fail(404, 'message_not_found');
      m.text = String(body.text ?? '');
      m.blocks = body.blocks as unknown[] | undefined;
      m.version += 1;
      m.source = 'response_url';
      rec.message = m;
    } else {
      if (body.text == null && body.blocks == null) return fail(400, 'no_text');
      const inChannel = body.response_type === 'in_channel';
      rec.message = this.addMessage({
        channel: entry.channel,
        text: String(body.text ?? ''),
        blocks: body.blocks as unknown[] | undefined,
        ephemeral: !inChannel,
        visibleTo: inChannel ? null : entry.user,
        source: 'response_url',
      });
    }
    rec.ok = true;
    this.record(rec);
    return [200, { ok: true }];
  }

  private takeTrigger(id: unknown): string | null {
    if (typeof id !== 'string' || !id) return 'invalid_arguments';
    const t = this.triggers.get(id);
    if (!t) return 'invalid_trigger_id';
    if (t.used) return 'exchanged_trigger_id';
    // 3 s of elapsed time, whatever the clock of the test says
    if (performance.now() - t.issuedAt > 3000) return 'expired_trigger_id';
    t.used = true;
    return null;
  }

  private dmFor(userId: string): string {
    return `D${userId.replace(/^[UW]/, '')}`;
  }

  private resolveChannel(ch: string): string {
    return /^[UW][A-Z0-9]+$/.test(ch) ? this.dmFor(ch) : ch;
  }

  private api(method: string, body: Body, rec: Omit<FakeRecord, 'seq'>): Body {
    const ok = (extra: Body = {}) => ({ ok: true, ...extra });
    const err = (error: string) => ({ ok: false, error });
    const checkBlocks = (): Body | null => {
      const v = findBlockViolations(body.blocks, 'message');
      if (v.length) {
        rec.violations.push(...v);
        return err('invalid_blocks');
      }
      return null;
    };
    switch (method) {
      case 'auth.test':
        return ok({
          team_id: this.team.id,
          user_id: this.bot.userId,
          bot_id: this.bot.botId,
          team: 'Test',
          user: 'bot',
        });
      case 'chat.postMessage':
      case 'chat.postEphemeral': {
        if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
        if (body.text == null && body.blocks == null) return err('no_text');
        const bad = checkBlocks();
        if (bad) return bad;
        const ephemeral = method === 'chat.postEphemeral';
        if (ephemeral && (typeof body.user !== 'string' || !this.users.has(body.user))) return err('user_not_found');
        const refused = ephemeral ? undefined : this.refusedChannels.get(this.resolveChannel(body.channel));
        if (refused) return err(refused);
        const meta = body.metadata === undefined || ephemeral ? null : parseMetadata(body.metadata);
        if (meta && 'error' in meta) return err(meta.error);
        rec.message = this.addMessage({
          channel: this.resolveChannel(body.channel),
          text: String(body.text ?? ''),
          blocks: body.blocks as unknown[] | undefined,
          ephemeral,
          visibleTo: ephemeral ? String(body.user) : null,
          source: method,
          ...(meta ? { metadata: meta.metadata } : {}),
        });
        return ephemeral
          ? ok({ message_ts: rec.message.ts })
          : ok({ channel: rec.message.channel, ts: rec.message.ts, message: this.apiMessage(rec.message, true) });
      }
      case 'chat.update': {
        const m = this.findMessage(body);
        if (!m) return err('message_not_found');
        if (m.user) return err('cant_update_message');
        const bad = checkBlocks();
        if (bad) return bad;
        const meta = body.metadata === undefined ? null : parseMetadata(body.metadata);
        if (meta && 'error' in meta) return err(meta.error);
        m.text = String(body.text ?? '');
        m.blocks = body.blocks as unknown[] | undefined;
        // metadata left out of an update stays as it was
        if (meta) m.metadata = meta.metadata;
        m.version += 1;
        m.source = 'chat.update';
        rec.message = m;
        return ok({ channel: m.channel, ts: m.ts, text: m.text });
      }
      case 'chat.delete': {
        if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
        const m = this.findMessage(body);
        if (!m) return err('message_not_found');
        if (m.user) return err('cant_delete_message');
        m.deleted = true;
        m.source = 'chat.delete';
        rec.message = m;
        return ok({ channel: m.channel, ts: m.ts });
      }
      case 'chat.unfurl': {
        // user_auth_message, user_auth_required, user_auth_url and user_auth_blocks only matter to a person who
        // has not authorised the app; they change nothing here.
        const target = this.unfurlTargetOf(body);
        if ('error' in target) return err(target.error);
        const shown = 'message' in target ? target.message : target.draft;
        const checked = checkUnfurls(body.unfurls, shown.text);
        if ('error' in checked) {
          rec.violations.push(...checked.violations);
          return err(checked.error);
        }
        shown.unfurls = { ...shown.unfurls, ...checked.unfurls };
        if ('message' in target) rec.message = target.message;
        return ok();
      }
      case 'conversations.history': {
        if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
        const channel = this.resolveChannel(body.channel);
        const shown = [...this.messages.values()].filter((m) => m.channel === channel && !m.deleted && !m.ephemeral);
        const page = historyPage(shown, body);
        if ('error' in page) return err(page.error);
        const withMetadata = truthy(body.include_all_metadata);
        return ok({
          messages: page.messages.map((m) => this.apiMessage(m, withMetadata)),
          has_more: page.has_more,
          pin_count: 0,
          ...(body.latest ? { latest: String(body.latest) } : {}),
          response_metadata: { next_cursor: page.next_cursor },
        });
      }
      case 'views.open':
      case 'views.push':
      case 'views.update':
      case 'views.publish': {
        if (method === 'views.open' || method === 'views.push') {
          const t = this.takeTrigger(body.trigger_id);
          if (t) {
            rec.violations.push(t);
            return err(t);
          }
        }
        const view = body.view as Record<string, unknown> | undefined;
        if (!view || typeof view !== 'object') return err('invalid_arguments');
        // A home tab is published for one known person, and only a home view can be (its limit is 100 blocks).
        if (method === 'views.publish') {
          if (typeof body.user_id !== 'string' || !this.users.has(body.user_id)) {
            rec.violations.push('invalid `user_id`');
            return { ...err('invalid_arguments'), response_metadata: { messages: ['invalid `user_id`'] } };
          }
          if (view.type !== 'home') {
            rec.violations.push(`views.publish needs a home view, got ${String(view.type)}`);
            return err('invalid_arguments');
          }
        } else if (view.type !== 'modal') {
          rec.violations.push(`${method} needs a modal, got ${String(view.type)}`);
          return err('invalid_arguments');
        }
        const v = findLimitViolations(view);
        if (v.length) {
          rec.violations.push(...v);
          return err('invalid_arguments');
        }
        const id = method === 'views.update' && typeof body.view_id === 'string' ? body.view_id : this.nextId('V');
        const stored = { ...view, id };
        this.views.set(id, stored);
        rec.view = stored;
        return ok({ view: stored });
      }
      case 'users.info': {
        const u = this.users.get(String(body.user ?? ''));
        if (!u) return err('user_not_found');
        return ok({
          user: {
            id: u.id,
            name: u.name,
            real_name: u.realName ?? u.name,
            tz: u.tz ?? 'UTC',
            is_admin: u.isAdmin === true,
            is_owner: false,
            profile: {},
          },
        });
      }
      case 'conversations.open': {
        const user = String(body.users ?? '').split(',')[0] ?? '';
        if (!this.users.has(user)) return err('user_not_found');
        return ok({ channel: { id: this.dmFor(user) } });
      }
      case 'files.getUploadURLExternal': {
        const length = Number(body.length);
        if (typeof body.filename !== 'string' || !Number.isFinite(length) || length <= 0)
          return err('invalid_arguments');
        const id = this.nextId('F');
        this.files.set(id, { id, filename: body.filename, content: null });
        return ok({ upload_url: `${this.baseUrl}/upload/${id}`, file_id: id });
      }
      case 'files.completeUploadExternal': {
        let list = body.files;
        if (typeof list === 'string') list = JSON.parse(list);
        if (!Array.isArray(list) || list.length === 0) return err('invalid_arguments');
        const done: { id: string; name: string; content: string }[] = [];
        for (const f of list as { id: string; title?: string }[]) {
          const file = this.files.get(f.id);
          if (!file || file.content === null) return err('file_not_found');
          file.title = f.title ?? file.filename;
          done.push({ id: file.id, name: file.filename, content: file.content });
        }
        const channel = typeof body.channel_id === 'string' ? body.channel_id : null;
        if (channel) {
          rec.message = this.addMessage({
            channel: this.resolveChannel(channel),
            text: String(body.initial_comment ?? ''),
            ephemeral: false,
            visibleTo: null,
            source: method,
            files: done,
          });
        }
        return ok({ files: done.map((f) => ({ id: f.id, name: f.name })) });
      }
      default:
        return err('unknown_method');
    }
  }
}

/** The uploaded bytes, whether sent raw or as multipart/form-data. */
function extractUpload(buf: Buffer, contentType: string): string {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) return buf.toString('utf8');
  const boundary = `--${m[1] ?? m[2]}`;
  const text = buf.toString('utf8');
  const part = text.split(boundary).find((p) => /filename="/.test(p));
  if (!part) return text;
  const start = part.indexOf('\r\n\r\n');
  return part.slice(start + 4).replace(/\r\n$/, '');
}

export async function startFakeSlack(
  botToken: string,
  users: FakeUser[],
  o: FakeSlackOptions = {},
): Promise<FakeSlack> {
  return new FakeSlack(botToken, users, undefined, undefined, o).start();
}
