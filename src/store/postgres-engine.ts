import crypto from 'node:crypto';
import pg from 'pg';
import { DatabaseUnavailableError } from '../errors.js';
import type { SqlEngine, SqlRunner, SqlValue } from './engine.js';
import { POSTGRES_MIGRATIONS, SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';
import { DatabaseUrlError, passwordOf } from './postgres-url.js';

export { DatabaseUrlError, describeUrl, passwordOf } from './postgres-url.js';

// PostgreSQL behind the store port (ARCHITECTURE §9), through a node-postgres Pool. Same semantics as the SQLite
// engine: a transaction holds "the write lock" (a transaction-scoped advisory lock every transaction of every
// replica takes first), so stores written for one engine are correct on the other. A server that does not answer
// turns into DatabaseUnavailableError (the person is told to try again in a moment); the pool reconnects by
// itself when the server is back.

export interface PostgresEngineOptions {
  /** Connections in the pool (default 10). */
  max?: number;
  /** How long getting a connection may take before the database counts as unavailable (default 2000 ms). */
  connectTimeoutMs?: number;
  /** How long a ping may take before /healthz says the database does not answer (default 1000 ms). */
  pingTimeoutMs?: number;
  /** How long a ping's answer is reused, so /healthz does not cost a round trip each time (default 1000 ms). */
  pingCacheMs?: number;
  /** Told about errors of idle connections (a server restart): they are dropped and replaced. */
  onIdleError?(err: Error): void;
}

/** The advisory lock keys of this bot: (namespace, key). */
const LOCK_NAMESPACE = 0x676c6274; // 'glbt'
const WRITE_LOCK = 0;
const lockKey = (name: string) => crypto.createHash('sha256').update(name).digest().readInt32BE(0) || 1;

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);

/** Whether an error says the server is not there (as opposed to a wrong statement). */
export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended/i.test(
    err.message,
  );
}

/** A reason for people and logs: the code or message of the failure, never the URL (it holds the password). */
export function connectionProblem(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

const translate = (err: unknown): never => {
  if (err instanceof DatabaseUnavailableError) throw err;
  if (isConnectionError(err)) throw new DatabaseUnavailableError(connectionProblem(err));
  throw err;
};

const values = (params: readonly SqlValue[] | undefined) =>
  params && params.length > 0 ? params.map((p) => (typeof p === 'bigint' ? p.toString() : p)) : undefined;

// BIGINT (ids, count(*)) come back as JS numbers, as SQLite gives them; the bot's ids stay far below 2^53.
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

type Queryable = Pick<pg.PoolClient, 'query'>;

function runnerOn(q: Queryable): SqlRunner {
  const query = async (sql: string, params: readonly SqlValue[] | undefined) => {
    try {
      return await q.query(sql, values(params));
    } catch (err) {
      return translate(err);
    }
  };
  return {
    all: async <T>(sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rows[0] as T | undefined,
    run: async (sql: string, params?: readonly SqlValue[]) => (await query(sql, params)).rowCount ?? 0,
  };
}

export function createPostgresEngine(url: string, options: PostgresEngineOptions = {}): SqlEngine {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
    idleTimeoutMillis: 30_000,
    types,
  });
  pool.on('error', (err) => options.onIdleError?.(err));
  const direct = runnerOn(pool);

  /** One pooled connection for `fn`; dropped instead of reused when it broke. */
  const withClient = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      return translate(err);
    }
    let broken: Error | undefined;
    try {
      return await fn(client);
    } catch (err) {
      if (err instanceof DatabaseUnavailableError) broken = err;
      throw err;
    } finally {
      client.release(broken);
    }
  };

  let pinged: { at: number; answer: Promise<boolean> } | null = null;
  const pingCacheMs = options.pingCacheMs ?? 1000;
  const pingTimeoutMs = options.pingTimeoutMs ?? 1000;
  const pingNow = async (): Promise<boolean> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), pingTimeoutMs);
    });
    try {
      const answer = pool.query('SELECT 1 AS ok').then(
        (r) => (r.rows[0] as { ok: number } | undefined)?.ok === 1,
        () => false,
      );
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    kind: 'postgres',
    ...direct,
    transaction: (fn) =>
      withClient(async (client) => {
        const tx = runnerOn(client);
        await tx.run('BEGIN');
        try {
          await tx.run('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_NAMESPACE, WRITE_LOCK]);
          const result = await fn(tx);
          await tx.run('COMMIT');
          return result;
        } catch (err) {
          if (!(err instanceof DatabaseUnavailableError)) await client.query('ROLLBACK').catch(() => {});
          throw err;
        }
      }),
    lock: (name, fn) =>
      withClient(async (client) => {
        const session = runnerOn(client);
        const key = lockKey(name);
        await session.run('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, key]);
        try {
          return await fn(session);
        } finally {
          await client.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, key]).catch(() => {});
        }
      }),
    ping() {
      const now = Date.now();
      if (!pinged || now - pinged.at >= pingCacheMs) pinged = { at: now, answer: pingNow() };
      return pinged.answer;
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
    },
  };
}

/**
 * Brings the database to the latest schema, once however many replicas start together: each step commits with
 * the version it reaches, under an advisory lock the others wait for. A newer schema than this code knows refuses
 * to start.
 */
export async function migratePostgres(engine: SqlEngine): Promise<void> {
  await engine.lock('migrate', async (db) => {
    await db.run('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const row = await db.get<{ version: number }>('SELECT version FROM schema_version');
    if (!row) await db.run('INSERT INTO schema_version (version) VALUES (0)');
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) throw new SchemaTooNewError(current);
    for (let v = current; v < SCHEMA_VERSION; v++) {
      await db.run('BEGIN');
      try {
        await db.run(POSTGRES_MIGRATIONS[v] as string);
        await db.run('UPDATE schema_version SET version = $1', [v + 1]);
        await db.run('COMMIT');
      } catch (err) {
        await db.run('ROLLBACK').catch(() => {});
        throw err;
      }
    }
  });
}

/** Connects, checks and migrates: the engine the bot runs on, or DatabaseUrlError / SchemaTooNewError. */
export async function openPostgres(url: string, options: PostgresEngineOptions = {}): Promise<SqlEngine> {
  const engine = createPostgresEngine(url, options);
  try {
    await migratePostgres(engine);
    return engine;
  } catch (err) {
    await engine.close().catch(() => {});
    if (err instanceof SchemaTooNewError) throw err;
    const reason = err instanceof DatabaseUnavailableError ? err.reason : connectionProblem(err);
    const password = passwordOf(url);
    throw new DatabaseUrlError(url, password ? reason.split(password).join('***') : reason);
  }
}
