import type { SqlRunner } from './engine.js';

// Fenced posts. A replica posts what must go once (an alert DM, a watch card or its fix reply, a follow's last DM,
// a digest) only while it holds the lease of what it posts: right before the post it renews that lease with one
// conditional update, and skips the post when the update changes nothing. A replica stalled past its lease (a GC
// pause, a paused VM, a blocked event loop, a long wait in a channel's pace) thus never posts over the replica that
// took the lease over: that one finds the intent left behind, sees that its post is nowhere, and posts it itself.
//
// The holder's id alone does not say that the lease is the same one: a replica may take again a lease it held
// before (the same person's poll a minute later). So every claim counts up the row's `lease_gen`, and the fence
// asks for the generation its claim got: a claim that came between, by anyone, fails it.

/** A lease as its claim took it: who holds it, and which claim of the row it was. */
export interface HeldLease {
  owner: string;
  gen: number;
}

/** The rows that are leased, each with its key. */
const KEYS = {
  alert_settings: 'person_key',
  watches: 'id',
  follows: 'id',
  digests: 'id',
} as const;

export type LeasedTable = keyof typeof KEYS;

/** What every claim of these tables sets besides the holder: the next generation. */
export const NEXT_LEASE_GEN = 'lease_gen = lease_gen + 1';

/** The step of store/migrations.ts that gives every leased table its generation (the same words on both engines). */
export const LEASE_GEN_STEP = Object.keys(KEYS)
  .map((table) => `ALTER TABLE ${table} ADD COLUMN lease_gen INTEGER NOT NULL DEFAULT 0;`)
  .join('\n');

const statements = new Map<LeasedTable, string>();
const fenceSql = (table: LeasedTable): string => {
  let sql = statements.get(table);
  if (!sql) {
    sql = `UPDATE ${table} SET lease_until = $1
      WHERE ${KEYS[table]} = $2 AND lease_owner = $3 AND lease_gen = $4 AND lease_until > $5`;
    statements.set(table, sql);
  }
  return sql;
};

/**
 * Renews the lease `lease` of the row `key` until `until`, if it still holds it at `now` (the same claim, not run
 * out); false when it does not (the post must not be made). One statement.
 */
export async function fenceLease(
  db: SqlRunner,
  table: LeasedTable,
  { key, lease, now, until }: { key: string | number; lease: HeldLease; now: Date; until: Date },
): Promise<boolean> {
  const changed = await db.run(fenceSql(table), [until.toISOString(), key, lease.owner, lease.gen, now.toISOString()]);
  return changed > 0;
}
