import { createLeaseStore, type HeldLease, lease } from './delivery-lease-store.js';
import type { SqlEngine } from './engine.js';

// Cards that follow a pipeline or a job until it finishes (COMMANDS.md "Following a pipeline or a job"): what is
// followed, for whom, where its card is, what was last drawn and until when. Exactly one replica polls a follow at a
// time: it is claimed with a lease in one statement (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite takes writes one
// at a time), and a replica that dies stops renewing, so another takes the follow over once the lease runs out. The
// final DM is decided here too: its intent (dm_key) is written before the post, its ts after, then the follow is
// done; a follow whose intent is open is settled (looked for in the DM's history) before anything else.

export type FollowKind = 'pipeline' | 'job';

export interface NewFollow {
  teamId: string;
  userId: string;
  kind: FollowKind;
  /** The project as the API is called with it (a path, or a numeric id as text). */
  projectKey: string;
  projectPath: string | null;
  targetId: number;
  ref: string | null;
  /** Where the person asked (for the channel lane of a shared card). */
  channelId: string | null;
  /** A shared card: the message in the channel, redrawn with chat.update. */
  card: { channel: string; ts: string } | null;
  /** An ephemeral card: its response_url, sealed by the caller (a secret: never logged). */
  sealedResponseUrl: string | null;
  /** How many uses of the response_url are left (Slack allows five; the answer itself spent some). */
  usesLeft: number;
  /** After this the response_url is no longer used (Slack's 30 minutes). */
  urlUntil: Date | null;
  /** What the first card showed. */
  drawn: string | null;
  nextPollAt: Date;
  deadline: Date;
  createdAt: Date;
}

export interface Follow extends NewFollow {
  id: number;
  drawnAt: Date | null;
  leaseOwner: string | null;
  /** Which claim of the follow holds it (what its posts fence with, store/lease-fence.ts). */
  leaseGen: number;
  /** Polls in a row before this claim that found the server busy (the delivery kernel's back-off). */
  busyPolls: number;
  /** The final DM's intent: written before it is posted. */
  dmKey: string | null;
  dmChannel: string | null;
  dmTs: string | null;
  outcome: string | null;
  doneAt: Date | null;
}

interface Row {
  id: number | string;
  team_id: string;
  user_id: string;
  kind: FollowKind;
  project_key: string;
  project_path: string | null;
  target_id: number | string;
  ref: string | null;
  channel_id: string | null;
  card_channel: string | null;
  card_ts: string | null;
  response_url: string | null;
  uses_left: number | string;
  url_until: string | null;
  drawn: string | null;
  drawn_at: string | null;
  next_poll_at: string;
  deadline: string;
  created_at: string;
  held_by: string | null;
  claim_gen: number | string;
  busy_before: number | string;
  dm_key: string | null;
  dm_channel: string | null;
  dm_ts: string | null;
  outcome: string | null;
  done_at: string | null;
}

/** The lease and the back-off, selected with a row. */
const LEASED = `${lease.columns()}, ${lease.busyPolls()}`;

const dateOrNull = (s: string | null) => (s ? new Date(s) : null);

function toFollow(r: Row): Follow {
  return {
    id: Number(r.id),
    teamId: r.team_id,
    userId: r.user_id,
    kind: r.kind,
    projectKey: r.project_key,
    projectPath: r.project_path,
    targetId: Number(r.target_id),
    ref: r.ref,
    channelId: r.channel_id,
    card: r.card_channel && r.card_ts ? { channel: r.card_channel, ts: r.card_ts } : null,
    sealedResponseUrl: r.response_url,
    usesLeft: Number(r.uses_left),
    urlUntil: dateOrNull(r.url_until),
    drawn: r.drawn,
    drawnAt: dateOrNull(r.drawn_at),
    nextPollAt: new Date(r.next_poll_at),
    deadline: new Date(r.deadline),
    createdAt: new Date(r.created_at),
    leaseOwner: r.held_by,
    leaseGen: Number(r.claim_gen),
    busyPolls: Number(r.busy_before),
    dmKey: r.dm_key,
    dmChannel: r.dm_channel,
    dmTs: r.dm_ts,
    outcome: r.outcome,
    doneAt: dateOrNull(r.done_at),
  };
}

