import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { findBlockViolations, findLimitViolations } from '../views/limits.js';

// A local stand-in for Slack's Web API: records every call in order, keeps the messages
// people would see (posted, ephemeral, updated through chat.update or a response_url),
// the views opened, and uploaded files. Like Slack it answers HTTP 200 { ok: false } on
// errors, refuses blocks that break the limits, and lets a trigger_id be used once
// within 3 seconds.

export interface FakeUser {
  id: string;
  name: string;
  realName?: string;
  tz?: string;
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

const JSON_FIELDS = new Set(['blocks', 'attachments', 'view', 'files']);

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
  private readonly triggers = new Map<string, { issuedAt: number; used: boolean }>();
  private readonly responseUrls = new Map<
    string,
    { channel: string; user: string; originKey: string | null; uses: number }
  >();
  private readonly users: Map<string, FakeUser>;
  private server: http.Server | null = null;
  private seq = 0;
  private tsCounter = 0;
  private idCounter = 0;
  port = 0;

  constructor(
    readonly botToken: string,
    users: FakeUser[],
    readonly team = { id: 'T0TEST', domain: 'test-team' },
    readonly bot = { userId: 'U0BOT', botId: 'B0BOT', appId: 'A0APP' },
  ) {
    super();
    this.setMaxListeners(0);
    this.users = new Map(users.map((u) => [u.id, u]));
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
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  // ------------------------------------------------------------ for tests

  issueTrigger(): string {
    const id = `${Date.now()}.${crypto.randomInt(1e9, 9e9)}.${crypto.randomBytes(8).toString('hex')}`;
    this.triggers.set(id, { issuedAt: Date.now(), used: false });
    return id;
  }

  registerResponseUrl(meta: { channel: string; user: string; originKey?: string | null }): string {
    const id = crypto.randomBytes(10).toString('hex');
    this.responseUrls.set(id, { channel: meta.channel, user: meta.user, originKey: meta.originKey ?? null, uses: 0 });
    return `${this.baseUrl}/response/${id}`;
  }

  /** Adds a message as if the command's ack body had shown it. */
  addMessage(m: Omit<FakeMessage, 'key' | 'ts' | 'deleted' | 'version'>): FakeMessage {
    const ts = this.nextTs();
    const msg: FakeMessage = { ...m, key: `${m.channel}:${ts}`, ts, deleted: false, version: 1 };
    this.messages.set(msg.key, msg);
    return msg;
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

  private nextTs(): string {
    this.tsCounter += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(100000 + this.tsCounter).slice(-6)}`;
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
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
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
    if (!token) response = { ok: false, error: 'not_authed' };
    else if (token !== this.botToken) response = { ok: false, error: 'invalid_auth' };
    else response = this.api(method, body, rec);
    rec.ok = response.ok === true;
    if (!rec.ok && typeof response.error === 'string') rec.error = response.error;
    this.record(rec);
    return send(200, response);
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
    if (Date.now() - t.issuedAt > 3000) return 'expired_trigger_id';
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
        rec.message = this.addMessage({
          channel: this.resolveChannel(body.channel),
          text: String(body.text ?? ''),
          blocks: body.blocks as unknown[] | undefined,
          ephemeral,
          visibleTo: ephemeral ? String(body.user) : null,
          source: method,
        });
        return ephemeral
          ? ok({ message_ts: rec.message.ts })
          : ok({ channel: rec.message.channel, ts: rec.message.ts, message: { text: rec.message.text } });
      }
      case 'chat.update': {
        const key = `${this.resolveChannel(String(body.channel ?? ''))}:${String(body.ts ?? '')}`;
        const m = this.messages.get(key);
        if (!m || m.deleted || m.ephemeral) return err('message_not_found');
        const bad = checkBlocks();
        if (bad) return bad;
        m.text = String(body.text ?? '');
        m.blocks = body.blocks as unknown[] | undefined;
        m.version += 1;
        m.source = 'chat.update';
        rec.message = m;
        return ok({ channel: m.channel, ts: m.ts });
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
          user: { id: u.id, name: u.name, real_name: u.realName ?? u.name, tz: u.tz ?? 'UTC', profile: {} },
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

export async function startFakeSlack(botToken: string, users: FakeUser[]): Promise<FakeSlack> {
  return new FakeSlack(botToken, users).start();
}
