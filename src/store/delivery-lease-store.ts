import type { SqlRunner } from './engine.js';

// The one lease protocol of scheduled delivery (src/delivery/): which replica works on a row of a kind (a digest, a
// person's alerts, a watch, a follow) until when, and the fence of every post that must happen once. This file and
// the schema are the only ones that name the lease columns: the kinds' stores build their statements from the
// fragments below, so that a claim or a release may share a statement with the kind's own writes.
//
// A claim is one conditional update: of two replicas that want the same row, exactly one gets it. A holder renews
// its leases while it works; one that dies stops renewing, and after the lease another replica takes the row over.
// The holder's id alone does not say that a lease is the same one (a replica may take again a row it held a minute
// ago), so every claim counts up `lease_gen`, and a fence asks for the generation its claim got: a claim that came
// between, by anyone, fails it. Right before a post the fence renews the lease with one conditional update and the
// post is skipped when that changes nothing: a replica stalled past its lease never posts over the one that took
// the row over (that one finds the intent left behind, looks for its post by its mark, and posts it once).

/** A lease as its claim took it: who holds it, and which claim of the row it was. */
export interface HeldLease {
  owner: string;
  gen: number;
}

/** The rows that are leased, each with its key column. */
const KEYS = {
  alert_settings: 'person_key',
  watches: 'id',
  follows: 'id',
  digests: 'id',
} as const;

export type LeasedTable = keyof typeof KEYS;

/** SQL fragments over the lease columns; `$n` placeholders are the caller's. */
export const lease = {
  /** Takes the lease for the holder `owner` until `until` (and counts up the generation). */
  take: (owner: string, until: string) => `lease_owner = ${owner}, lease_until = ${until}, lease_gen = lease_gen + 1`,
  /** Lets the lease go (in the same statement as what the holder writes last). */
  release: 'lease_owner = NULL, lease_until = NULL',
  /** Nobody holds the row at `now` (free, or its lease ran out); `table.` qualifies the columns when given. */
  free: (now: string, table = '') => `(${table}lease_owner IS NULL OR ${table}lease_until <= ${now})`,
  /** Free at `now`, or already held by `owner` (a holder may claim again what it holds). */
  freeOrHeldBy: (owner: string, now: string) =>
    `(lease_owner IS NULL OR lease_owner = ${owner} OR lease_until <= ${now})`,
  /** Held by `owner` (whatever its time: a write of the holder's own). */
  heldBy: (owner: string, table = '') => `${table}lease_owner = ${owner}`,
  /** The same claim `gen` of `owner` still holds at `now`. */
  holds: (owner: string, gen: string, now: string) =>
    `lease_owner = ${owner} AND lease_gen = ${gen} AND lease_until > ${now}`,
  /** Moves the lease on until `until` (renewal). */
  renew: (until: string) => `lease_until = ${until}`,
  /** Held by someone whose lease ran out at `now` (a replica that died holding it). */
  lapsed: (now: string, table = '') => `(${table}lease_owner IS NOT NULL AND ${table}lease_until <= ${now})`,
  /** Nobody holds it (released, whatever the time). */
  released: (table = '') => `${table}lease_owner IS NULL`,
  /** The generation column, to return with a claim's row. */
  gen: (table = '') => `${table}lease_gen`,
  /** The holder and the generation as `held_by` and `claim_gen`, to select with a row. */
  columns: (table = '') => `${table}lease_owner AS held_by, ${table}lease_gen AS claim_gen`,
  /** A polled row's busy polls in a row before its claim, as `busy_before` (polled tables only). */
  busyPolls: (table = '') => `${table}busy_polls AS busy_before`,
} as const;

/** A row as a claim returned it, with the generation the claim got. */
export type Claimed<Row> = { row: Row; gen: number };

export interface LeaseStore {
  /**
   * Takes the lease of the row `key` until `until`, unless another replica holds one that has not run out at `now`;
   * `extra` is selected with the row (e.g. whether an intent is open). Null when it is held.
   */
  claim<Row>(
    key: string | number,
    o: { owner: string; now: Date; until: Date; extra?: string },
  ): Promise<Claimed<Row> | null>;
  /** Moves on every lease `owner` holds; resolves with how many. */
  renew(owner: string, until: Date): Promise<number>;
  /**
   * Right before a post: renews the lease of `key` until `until` if `held` still holds it at `now`; false when it
   * ran out or was taken over (nothing is posted).
   */
  fence(key: string | number, held: HeldLease, o: { now: Date; until: Date }): Promise<boolean>;
  release(key: string | number, owner: string): Promise<void>;
  releaseMany(keys: readonly (string | number)[], owner: string): Promise<void>;
  /** Releases every lease `owner` holds (a replica that stops). */
  releaseAll(owner: string): Promise<void>;
  /** How many rows `owner` holds right now (a hook's gauge). */
  heldCount(owner: string, now: Date): Promise<number>;
}

