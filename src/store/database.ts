import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { DatabaseBusyError } from '../errors.js';
import { SCHEMA_VERSION, SchemaTooNewError, SQLITE_MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

// better-sqlite3 is synchronous: while SQLite waits for a lock (busy_timeout) the whole process waits,
// acks and /healthz included. So a statement waits only briefly for a lock held by another process,
// and the waiting between attempts happens on timers, with the event loop free. WAL lets reads go on
// while another connection writes.

export { SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';

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
    // Every signed request writes a claim before its ack, so the WAL fills steadily. A checkpoint copies the pages
    // back and waits for the disk twice, with the event loop stopped; checkpointing every 4000 pages instead of
    // SQLite's 1000 stops it a quarter as often, and a page claimed many times between two is copied back once.
    db.pragma('wal_autocheckpoint = 4000');
    migrate(db);
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 10))}`);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof SchemaTooNewError) throw err;
    throw new DatabaseOpenError(file, openProblem(err));
  }
}

/** When the database is busy: how long to keep trying, and who hears about each wait. */
export interface BusyPolicy {
  /** Total time to keep trying a statement another process keeps locked (default 2000 ms). */
  budgetMs?: number;
  /** Told before each wait (the first attempt is 1). */
  onBusy?(what: string, attempt: number): void;
}

/** Whether a statement failed only because another connection holds the file's lock (whenFree waits it out). */
export const isBusy = (err: unknown) =>
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

/**
 * Brings the file to the latest schema in one BEGIN IMMEDIATE transaction: a second process starting at the same
 * moment waits for the lock (busy_timeout), then finds the file already migrated.
 */
export function migrate(db: Db): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  if (version() === SCHEMA_VERSION) return;
  db.exec('BEGIN IMMEDIATE');
  try {
    const current = version();
    if (current > SCHEMA_VERSION) throw new SchemaTooNewError(current);
    for (let v = current; v < SCHEMA_VERSION; v++) db.exec(SQLITE_MIGRATIONS[v] as string);
    if (current !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
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
