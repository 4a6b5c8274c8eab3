import type { Db } from './database.js';
import type { SqlEngine, SqlValue } from './engine.js';

// Moving an install from its SQLite file to PostgreSQL (`npm run db:copy`): every row of every table, as stored
// (tokens stay sealed, digests keep their schedules and cursors). Both databases are at the same schema version
// (each was migrated on opening), so the tables and columns are the same; the tables are read from the SQLite
// file itself, so a table a later migration adds is copied without a change here.

export interface CopiedTable {
  table: string;
  rows: number;
}

/** The target already holds rows and --force was not given: nothing was copied. */
export class TargetNotEmptyError extends Error {
  readonly code = 'target_not_empty';
  constructor(readonly tables: CopiedTable[]) {
    super(
      `the target database is not empty (${tables.map((t) => `${t.table}: ${t.rows} rows`).join(', ')}); nothing was copied. Give --force to replace what it holds.`,
    );
    this.name = 'TargetNotEmptyError';
  }
}

/** The SQLite file's tables, each after the tables it references (so foreign keys hold while copying). */
export function tablesOf(db: Db): string[] {
  const names = (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as {
      name: string;
    }[]
  ).map((r) => r.name);
  const ordered: string[] = [];
  const visit = (name: string, path: Set<string>) => {
    if (ordered.includes(name) || path.has(name)) return;
    path.add(name);
    const refs = db.prepare(`SELECT "table" AS ref FROM pragma_foreign_key_list(?)`).all(name) as { ref: string }[];
    for (const { ref } of refs) if (names.includes(ref)) visit(ref, path);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** PostgreSQL takes at most 65535 parameters in one statement. */
const MAX_PARAMS = 30_000;

export async function copyDatabase(from: Db, to: SqlEngine, o: { force?: boolean } = {}): Promise<CopiedTable[]> {
  const tables = tablesOf(from);
  const held: CopiedTable[] = [];
  for (const table of tables) {
    const n = (await to.get<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)}`))?.n ?? 0;
    if (n > 0) held.push({ table, rows: n });
  }
  if (held.length > 0 && !o.force) throw new TargetNotEmptyError(held);

  return to.transaction(async (tx) => {
    for (const table of [...tables].reverse()) await tx.run(`DELETE FROM ${quote(table)}`);
    const copied: CopiedTable[] = [];
    for (const table of tables) {
      const rows = from.prepare(`SELECT * FROM ${quote(table)}`).all() as Record<string, SqlValue>[];
      const first = rows[0];
      if (first) {
        const columns = Object.keys(first);
        const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
        for (let i = 0; i < rows.length; i += perStatement) {
          const batch = rows.slice(i, i + perStatement);
          const params: SqlValue[] = [];
          const tuples = batch.map((row) => {
            const marks = columns.map((c) => {
              params.push(row[c] ?? null);
              return `$${params.length}`;
            });
            return `(${marks.join(', ')})`;
          });
          await tx.run(
            `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${tuples.join(', ')}`,
            params,
          );
        }
      }
      copied.push({ table, rows: rows.length });
    }
    // Identity columns (SQLite's AUTOINCREMENT) go on after the highest id copied, as they would have.
    const identities = await tx.all<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND is_identity = 'YES'`,
    );
    for (const { table_name: table, column_name: column } of identities) {
      if (!tables.includes(table)) continue;
      await tx.run(
        `SELECT setval(pg_get_serial_sequence($1, $2), (SELECT max(${quote(column)}) FROM ${quote(table)}))
         WHERE EXISTS (SELECT 1 FROM ${quote(table)})`,
        [quote(table), column],
      );
    }
    return copied;
  });
}
