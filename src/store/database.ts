import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { DatabaseBusyError } from '../errors.js';
import { CLAIMS_SQLITE_DDL } from './claim-store.js';

export type Db = Database.Database;

// better-sqlite3 is synchronous: while SQLite waits for a lock (busy_timeout) the whole process waits,
// acks and /healthz included. So a statement waits only briefly for a lock held by another process,
// and the waiting between attempts happens on timers, with the event loop free. WAL lets reads go on
// while another connection writes.

// Each entry moves the schema one version up; `PRAGMA user_version` records how far a
// database has come, so a newer bot can open an older file and bring it forward.
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE user_tokens (
     team_id      TEXT NOT NULL,
     user_id      TEXT NOT NULL,
     sealed_token TEXT NOT NULL,
     key_id       TEXT NOT NULL,
     server_url   TEXT NOT NULL,
     created_at   TEXT NOT NULL,
     verified_at  TEXT NOT NULL,
     status       TEXT NOT NULL CHECK (status IN ('valid', 'revoked')),
     PRIMARY KEY (team_id, user_id)
   ) STRICT;
   CREATE INDEX user_tokens_key_id ON user_tokens (key_id);
   CREATE TABLE channel_defaults (
     team_id    TEXT NOT NULL,
     channel_id TEXT NOT NULL,
     project    TEXT NOT NULL,
     set_by     TEXT NOT NULL,
     set_at     TEXT NOT NULL,
     PRIMARY KEY (team_id, channel_id)
   ) STRICT;`,
  // The server username a token belongs to, learned when the person connects.
  `ALTER TABLE user_tokens ADD COLUMN username TEXT;`,
  // Digests: what each posts, where, when and from which cursor; digest_runs holds the intent of a run that is
  // being posted, so that a run killed halfway is settled at start instead of posted twice or lost.
  `CREATE TABLE digests (
     id            INTEGER PRIMARY KEY AUTOINCREMENT,
     team_id       TEXT NOT NULL,
     owner_user_id TEXT NOT NULL,
     channel_id    TEXT NOT NULL,
     in_dm         INTEGER NOT NULL CHECK (in_dm IN (0, 1)),
     kind          TEXT NOT NULL CHECK (kind IN ('todos', 'project_events', 'user_events')),
     project_id    INTEGER,
     project_path  TEXT,
     user_id       INTEGER,
     username      TEXT,
     action        TEXT,
     target_type   TEXT,
     cron          TEXT NOT NULL,
     tz            TEXT NOT NULL,
     active        INTEGER NOT NULL CHECK (active IN (0, 1)),
     paused_reason TEXT,
     paused_by     TEXT,
     created_at    TEXT NOT NULL,
     updated_at    TEXT NOT NULL,
     last_run_at   TEXT,
     last_result   TEXT,
     last_items    INTEGER,
     last_post_ts  TEXT,
     next_run_at   TEXT,
     cursor_at     TEXT NOT NULL,
     cursor_keys   TEXT NOT NULL
   ) STRICT;
   CREATE INDEX digests_channel ON digests (team_id, channel_id);
   CREATE INDEX digests_owner ON digests (team_id, owner_user_id);
   CREATE TABLE digest_runs (
     run_key       TEXT PRIMARY KEY,
     digest_id     INTEGER NOT NULL REFERENCES digests (id) ON DELETE CASCADE,
     scheduled_for TEXT NOT NULL,
     reason        TEXT NOT NULL,
     state         TEXT NOT NULL CHECK (state IN ('pending', 'posted')),
     channel_id    TEXT NOT NULL,
     message_ts    TEXT,
     cursor_at     TEXT NOT NULL,
     cursor_keys   TEXT NOT NULL,
     items         INTEGER NOT NULL,
     created_at    TEXT NOT NULL
   ) STRICT;
   CREATE INDEX digest_runs_digest ON digest_runs (digest_id);`,
  // Who said "Always in this channel" to previews of their non-public links: per person and channel.
  `CREATE TABLE unfurl_consents (
     team_id    TEXT NOT NULL,
     user_id    TEXT NOT NULL,
     channel_id TEXT NOT NULL,
     granted_at TEXT NOT NULL,
     PRIMARY KEY (team_id, user_id, channel_id)
   ) STRICT;`,
  // What must happen once, claimed by the first replica (store/claim-store.ts; its PostgreSQL twin is there).
  CLAIMS_SQLITE_DDL,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenDatabaseOptions {
  /** How long one statement blocks the process waiting for another connection's lock (default 10 ms). */
  busyTimeoutMs?: number;
  /** How long opening and migrating may wait for a lock, before any request is served (default 5000 ms). */
  openTimeoutMs?: number;
}

/** DATABASE_PATH names a file the bot cannot open or use; the message names the variable, the path and why. */
export class DatabaseOpenError extends Error {
  readonly code = 'database_open';
  constructor(file: string, reason: string) {
    super(
      `DATABASE_PATH (${file}) cannot be used: ${reason}. Point DATABASE_PATH at a file in a directory the bot may write to (default ./data/bot.db).`,
    );
    this.name = 'DatabaseOpenError';
  }
}

function openProblem(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  switch (code) {
    case 'EACCES':
    case 'EPERM':
    case 'SQLITE_READONLY':
    case 'SQLITE_PERM':
      return 'permission denied';
    case 'ENOTDIR':
    case 'EEXIST':
      return 'a part of the path is a file, not a directory';
    case 'EROFS':
      return 'the file system is read-only';
    case 'SQLITE_CANTOPEN':
      return 'the file cannot be opened or created (is the path a directory?)';
    case 'SQLITE_NOTADB':
      return 'the file is not a SQLite database';
    case 'SQLITE_CORRUPT':
      return 'the database file is damaged';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

/** Opens (creating if needed) the SQLite file with WAL, foreign keys and a short busy timeout, and migrates it. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  let db: Db | null = null;
  try {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    db = new Database(file);
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.openTimeoutMs ?? 5000))}`);
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    migrate(db);
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 10))}`);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof SchemaTooNewError) throw err;
    throw new DatabaseOpenError(file, openProblem(err));
  }
}

export class SchemaTooNewError extends Error {
  readonly code = 'schema_too_new';
  constructor(current: number) {
    super(
      `The database is at schema version ${current}, newer than this bot knows (${MIGRATIONS.length}). Run a newer bot.`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/** When the database is busy: how long to keep trying, and who hears about each wait. */
export interface BusyPolicy {
  /** Total time to keep trying a statement another process keeps locked (default 2000 ms). */
  budgetMs?: number;
  /** Told before each wait (the first attempt is 1). */
  onBusy?(what: string, attempt: number): void;
}

const isBusy = (err: unknown) =>
  err instanceof Database.SqliteError && /^SQLITE_(BUSY|LOCKED)/.test((err as { code: string }).code);

/**
 * Runs a statement (or a transaction), trying again on timers while another connection holds the lock;
 * DatabaseBusyError when it stays locked for the whole budget.
 */
export async function whenFree<T>(what: string, run: () => T, policy: BusyPolicy = {}): Promise<T> {
  const budget = policy.budgetMs ?? 2000;
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return run();
    } catch (err) {
      if (!isBusy(err)) throw err;
      const wait = Math.min(250, 10 * 2 ** attempt);
      if (waited + wait > budget) throw new DatabaseBusyError(what);
      policy.onBusy?.(what, attempt);
      await sleep(wait);
      waited += wait;
    }
  }
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) throw new SchemaTooNewError(current);
  for (let version = current; version < MIGRATIONS.length; version++) {
    const step = MIGRATIONS[version] as string;
    db.transaction(() => {
      db.exec(step);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

/** A cheap read proving the file is open and answering (for /healthz). */
export function checkDatabase(db: Db): boolean {
  try {
    return (db.prepare('SELECT 1 AS ok').get() as { ok: number } | undefined)?.ok === 1;
  } catch {
    return false;
  }
}
