import type { Config } from '../config.js';
import { type BusyPolicy, openDatabase } from './database.js';
import { createSqliteEngine, type SqlEngine } from './engine.js';
import type { PostgresEngineOptions } from './postgres-engine.js';

// The one place that picks the engine: DATABASE_URL → PostgreSQL (shared by replicas), otherwise the SQLite file at
// DATABASE_PATH (the embedded default). Both come back migrated; failures are DatabaseOpenError (SQLite),
// DatabaseUrlError (PostgreSQL) or SchemaTooNewError, each a message for the operator.

export interface OpenEngineOptions {
  /** SQLite: how waits for another process's lock are told. */
  busy?: BusyPolicy;
  postgres?: PostgresEngineOptions;
}

export async function openEngine(
  config: Pick<Config, 'databasePath' | 'databaseUrl'>,
  options: OpenEngineOptions = {},
): Promise<SqlEngine> {
  if (config.databaseUrl) {
    // Loaded only here: a bot on SQLite never has the PostgreSQL client in memory.
    const { openPostgres } = await import('./postgres-engine.js');
    return openPostgres(config.databaseUrl, options.postgres);
  }
  return createSqliteEngine(openDatabase(config.databasePath), options.busy);
}
