import { EventEmitter } from 'node:events';
import type { MessageMetadata } from './fake-slack-rules.js';
import type { Body } from './fake-slack-wire.js';

// What the fake Slack holds: the people, the messages people would see (posted, ephemeral, updated, deleted,
// unfurled, with their metadata), the views, uploaded files, and the record of every call in order. The Web API
// methods (fake-slack-api.ts) and response_urls (fake-slack-response-url.ts) read and change it; the server
// (fake-slack.ts) routes requests to them.

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
  files?: FakeFile[];
  /** The ts of the thread it was posted in (chat.postMessage's thread_ts), if any. */
  threadTs?: string;
  /** Who wrote it when it is not the app's own message (a person's message, for unfurls). */
  user?: string;
  metadata?: MessageMetadata;
  /** chat.unfurl's unfurls by URL; a later call for the same URL replaces its unfurl. */
  unfurls?: Record<string, Record<string, unknown>>;
  /** Posted with a workflow token: the function execution its buttons belong to (their clicks carry its context). */
  functionExecutionId?: string;
}

/** A file shared in a message: its text (UTF-8), its bytes, and the alt text it was uploaded with. */
export interface FakeFile {
  id: string;
  name: string;
  content: string;
  bytes: Buffer;
  altText?: string;
}

/** A Workflow Builder step being run (function_executed was sent for it): how it ended, once it did. */
export interface FakeFunctionExecution {
  id: string;
  callbackId: string;
  inputs: Record<string, unknown>;
  /** Set by functions.completeSuccess / completeError; a second completion is refused, as Slack does. */
  ended: { outputs: Record<string, unknown> } | { error: string } | null;
}

export interface FakeSlackOptions {
  /** The clock behind message timestamps (default: real time). */
  now?: () => Date;
  /** An app-level token (`xapp-…`): apps.connections.open then hands out a Socket Mode connection. */
  appToken?: string;
  /** The workspace (default: T0TEST, test-team). */
  team?: { id: string; domain: string };
  /** The bot's own ids (default: U0BOT, B0BOT, A0APP). */
  bot?: { userId: string; botId: string; appId: string };
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
  /** The call came with a workflow token (of this function execution) instead of the bot token. */
  viaExecution?: string;
}

export class FakeWorkspace extends EventEmitter {
  readonly records: FakeRecord[] = [];
  readonly messages = new Map<string, FakeMessage>();
  readonly views = new Map<string, Record<string, unknown>>();
  /** Files by id: `content` is the bytes read as UTF-8 (text files), `bytes` the bytes as sent (images). */
  readonly files = new Map<
    string,
    { id: string; filename: string; content: string | null; bytes: Buffer | null; title?: string; altText?: string }
  >();
  /** Links still in someone's message composer (link_shared with source `composer`), by unfurl_id. */
  readonly composing = new Map<string, { text: string; unfurls?: Record<string, Record<string, unknown>> }>();
  /** trigger_ids handed out, for views.open and views.push (internal to the fake). */
  readonly triggers = new Map<string, { issuedAt: number; used: boolean }>();
  /** response_urls handed out (internal to the fake). */
  readonly responseUrls = new Map<string, { channel: string; user: string; originKey: string | null; uses: number }>();
  /** Channels whose posts are refused, with the error (internal to the fake). */
  readonly refusedChannels = new Map<string, string>();
  /** The error uploads are refused with (files.getUploadURLExternal), or null (internal to the fake). */
  refusedUploads: string | null = null;
  /** Set: a post showing an uploaded file (an image block's `slack_file`) answers this error. */
  refusedFileImages: string | null = null;
  /** Workflow Builder steps run, by function execution id. */
  readonly functionExecutions = new Map<string, FakeFunctionExecution>();
  /** Workflow tokens handed out (function_executed, and clicks on a step's messages), to their execution. */
  readonly workflowTokens = new Map<string, string>();
  readonly users: Map<string, FakeUser>;
  protected readonly now: () => Date;
  private seq = 0;
  private tsCounter = 0;
  private lastTsSeconds = 0;
  private idCounter = 0;
  /** The port the server listens on, once started. */
  port = 0;

  readonly team: { id: string; domain: string };
  readonly bot: { userId: string; botId: string; appId: string };

  constructor(
    readonly botToken: string,
    users: FakeUser[],
    options: FakeSlackOptions = {},
  ) {
    super();
    this.setMaxListeners(0);
    this.users = new Map(users.map((u) => [u.id, u]));
    this.team = options.team ?? { id: 'T0TEST', domain: 'test-team' };
    this.bot = options.bot ?? { userId: 'U0BOT', botId: 'B0BOT', appId: 'A0APP' };
    this.now = options.now ?? (() => new Date());
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
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

  // ------------------------------------------------------------ for the methods and the server

  /** Unique and increasing, even when the clock stands still or goes back. */
  nextTs(): string {
    this.tsCounter += 1;
    this.lastTsSeconds = Math.max(this.lastTsSeconds, Math.floor(this.now().getTime() / 1000));
    return `${this.lastTsSeconds}.${String(1_000_000 + (this.tsCounter % 1_000_000)).slice(-6)}`;
  }

  nextId(prefix: string): string {
    this.idCounter += 1;
    return `${prefix}FAKE${String(this.idCounter).padStart(5, '0')}`;
  }

  record(r: Omit<FakeRecord, 'seq'>): FakeRecord {
    this.seq += 1;
    const rec = { seq: this.seq, ...r };
    this.records.push(rec);
    this.emit('record', rec);
    return rec;
  }

  /** A message as Slack's API shows it (chat.postMessage's answer, conversations.history). */
  apiMessage(m: FakeMessage, withMetadata: boolean): Body {
    const out: Body = { type: 'message', ts: m.ts, text: m.text };
    if (m.user) out.user = m.user;
    else
      Object.assign(out, { user: this.bot.userId, bot_id: this.bot.botId, app_id: this.bot.appId, team: this.team.id });
    if (m.blocks) out.blocks = m.blocks;
    if (m.threadTs) out.thread_ts = m.threadTs;
    if (m.files) out.files = m.files.map((f) => ({ id: f.id, name: f.name, title: f.name }));
    if (m.version > 1) out.edited = { user: m.user ?? this.bot.userId, ts: m.ts };
    if (m.unfurls)
      out.attachments = Object.entries(m.unfurls).map(([url, u], i) => ({ ...u, from_url: url, id: i + 1 }));
    if (withMetadata && m.metadata) out.metadata = m.metadata;
    return out;
  }

  /** A message the app may change: not ephemeral, not deleted, in the channel given. */
  findMessage(body: Body): FakeMessage | undefined {
    const m = this.messages.get(`${this.resolveChannel(String(body.channel ?? ''))}:${String(body.ts ?? '')}`);
    return m && !m.deleted && !m.ephemeral ? m : undefined;
  }

  takeTrigger(id: unknown): string | null {
    if (typeof id !== 'string' || !id) return 'invalid_arguments';
    const t = this.triggers.get(id);
    if (!t) return 'invalid_trigger_id';
    if (t.used) return 'exchanged_trigger_id';
    // 3 s of elapsed time, whatever the clock of the test says
    if (performance.now() - t.issuedAt > 3000) return 'expired_trigger_id';
    t.used = true;
    return null;
  }

  dmFor(userId: string): string {
    return `D${userId.replace(/^[UW]/, '')}`;
  }

  resolveChannel(ch: string): string {
    return /^[UW][A-Z0-9]+$/.test(ch) ? this.dmFor(ch) : ch;
  }
}
