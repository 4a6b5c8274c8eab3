import type { BusyPolicy, Db } from './database.js';
import { createSqliteEngine, type SqlEngine } from './engine.js';

/** What a store is made over: the engine, or (for the one-process SQLite default and its tests) the open file. */
export type StoreSource = SqlEngine | Db;

/** The engine behind a store; a SQLite file gets one with the store's busy policy (sharing the file's turn chain). */
export function engineOf(source: StoreSource, busy: BusyPolicy = {}): SqlEngine {
  return 'kind' in source && (source.kind === 'sqlite' || source.kind === 'postgres')
    ? source
    : createSqliteEngine(source as Db, busy);
}