/** The lease protocol over one leased table. */
export function createLeaseStore(db: SqlRunner, table: LeasedTable): LeaseStore {
  const key = KEYS[table];
  const fenceSql = `UPDATE ${table} SET ${lease.renew('$1')} WHERE ${key} = $2 AND ${lease.holds('$3', '$4', '$5')}`;
  return {
    async claim<Row>(
      k: string | number,
      { owner, now, until, extra }: { owner: string; now: Date; until: Date; extra?: string },
    ) {
      const row = await db.get<Row & { lease_gen: number | string }>(
        `UPDATE ${table} SET ${lease.take('$1', '$2')}
         WHERE ${key} = $3 AND ${lease.freeOrHeldBy('$1', '$4')}
         RETURNING *${extra ? `, ${extra}` : ''}`,
        [owner, until.toISOString(), k, now.toISOString()],
      );
      return row ? { row, gen: Number(row.lease_gen) } : null;
    },
    renew: (owner, until) =>
      db.run(`UPDATE ${table} SET ${lease.renew('$1')} WHERE ${lease.heldBy('$2')}`, [until.toISOString(), owner]),
    async fence(k, held, { now, until }) {
      const changed = await db.run(fenceSql, [until.toISOString(), k, held.owner, held.gen, now.toISOString()]);
      return changed > 0;
    },
    async release(k, owner) {
      await db.run(`UPDATE ${table} SET ${lease.release} WHERE ${key} = $1 AND ${lease.heldBy('$2')}`, [k, owner]);
    },
    async releaseMany(keys, owner) {
      // In slices, so that no statement has more parameters than an engine takes.
      for (let i = 0; i < keys.length; i += 500) {
        const part = keys.slice(i, i + 500);
        await db.run(
          `UPDATE ${table} SET ${lease.release}
           WHERE ${lease.heldBy('$1')} AND ${key} IN (${part.map((_, j) => `$${j + 2}`).join(', ')})`,
          [owner, ...part],
        );
      }
    },
    async releaseAll(owner) {
      await db.run(`UPDATE ${table} SET ${lease.release} WHERE ${lease.heldBy('$1')}`, [owner]);
    },
    async heldCount(owner, now) {
      const row = await db.get<{ n: number | string }>(
        `SELECT count(*) AS n FROM ${table} WHERE ${lease.heldBy('$1')} AND lease_until > $2`,
        [owner, now.toISOString()],
      );
      return Number(row?.n ?? 0);
    },
  };
}

/** The leased tables whose rows are polled (alerts, watches, follows): each counts its busy polls in a row. */
export type PolledTable = Exclude<LeasedTable, 'digests'>;

/**
 * The back-off of polled rows, beside their leases: how many polls in a row found the server busy (5xx, 429, the
 * token's budget spent) is kept in the row, so that every replica, and one started again, waits as long before the
 * row's next poll. Both writes come after the poll's own (which set its next poll and let the lease go), and hold
 * only while no claim came after the poll's (its generation): a row another replica took meanwhile is its holder's.
 */
export interface PollBackOffStore {
  /**
   * A busy poll: the row's busy polls in a row become `count`, and its next poll comes no sooner than `notBefore`
   * (its own next poll stays when that is later). False when a claim came after `gen`.
   */
  backOff(key: string | number, o: { gen: number; owner: string; count: number; notBefore: Date }): Promise<boolean>;
  /** A poll the server answered: the count starts again from nothing. */
  calm(key: string | number, o: { gen: number; owner: string }): Promise<void>;
}

export function createPollBackOffStore(db: SqlRunner, table: PolledTable): PollBackOffStore {
  const key = KEYS[table];
  // The poll's own lease (or none: its write let it go), of the same claim.
  const sameClaim = `${key} = $1 AND lease_gen = $2 AND (lease_owner IS NULL OR lease_owner = $3)`;
  return {
    async backOff(k, o) {
      // ISO times of one format compare as text, the same on both engines.
      const changed = await db.run(
        `UPDATE ${table} SET busy_polls = $4,
           next_poll_at = CASE WHEN next_poll_at < $5 THEN $5 ELSE next_poll_at END, ${lease.release}
         WHERE ${sameClaim}`,
        [k, o.gen, o.owner, o.count, o.notBefore.toISOString()],
      );
      return changed > 0;
    },
    async calm(k, o) {
      await db.run(`UPDATE ${table} SET busy_polls = 0 WHERE ${sameClaim} AND busy_polls > 0`, [k, o.gen, o.owner]);
    },
  };
}
