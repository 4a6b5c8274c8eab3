import { type Digest, type DigestRow, toDigest } from './digest-store.js';
import type { SqlEngine } from './engine.js';
import { fenceLease, type HeldLease, NEXT_LEASE_GEN } from './lease-fence.js';

// Which replica runs a digest (and settles its open intent), until when: a lease taken with one conditional
// update, so that of two replicas that want the same digest exactly one gets it. A replica renews the leases it
// holds while it runs; one that dies stops renewing, and after the lease another replica takes the run over.

export interface ClaimedDigest {
  /** The digest's row as the claim found it (the one read of it a run needs). */
  digest: Digest;
  /** Whether an intent of an earlier run is open (it is settled before anything else). */
  openRun: boolean;
  /** Which claim of the digest this is (what the run's post fences with, store/lease-fence.ts). */
  leaseGen: number;
}

export interface DigestLeaseStore {
  /** Takes the lease of a digest until `until`, unless another replica holds one that has not run out at `now`. */
  claim(id: number, options: { owner: string; now: Date; until: Date }): Promise<ClaimedDigest | null>;
  /** Moves on every lease `owner` holds; resolves with how many. */
  renew(owner: string, until: Date): Promise<number>;
  /**
   * Right before a run's post: renews the digest's lease until `until` if `lease` still holds it at `now`; false
   * when it ran out or was taken over (nothing is posted: the new holder settles the intent and posts).
   */
  fence(id: number, lease: HeldLease, o: { now: Date; until: Date }): Promise<boolean>;
  release(id: number, owner: string): Promise<void>;
  releaseMany(ids: readonly number[], owner: string): Promise<void>;
  /** Releases every lease `owner` holds (a replica that stops). */
  releaseAll(owner: string): Promise<void>;
  /** Every active digest's schedule: what every replica arms. */
  scheduled(): Promise<{ id: number; cron: string; tz: string }[]>;
  /** Active digests whose run was due by `dueBefore` and that nobody holds at `now`. */
  overdue(dueBefore: Date, now: Date, limit: number): Promise<{ id: number; nextRunAt: Date }[]>;
  /**
   * Digests with an open intent whose lease ran out at `now` (a replica died holding it), and with `released`
   * also those nobody holds (a run that left its intent for the next run to settle).
   */
  orphaned(now: Date, o: { released: boolean }): Promise<{ digestId: number; scheduledFor: Date }[]>;
}

export function createDigestLeaseStore(engine: SqlEngine): DigestLeaseStore {
  return {
    async claim(id, { owner, now, until }) {
      const row = await engine.get<DigestRow & { open_run: number; lease_gen: number | string }>(
        `UPDATE digests SET lease_owner = $1, lease_until = $2, ${NEXT_LEASE_GEN}
         WHERE id = $3 AND (lease_owner IS NULL OR lease_owner = $1 OR lease_until <= $4)
         RETURNING *, CASE WHEN EXISTS (SELECT 1 FROM digest_runs r WHERE r.digest_id = digests.id) THEN 1 ELSE 0 END
           AS open_run`,
        [owner, until.toISOString(), id, now.toISOString()],
      );
      return row
        ? { digest: toDigest(row), openRun: Number(row.open_run) === 1, leaseGen: Number(row.lease_gen) }
        : null;
    },
    renew: (owner, until) =>
      engine.run('UPDATE digests SET lease_until = $1 WHERE lease_owner = $2', [until.toISOString(), owner]),
    fence: (id, lease, o) => fenceLease(engine, 'digests', { key: id, lease, ...o }),
    async release(id, owner) {
      await engine.run('UPDATE digests SET lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2', [
        id,
        owner,
      ]);
    },
    async releaseMany(ids, owner) {
      // In slices, so that no statement has more parameters than an engine takes.
      for (let i = 0; i < ids.length; i += 500) {
        const part = ids.slice(i, i + 500);
        await engine.run(
          `UPDATE digests SET lease_owner = NULL, lease_until = NULL
           WHERE lease_owner = $1 AND id IN (${part.map((_, j) => `$${j + 2}`).join(', ')})`,
          [owner, ...part],
        );
      }
    },
    async releaseAll(owner) {
      await engine.run('UPDATE digests SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1', [owner]);
    },
    async scheduled() {
      const rows = await engine.all<{ id: number | string; cron: string; tz: string }>(
        'SELECT id, cron, tz FROM digests WHERE active = 1 ORDER BY id',
      );
      return rows.map((r) => ({ id: Number(r.id), cron: r.cron, tz: r.tz }));
    },
    async overdue(dueBefore, now, limit) {
      const rows = await engine.all<{ id: number | string; next_run_at: string }>(
        `SELECT id, next_run_at FROM digests
         WHERE active = 1 AND next_run_at IS NOT NULL AND next_run_at <= $1
           AND (lease_owner IS NULL OR lease_until <= $2)
         ORDER BY next_run_at, id LIMIT $3`,
        [dueBefore.toISOString(), now.toISOString(), limit],
      );
      return rows.map((r) => ({ id: Number(r.id), nextRunAt: new Date(r.next_run_at) }));
    },
    async orphaned(now, o) {
      const rows = await engine.all<{ digest_id: number | string; scheduled_for: string }>(
        `SELECT r.digest_id, max(r.scheduled_for) AS scheduled_for FROM digest_runs r JOIN digests d ON d.id = r.digest_id
         WHERE (d.lease_owner IS NOT NULL AND d.lease_until <= $1) ${o.released ? 'OR d.lease_owner IS NULL' : ''}
         GROUP BY r.digest_id ORDER BY r.digest_id`,
        [now.toISOString()],
      );
      return rows.map((r) => ({ digestId: Number(r.digest_id), scheduledFor: new Date(r.scheduled_for) }));
    },
  };
}