export interface FollowStore {
  /** Stores a new follow; the sealed response_url is bound to the row by the caller (see `boundTo`). */
  create(f: NewFollow, seal?: (id: number) => string | null): Promise<Follow>;
  get(id: number): Promise<Follow | null>;
  /**
   * Takes the lease of up to `limit` follows that are not done, due by `dueBy`, and not held by another replica at
   * `now`; resolves with them as they are now.
   */
  claimDue(owner: string, o: { dueBy: Date; now: Date; until: Date; limit: number }): Promise<Follow[]>;
  /** Moves on every lease `owner` holds. */
  renew(owner: string, until: Date): Promise<number>;
  /**
   * Right before a post or a redraw: renews the follow's lease until `until` if `lease` still holds it at `now`;
   * false when it ran out or was taken over (nothing is posted: the new holder goes on with the follow).
   */
  fence(id: number, lease: HeldLease, o: { now: Date; until: Date }): Promise<boolean>;
  /**
   * Takes one use of the response_url; false when none is left (nothing is used then). With `fence`, in the same
   * statement, only while the lease holds (and it is renewed until `fence.until`), as `fence` above.
   */
  takeUse(id: number, owner: string, fence?: { gen: number; now: Date; until: Date }): Promise<boolean>;
  /** What the card now shows; the lease is released and the next poll set. */
  drawn(id: number, owner: string, o: { drawn: string | null; drawnAt: Date | null; nextPollAt: Date }): Promise<void>;
  /**
   * The server refused the follower's token: the follow waits (its outcome says so while it is not done) and is read
   * again at `nextPollAt`; the lease is released. True when this paused it (so its follower is told once).
   */
  pauseForToken(id: number, owner: string, nextPollAt: Date): Promise<boolean>;
  /** A read worked again: the pause for the token is over (true when this ended it). */
  resumeFromToken(id: number, owner: string): Promise<boolean>;
  /** The followers whose follows wait for the server to accept their token (the kernel re-checks their tokens). */
  tokenPaused(): Promise<{ teamId: string; userId: string }[]>;
  /**
   * The server accepts the follower's token again: their follows that wait for it are read at `now` (the read ends
   * the pause); how many.
   */
  dueAfterToken(teamId: string, userId: string, now: Date): Promise<number>;
  /** The final DM's intent, before it is posted; false when the lease was lost. */
  openDm(id: number, owner: string, o: { key: string; channel: string; outcome: string }): Promise<boolean>;
  /** The final DM was posted (or found in the DM's history) as `ts`. */
  dmPosted(id: number, owner: string, ts: string): Promise<void>;
  /** The follow is over (with `outcome`); its lease is released and it is never polled again. */
  finish(id: number, owner: string, o: { outcome: string; at: Date }): Promise<void>;
  /** Releases every lease `owner` holds (a replica that stops). */
  releaseAll(owner: string): Promise<void>;
  /** Forgets follows done before `before`. */
  prune(before: Date): Promise<number>;
  /** Follows not done yet (for tests and the log). */
  countActive(): Promise<number>;
}

