import { DatabaseBusyError, DatabaseUnavailableError } from '../errors.js';
import type { SqlEngine, SqlRunner, SqlValue } from '../store/engine.js';
import type { Metrics } from './metrics.js';

// The app's database with its failures counted: a statement, a transaction or a lock that the database refused,
// by kind (the server away, the file busy, a statement refused). An error of the caller's own inside a transaction
// is not the database's and is not counted. The stores see the same port; what they get back is unchanged.

/** PostgreSQL's SQLSTATE (five characters) or better-sqlite3's `SQLITE_…` code: the database said no. */
const isDatabaseCode = (code: unknown) =>
  typeof code === 'string' && (/^[0-9A-Z]{5}$/.test(code) || code.startsWith('SQLITE_'));

function kindOf(err: unknown): 'connection' | 'busy' | 'other' | null {
  if (err instanceof DatabaseUnavailableError) return 'connection';
  if (err instanceof DatabaseBusyError) return 'busy';
  return isDatabaseCode((err as { code?: unknown } | null)?.code) ? 'other' : null;
}

export function observeEngine(engine: SqlEngine, metrics: Metrics): SqlEngine {
  if (!metrics.registry) return engine;
  const counted = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      const kind = kindOf(err);
      if (kind) metrics.queryError(kind);
      throw err;
    });
  return {
    kind: engine.kind,
    all: <T>(sql: string, params?: readonly SqlValue[]) => counted(engine.all<T>(sql, params)),
    get: <T>(sql: string, params?: readonly SqlValue[]) => counted(engine.get<T>(sql, params)),
    run: (sql: string, params?: readonly SqlValue[]) => counted(engine.run(sql, params)),
    transaction: <T>(fn: (tx: SqlRunner) => Promise<T>) => counted(engine.transaction(fn)),
    lock: <T>(name: string, fn: (db: SqlRunner) => Promise<T>) => counted(engine.lock(name, fn)),
    ping: () => engine.ping(),
    ...(engine.poolStats ? { poolStats: engine.poolStats.bind(engine) } : {}),
    close: () => engine.close(),
  };
}
