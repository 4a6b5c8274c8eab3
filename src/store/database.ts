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