export function createFollowStore(engine: SqlEngine): FollowStore {
  const leases = createLeaseStore(engine, 'follows');
  const held = lease.heldBy('$2');
  return {
    async create(f, seal) {
      return engine.transaction(async (tx) => {
        const row = await tx.get<Row>(
          `INSERT INTO follows (team_id, user_id, kind, project_key, project_path, target_id, ref, channel_id,
             card_channel, card_ts, response_url, uses_left, url_until, drawn, next_poll_at, deadline, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, $12, $13, $14, $15, $16) RETURNING *, ${LEASED}`,
          [
            f.teamId,
            f.userId,
            f.kind,
            f.projectKey,
            f.projectPath,
            f.targetId,
            f.ref,
            f.channelId,
            f.card?.channel ?? null,
            f.card?.ts ?? null,
            f.usesLeft,
            f.urlUntil?.toISOString() ?? null,
            f.drawn,
            f.nextPollAt.toISOString(),
            f.deadline.toISOString(),
            f.createdAt.toISOString(),
          ],
        );
        if (!row) throw new Error('the follow was not stored');
        const sealed = seal?.(Number(row.id)) ?? null;
        if (sealed === null) return toFollow(row);
        await tx.run('UPDATE follows SET response_url = $1 WHERE id = $2', [sealed, row.id]);
        return toFollow({ ...row, response_url: sealed });
      });
    },
    async get(id) {
      const row = await engine.get<Row>(`SELECT *, ${LEASED} FROM follows WHERE id = $1`, [id]);
      return row ? toFollow(row) : null;
    },
    async claimDue(owner, o) {
      // PostgreSQL: rows another replica is claiming right now are skipped, not waited for; SQLite writes one
      // statement at a time, so the conditional update alone decides.
      const lock = engine.kind === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
      // Most ticks find nothing due: a read answers them, so an idle tick never waits for the write lock.
      const any = await engine.get(
        `SELECT 1 AS due FROM follows
         WHERE done_at IS NULL AND next_poll_at <= $1 AND ${lease.free('$2')} LIMIT 1`,
        [o.dueBy.toISOString(), o.now.toISOString()],
      );
      if (!any) return [];
      const rows = await engine.all<Row>(
        `WITH due AS (
           SELECT id FROM follows
           WHERE done_at IS NULL AND next_poll_at <= $3 AND ${lease.free('$4')}
           ORDER BY next_poll_at, id LIMIT $5 ${lock})
         UPDATE follows SET ${lease.take('$1', '$2')}
         WHERE id IN (SELECT id FROM due) AND done_at IS NULL AND ${lease.free('$4')}
         RETURNING *, ${LEASED}`,
        [owner, o.until.toISOString(), o.dueBy.toISOString(), o.now.toISOString(), o.limit],
      );
      return rows.map(toFollow).sort((a, b) => a.id - b.id);
    },
    renew: (owner, until) => leases.renew(owner, until),
    fence: (id, held, o) => leases.fence(id, held, o),
    async takeUse(id, owner, fence) {
      const changed = fence
        ? await engine.run(
            `UPDATE follows SET uses_left = uses_left - 1, ${lease.renew('$3')}
             WHERE id = $1 AND uses_left > 0 AND ${lease.holds('$2', '$4', '$5')}`,
            [id, owner, fence.until.toISOString(), fence.gen, fence.now.toISOString()],
          )
        : await engine.run(`UPDATE follows SET uses_left = uses_left - 1 WHERE id = $1 AND ${held} AND uses_left > 0`, [
            id,
            owner,
          ]);
      return changed > 0;
    },
    async drawn(id, owner, o) {
      await engine.run(
        `UPDATE follows SET drawn = $3, drawn_at = $4, next_poll_at = $5, ${lease.release}
         WHERE id = $1 AND ${held}`,
        [id, owner, o.drawn, o.drawnAt?.toISOString() ?? null, o.nextPollAt.toISOString()],
      );
    },
    pauseForToken(id, owner, nextPollAt) {
      return engine.transaction(async (tx) => {
        // Told once: only the poll that moves it from going on to waiting for the token.
        const paused = await tx.run(
          `UPDATE follows SET outcome = 'token' WHERE id = $1 AND ${held} AND outcome IS NULL AND done_at IS NULL`,
          [id, owner],
        );
        await tx.run(`UPDATE follows SET next_poll_at = $3, ${lease.release} WHERE id = $1 AND ${held}`, [
          id,
          owner,
          nextPollAt.toISOString(),
        ]);
        return paused > 0;
      });
    },
    async resumeFromToken(id, owner) {
      const changed = await engine.run(
        `UPDATE follows SET outcome = NULL WHERE id = $1 AND ${held} AND outcome = 'token' AND done_at IS NULL`,
        [id, owner],
      );
      return changed > 0;
    },
    async tokenPaused() {
      const rows = await engine.all<{ team_id: string; user_id: string }>(
        `SELECT DISTINCT team_id, user_id FROM follows WHERE done_at IS NULL AND outcome = 'token' AND dm_key IS NULL
         ORDER BY team_id, user_id`,
      );
      return rows.map((r) => ({ teamId: r.team_id, userId: r.user_id }));
    },
    dueAfterToken: (teamId, userId, now) =>
      engine.run(
        `UPDATE follows SET next_poll_at = $3
         WHERE team_id = $1 AND user_id = $2 AND done_at IS NULL AND outcome = 'token' AND dm_key IS NULL
           AND next_poll_at > $3`,
        [teamId, userId, now.toISOString()],
      ),
    async openDm(id, owner, o) {
      const changed = await engine.run(
        `UPDATE follows SET dm_key = $3, dm_channel = $4, outcome = $5 WHERE id = $1 AND ${held} AND dm_ts IS NULL`,
        [id, owner, o.key, o.channel, o.outcome],
      );
      return changed > 0;
    },
    async dmPosted(id, owner, ts) {
      await engine.run(`UPDATE follows SET dm_ts = $3 WHERE id = $1 AND ${held}`, [id, owner, ts]);
    },
    async finish(id, owner, o) {
      await engine.run(
        `UPDATE follows SET done_at = $3, outcome = $4, response_url = NULL, ${lease.release}
         WHERE id = $1 AND ${held}`,
        [id, owner, o.at.toISOString(), o.outcome],
      );
    },
    releaseAll: (owner) => leases.releaseAll(owner),
    prune: (before) =>
      engine.run('DELETE FROM follows WHERE done_at IS NOT NULL AND done_at <= $1', [before.toISOString()]),
    async countActive() {
      const row = await engine.get<{ n: number | string }>('SELECT count(*) AS n FROM follows WHERE done_at IS NULL');
      return Number(row?.n ?? 0);
    },
  };
}
