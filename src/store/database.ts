import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

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
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface OpenDatabaseOptions {
  /** How long a writer waits for a lock held by another connection before failing. */
  busyTimeoutMs?: number;
}

/** Opens (creating if needed) the SQLite file with WAL, foreign keys and a busy timeout, and migrates it. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
  db.pragma('synchronous = NORMAL');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database is at schema version ${current}, newer than this bot knows (${MIGRATIONS.length}). Run a newer bot.`,
    );
  }
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
