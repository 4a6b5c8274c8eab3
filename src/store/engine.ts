import { type BusyPolicy, type Db, isBusy, whenFree } from './database.js';

// The port every store is written against (ARCHITECTURE §9): SQL with PostgreSQL's `$1…$n` placeholders, answered
// asynchronously, by SQLite (one file, the embedded default) or by PostgreSQL (several replicas). Stores keep to
// SQL both engines read the same way (ON CONFLICT, RETURNING, ISO-8601 text for times, 0/1 for booleans); where an
// engine needs its own words, a store asks `engine.kind`.

export type SqlValue = string | number | bigint | null;

export interface SqlRunner {
  /** Every row of a query. */
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /** The first row of a query, or undefined. */
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement; resolves with how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface SqlEngine extends SqlRunner {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Runs `fn` in one transaction that holds the write lock from its first statement (SQLite: BEGIN IMMEDIATE;
   * PostgreSQL: one pooled client): committed when `fn` resolves, rolled back when it throws.
   */
  transaction<T>(fn: (tx: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` while holding the lock called `name` across every process on this database, for work that must
   * happen once at start whichever replicas start (re-sealing tokens, settling runs): another process asking for
   * the same lock waits until `fn` is done. SQLite: one BEGIN IMMEDIATE transaction (`fn`'s statements are in it);
   * PostgreSQL: a session advisory lock on one connection (`fn`'s statements run on it, each committed at once).
   */
  lock<T>(name: string, fn: (db: SqlRunner) => Promise<T>): Promise<T>;
  /** A cheap round trip: whether the database answers (for /readyz). */
  ping(): Promise<boolean>;
  /** The connection pool's use, where there is one (PostgreSQL): for the metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** `$1…$n` → better-sqlite3's named `@p1…@pn` (it has no numbered parameters), compiled once per statement text. */
function toSqlite(sql: string): string {
  return sql.replace(/\$(\d+)/g, '@p$1');
}

const PARAM_NAMES = Array.from({ length: 32 }, (_, i) => `p${i + 1}`);
const paramName = (i: number) => PARAM_NAMES[i] ?? `p${i + 1}`;

function namedParams(params: readonly SqlValue[] | undefined): Record<string, SqlValue> {
  const out: Record<string, SqlValue> = {};
  if (params) for (let i = 0; i < params.length; i++) out[paramName(i)] = params[i] as SqlValue;
  return out;
}

/** What a busy statement was doing, for the error a person is shown: its verb and table, never its values. */
function describe(sql: string): string {
  return sql.trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase();
}

const chains = new WeakMap<Db, Promise<void>>();
/** Turns taken or waited for on each connection (see createSqliteEngine's `now`). */
const taken = new WeakMap<Db, number>();

/** How long work that must happen once at start may wait for another process doing it. */
const LOCK_BUDGET_MS = 60_000;

/**
 * SQLite behind the port. better-sqlite3 answers synchronously; a transaction spans awaits, so statements from
 * other requests wait (in order) while one is open on this connection. Another process holding the file's lock
 * is waited for on timers (whenFree), so the event loop stays free.
 */
export function createSqliteEngine(db: Db, busy: BusyPolicy = {}): SqlEngine {
  // Each statement compiled once, with what a busy error says of it (worked out once too: every command runs some).
  const statements = new Map<string, { s: ReturnType<Db['prepare']>; what: string }>();
  const prepare = (sql: string) => {
    let p = statements.get(sql);
    if (!p) {
      p = { s: db.prepare(toSqlite(sql)), what: describe(sql) };
      statements.set(sql, p);
    }
    return p;
  };
  const direct: SqlRunner = {
    async all<T>(sql: string, params?: readonly SqlValue[]) {
      const { s, what } = prepare(sql);
      return whenFree(what, () => s.all(namedParams(params)) as T[], busy);
    },
    async get<T>(sql: string, params?: readonly SqlValue[]) {
      const { s, what } = prepare(sql);
      return whenFree(what, () => s.get(namedParams(params)) as T | undefined, busy);
    },
    async run(sql: string, params?: readonly SqlValue[]) {
      const { s, what } = prepare(sql);
      return whenFree(what, () => s.run(namedParams(params)).changes, busy);
    },
  };

  // One transaction at a time on this connection, and no statement of another request inside it: everything
  // takes its turn on one chain (a turn that finds nothing queued costs one microtask). The chain belongs to the
  // connection, so engines made over the same one (each with its own busy policy) take turns too.
  const turn = (): Promise<() => void> => {
    let release!: () => void;
    const previous = chains.get(db) ?? Promise.resolve();
    taken.set(db, (taken.get(db) ?? 0) + 1);
    chains.set(
      db,
      new Promise<void>((resolve) => {
        release = () => {
          taken.set(db, (taken.get(db) ?? 1) - 1);
          resolve();
        };
      }),
    );
    return previous.then(() => release);
  };
  /**
   * A single statement on a connection nobody has a turn on (nothing queued, no transaction open) runs at once, as
   * its turn would have run it a few microtasks later: the signature claim before every ack is one. If the file is
   * locked by another process it takes its turn and waits like any other statement.
   */
  const now = <T>(sql: string, exec: (s: ReturnType<Db['prepare']>) => T, queued: () => Promise<T>): Promise<T> => {
    if (!taken.get(db) && !db.inTransaction) {
      try {
        return Promise.resolve(exec(prepare(sql).s));
      } catch (err) {
        if (!isBusy(err)) return Promise.reject(err);
      }
    }
    return queued();
  };
  const inTurn = async <T>(work: () => Promise<T>): Promise<T> => {
    const release = await turn();
    try {
      return await work();
    } finally {
      release();
    }
  };

  const inTransaction = <T>(fn: (tx: SqlRunner) => Promise<T>, policy: BusyPolicy) =>
    inTurn(async () => {
      await whenFree('begin a transaction', () => db.exec('BEGIN IMMEDIATE'), policy);
      try {
        const result = await fn(direct);
        db.exec('COMMIT');
        return result;
      } catch (err) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw err;
      }
    });

  return {
    kind: 'sqlite',
    all: <T>(sql: string, params?: readonly SqlValue[]) =>
      now(
        sql,
        (s) => s.all(namedParams(params)) as T[],
        () => inTurn(() => direct.all<T>(sql, params)),
      ),
    get: <T>(sql: string, params?: readonly SqlValue[]) =>
      now(
        sql,
        (s) => s.get(namedParams(params)) as T | undefined,
        () => inTurn(() => direct.get<T>(sql, params)),
      ),
    run: (sql, params) =>
      now(
        sql,
        (s) => s.run(namedParams(params)).changes,
        () => inTurn(() => direct.run(sql, params)),
      ),
    transaction: (fn) => inTransaction(fn, busy),
    lock: (_name, fn) => inTransaction(fn, { ...busy, budgetMs: Math.max(busy.budgetMs ?? 0, LOCK_BUDGET_MS) }),
    async ping() {
      try {
        return (db.prepare('SELECT 1 AS ok').get() as { ok: number } | undefined)?.ok === 1;
      } catch {
        return false;
      }
    },
    async close() {
      db.close();
    },
  };
}
