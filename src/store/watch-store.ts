import { createLeaseStore, type HeldLease, lease } from './delivery-lease-store.js';
import type { SqlEngine, SqlRunner, SqlValue } from './engine.js';

// Pipeline watches and their cards (tables: store/migrations.ts), over the store port (SQLite or PostgreSQL).
// What must happen once is decided here: which replica polls a watch (a lease taken with one conditional update,
// many due watches at a time, `FOR UPDATE SKIP LOCKED` on PostgreSQL), and what a poll found is committed in one
// transaction with the intents of the cards it is to post (so a poll is never half remembered).

export type WatchStatusFilter = 'failed' | 'finished';

/** Why a watch is paused: by a person, or by the bot after the server or Slack refused it. */
export type WatchPauseReason = 'person' | 'token' | 'forbidden' | 'not_found' | 'channel';

export interface Watch {
  id: number;
  teamId: string;
  channelId: string;
  creatorId: string;
  project: { id: number; path: string };
  /** Only this ref's pipelines; null: every ref's. */
  ref: string | null;
  statusFilter: WatchStatusFilter;
  active: boolean;
  pausedReason: WatchPauseReason | null;
  pausedBy: string | null;
  createdAt: Date;
  /** The remembered status of each recent pipeline (`id:status` separated by spaces, newest first). */
  seen: string;
  /** The newest pipeline there was when the watch was made: older ones are never posted. */
  floorId: number;
  nextPollAt: Date;
  lastPollAt: Date | null;
  /** `ok`, `posted N`, `failed: …`. */
  lastResult: string | null;
}

export type NewWatch = Pick<
  Watch,
  'teamId' | 'channelId' | 'creatorId' | 'project' | 'ref' | 'statusFilter' | 'seen' | 'floorId' | 'nextPollAt'
>;

export interface CardJob {
  id: number;
  name: string;
  stage: string;
}

/** A card on its way (`pending`), posted and awaiting a fix (`posted`), or being redrawn as fixed (`fixing`). */
export interface WatchCard {
  key: string;
  watchId: number;
  pipelineId: number;
  ref: string;
  status: string;
  sha: string;
  state: 'pending' | 'posted' | 'fixing';
  channelId: string;
  messageTs: string | null;
  jobs: CardJob[];
  /** When the poll that found it finished ran. */
  seenAt: Date;
  fixedBy: number | null;
  fixedAt: Date | null;
}

export type NewCard = Pick<WatchCard, 'key' | 'pipelineId' | 'ref' | 'status' | 'sha' | 'jobs'>;

export interface PollRecord {
  at: Date;
  nextPollAt: Date;
  result: string;
}

export interface ClaimedWatch {
  watch: Watch;
  /** Whether cards of an earlier poll are still on their way (they are settled first). */
  open: boolean;
  /** Which claim of the watch this is (what its posts fence with, store/lease-fence.ts). */
  leaseGen: number;
  /** Polls in a row before this one that found the server busy (the delivery kernel's back-off). */
  busyPolls: number;
}

export interface WatchStore {
  create(input: NewWatch, now: Date): Promise<Watch>;
  get(id: number): Promise<Watch | null>;
  /** A watch of the same channel, project, ref and filter (creating it again answers it instead). */
  findSame(input: Pick<Watch, 'teamId' | 'channelId' | 'project' | 'ref' | 'statusFilter'>): Promise<Watch | null>;
  listForChannel(teamId: string, channelId: string): Promise<Watch[]>;
  listForCreator(teamId: string, creatorId: string): Promise<Watch[]>;
  /** Pauses an active watch; null when it was not active (so whoever pauses it says so once). */
  pause(id: number, reason: WatchPauseReason, by: string | null, now: Date): Promise<Watch | null>;
  /** Pauses every active watch of a creator; returns the ones this paused. */
  pauseCreator(teamId: string, creatorId: string, reason: WatchPauseReason, now: Date): Promise<Watch[]>;
  /** Resumes a paused watch (polled next at `nextPollAt`); null when it was not paused. */
  resume(id: number, nextPollAt: Date, now: Date): Promise<Watch | null>;
  /** Resumes a creator's watches paused for one of `reasons`; returns them. */
  resumeCreator(options: {
    teamId: string;
    creatorId: string;
    reasons: readonly WatchPauseReason[];
    nextPollAt: Date;
    now: Date;
  }): Promise<Watch[]>;
  remove(id: number): Promise<boolean>;
  /** Creators whose watches a refused token paused (their token is re-checked by the delivery kernel). */
  tokenPaused(): Promise<{ teamId: string; userId: string }[]>;
  /**
   * Takes the lease of up to `limit` active watches due by `dueBy` that nobody holds at `now` (oldest due first),
   * and answers their rows: the one read of a watch a poll needs.
   */
  claimDue(options: { owner: string; now: Date; until: Date; limit: number; dueBy: Date }): Promise<ClaimedWatch[]>;
  renew(owner: string, until: Date): Promise<number>;
  /**
   * Right before a card or a fix reply: renews the watch's lease until `until` if `lease` still holds it at `now`;
   * false when it ran out or was taken over (nothing is posted: the new holder delivers the card).
   */
  fence(id: number, lease: HeldLease, o: { now: Date; until: Date }): Promise<boolean>;
  release(id: number, owner: string): Promise<void>;
  releaseAll(owner: string): Promise<void>;
  /** Polls that found nothing new: each moves on to its next poll and its lease is released, in one transaction. */
  recordIdle(owner: string, polls: readonly (readonly [number, PollRecord])[]): Promise<void>;
  /**
   * What a poll found, in one transaction: the remembered statuses, the intents of new cards, the failure cards a
   * success of their ref fixes. The lease is kept (the cards are delivered under it). False (nothing written) when
   * the lease was lost to another replica meanwhile.
   */
  commitPoll(
    id: number,
    owner: string,
    o: { seen: string; poll: PollRecord; cards: readonly NewCard[]; fixes: readonly { ref: string; by: number }[] },
  ): Promise<boolean>;
  /** The cards of a watch still on their way, in the order they are delivered. */
  openCards(watchId: number): Promise<WatchCard[]>;
  /** The failure cards of a watch posted and awaiting a fix. */
  awaitingFix(watchId: number): Promise<WatchCard[]>;
  /** A card was posted: a failure awaits its fix (or is fixed already), anything else is done. */
  cardPosted(key: string, ts: string): Promise<'posted' | 'fixing' | 'done'>;
  /** A card's delivery is over (posted and not a failure, fixed, or dropped). */
  finishCard(key: string): Promise<void>;
  /** The watches whose poll is overdue at `now` by more than `lateMs`, and the oldest due time. */
  backlog(now: Date, lateMs: number): Promise<{ late: number; oldest: Date | null }>;
  count(): Promise<number>;
  /** Records a poll that failed (the watch stays, its next poll comes as usual), releasing the lease. */
  recordFailed(id: number, owner: string, poll: PollRecord): Promise<void>;
}

interface WatchRow {
  id: number | string;
  team_id: string;
  channel_id: string;
  creator_id: string;
  project_id: number | string;
  project_path: string;
  ref: string | null;
  status_filter: string;
  active: number | string;
  paused_reason: string | null;
  paused_by: string | null;
  created_at: string;
  seen: string;
  floor_id: number | string;
  next_poll_at: string;
  last_poll_at: string | null;
  last_result: string | null;
}

interface CardRow {
  card_key: string;
  watch_id: number | string;
  pipeline_id: number | string;
  ref: string;
  status: string;
  sha: string;
  state: string;
  channel_id: string;
  message_ts: string | null;
  jobs: string;
  seen_at: string;
  fixed_by: number | string | null;
  fixed_at: string | null;
}

function toWatch(r: WatchRow): Watch {
  return {
    id: Number(r.id),
    teamId: r.team_id,
    channelId: r.channel_id,
    creatorId: r.creator_id,
    project: { id: Number(r.project_id), path: r.project_path },
    ref: r.ref,
    statusFilter: r.status_filter as WatchStatusFilter,
    active: Number(r.active) === 1,
    pausedReason: r.paused_reason as WatchPauseReason | null,
    pausedBy: r.paused_by,
    createdAt: new Date(r.created_at),
    seen: r.seen,
    floorId: Number(r.floor_id),
    nextPollAt: new Date(r.next_poll_at),
    lastPollAt: r.last_poll_at ? new Date(r.last_poll_at) : null,
    lastResult: r.last_result,
  };
}

function toCard(r: CardRow): WatchCard {
  return {
    key: r.card_key,
    watchId: Number(r.watch_id),
    pipelineId: Number(r.pipeline_id),
    ref: r.ref,
    status: r.status,
    sha: r.sha,
    state: r.state as WatchCard['state'],
    channelId: r.channel_id,
    messageTs: r.message_ts,
    jobs: JSON.parse(r.jobs) as CardJob[],
    seenAt: new Date(r.seen_at),
    fixedBy: r.fixed_by === null ? null : Number(r.fixed_by),
    fixedAt: r.fixed_at ? new Date(r.fixed_at) : null,
  };
}

const SET_PAUSED = `UPDATE watches SET active = 0, paused_reason = $1, paused_by = $2, updated_at = $3,
  ${lease.release} WHERE id = $4 AND active = 1 RETURNING *`;

/** Moves a polled watch on to its next poll; the lease is kept when `seen` is given (its cards are delivered next). */
async function pollDone(
  tx: SqlRunner,
  { id, owner, poll, seen }: { id: number; owner: string; poll: PollRecord; seen?: string },
): Promise<number> {
  return tx.run(
    `UPDATE watches SET next_poll_at = $1, last_poll_at = $2, last_result = $3
       ${seen === undefined ? `, ${lease.release}` : ', seen = $6'}
     WHERE id = $4 AND ${lease.heldBy('$5')}`,
    [
      poll.nextPollAt.toISOString(),
      poll.at.toISOString(),
      poll.result,
      id,
      owner,
      ...(seen === undefined ? [] : [seen]),
    ],
  );
}

export function createWatchStore(engine: SqlEngine): WatchStore {
  const leases = createLeaseStore(engine, 'watches');
  const skipLocked = engine.kind === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const get = async (runner: SqlRunner, id: number) => {
    const r = await runner.get<WatchRow>('SELECT * FROM watches WHERE id = $1', [id]);
    return r ? toWatch(r) : null;
  };
  const list = async (sql: string, params: SqlValue[]) => (await engine.all<WatchRow>(sql, params)).map(toWatch);
  return {
    async create(input, now) {
      const at = now.toISOString();
      const r = await engine.get<WatchRow>(
        `INSERT INTO watches (team_id, channel_id, creator_id, project_id, project_path, ref, status_filter, active,
           created_at, updated_at, seen, floor_id, next_poll_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8, $9, $10, $11) RETURNING *`,
        [
          input.teamId,
          input.channelId,
          input.creatorId,
          input.project.id,
          input.project.path,
          input.ref,
          input.statusFilter,
          at,
          input.seen,
          input.floorId,
          input.nextPollAt.toISOString(),
        ],
      );
      return toWatch(r as WatchRow);
    },
    get: (id) => get(engine, id),
    async findSame(i) {
      const r = await engine.get<WatchRow>(
        `SELECT * FROM watches WHERE team_id = $1 AND channel_id = $2 AND project_id = $3
           AND COALESCE(ref, '') = $4 AND status_filter = $5 ORDER BY id LIMIT 1`,
        [i.teamId, i.channelId, i.project.id, i.ref ?? '', i.statusFilter],
      );
      return r ? toWatch(r) : null;
    },
    listForChannel: (teamId, channelId) =>
      list('SELECT * FROM watches WHERE team_id = $1 AND channel_id = $2 ORDER BY id', [teamId, channelId]),
    listForCreator: (teamId, creatorId) =>
      list('SELECT * FROM watches WHERE team_id = $1 AND creator_id = $2 ORDER BY id', [teamId, creatorId]),
    async pause(id, reason, by, now) {
      const r = await engine.get<WatchRow>(SET_PAUSED, [reason, by, now.toISOString(), id]);
      return r ? toWatch(r) : null;
    },
    pauseCreator: async (teamId, creatorId, reason, now) =>
      (
        await engine.all<WatchRow>(
          `UPDATE watches SET active = 0, paused_reason = $1, paused_by = NULL, updated_at = $2
           WHERE team_id = $3 AND creator_id = $4 AND active = 1 RETURNING *`,
          [reason, now.toISOString(), teamId, creatorId],
        )
      )
        .map(toWatch)
        .sort((a, b) => a.id - b.id),
    async resume(id, nextPollAt, now) {
      const r = await engine.get<WatchRow>(
        `UPDATE watches SET active = 1, paused_reason = NULL, paused_by = NULL, updated_at = $1, next_poll_at = $2
         WHERE id = $3 AND active = 0 RETURNING *`,
        [now.toISOString(), nextPollAt.toISOString(), id],
      );
      return r ? toWatch(r) : null;
    },
    async tokenPaused() {
      const rows = await engine.all<{ team_id: string; creator_id: string }>(
        `SELECT DISTINCT team_id, creator_id FROM watches WHERE active = 0 AND paused_reason = 'token'
         ORDER BY team_id, creator_id`,
      );
      return rows.map((r) => ({ teamId: r.team_id, userId: r.creator_id }));
    },
    async resumeCreator({ teamId, creatorId, reasons, nextPollAt, now }) {
      if (reasons.length === 0) return [];
      const rows = await engine.all<WatchRow>(
        `UPDATE watches SET active = 1, paused_reason = NULL, paused_by = NULL, updated_at = $1, next_poll_at = $2
         WHERE team_id = $3 AND creator_id = $4 AND active = 0
           AND paused_reason IN (${reasons.map((_, i) => `$${i + 5}`).join(', ')}) RETURNING *`,
        [now.toISOString(), nextPollAt.toISOString(), teamId, creatorId, ...reasons],
      );
      return rows.map(toWatch).sort((a, b) => a.id - b.id);
    },
    async remove(id) {
      return engine.transaction(async (tx) => {
        await tx.run('DELETE FROM watch_cards WHERE watch_id = $1', [id]);
        return (await tx.run('DELETE FROM watches WHERE id = $1', [id])) > 0;
      });
    },
    async claimDue({ owner, now, until, limit, dueBy }) {
      // Most ticks find nothing due: a read answers them, so an idle tick never waits for the write lock.
      const due = await engine.get(
        `SELECT 1 AS due FROM watches
         WHERE active = 1 AND next_poll_at <= $1 AND ${lease.free('$2')} LIMIT 1`,
        [dueBy.toISOString(), now.toISOString()],
      );
      if (!due) return [];
      // On SQLite, `+active` keeps the update from walking every active watch to test it against the picked ids:
      // each picked row is looked up by its id instead.
      const pickedActive = engine.kind === 'postgres' ? 'active' : '+active';
      const rows = await engine.all<
        WatchRow & { open_cards: number | string; claim_gen: number | string; busy_before: number | string }
      >(
        `UPDATE watches SET ${lease.take('$1', '$2')}
         WHERE id IN (
           SELECT id FROM watches
           WHERE active = 1 AND next_poll_at <= $3 AND ${lease.free('$4')}
           ORDER BY next_poll_at, id LIMIT $5${skipLocked})
         AND ${pickedActive} = 1 AND ${lease.freeOrHeldBy('$1', '$4')}
         RETURNING *, ${lease.gen()} AS claim_gen, ${lease.busyPolls()}, CASE WHEN EXISTS (SELECT 1 FROM watch_cards c WHERE c.watch_id = watches.id
           AND c.state IN ('pending', 'fixing')) THEN 1 ELSE 0 END AS open_cards`,
        [owner, until.toISOString(), dueBy.toISOString(), now.toISOString(), limit],
      );
      return rows
        .map((r) => ({
          watch: toWatch(r),
          open: Number(r.open_cards) === 1,
          leaseGen: Number(r.claim_gen),
          busyPolls: Number(r.busy_before),
        }))
        .sort((a, b) => a.watch.nextPollAt.getTime() - b.watch.nextPollAt.getTime() || a.watch.id - b.watch.id);
    },
    renew: (owner, until) => leases.renew(owner, until),
    fence: (id, held, o) => leases.fence(id, held, o),
    release: (id, owner) => leases.release(id, owner),
    releaseAll: (owner) => leases.releaseAll(owner),
    async recordIdle(owner, polls) {
      if (polls.length === 0) return;
      await engine.transaction(async (tx) => {
        for (const [id, p] of polls) await pollDone(tx, { id, owner, poll: p });
      });
    },
    async recordFailed(id, owner, poll) {
      await pollDone(engine, { id, owner, poll });
    },
    commitPoll(id, owner, o) {
      return engine
        .transaction(async (tx) => {
          if ((await pollDone(tx, { id, owner, poll: o.poll, seen: o.seen })) === 0) throw new LeaseLost();
          const w = await get(tx, id);
          if (!w) throw new LeaseLost();
          const at = o.poll.at.toISOString();
          for (const c of o.cards) {
            await tx.run(
              `INSERT INTO watch_cards (card_key, watch_id, pipeline_id, ref, status, sha, state, channel_id, jobs, seen_at)
             VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8, $9) ON CONFLICT (watch_id, pipeline_id) DO NOTHING`,
              [c.key, id, c.pipelineId, c.ref, c.status, c.sha, w.channelId, JSON.stringify(c.jobs), at],
            );
          }
          for (const f of o.fixes) {
            await tx.run(
              `UPDATE watch_cards SET fixed_by = $1, fixed_at = $2,
               state = CASE WHEN state = 'posted' THEN 'fixing' ELSE state END
             WHERE watch_id = $3 AND ref = $4 AND status = 'failed' AND fixed_by IS NULL AND pipeline_id <= $1`,
              [f.by, at, id, f.ref],
            );
          }
          return true;
        })
        .catch((err: unknown) => {
          if (err instanceof LeaseLost) return false;
          throw err;
        });
    },
    async openCards(watchId) {
      const rows = await engine.all<CardRow>(
        `SELECT * FROM watch_cards WHERE watch_id = $1 AND state IN ('pending', 'fixing')
         ORDER BY CASE state WHEN 'pending' THEN 0 ELSE 1 END, pipeline_id`,
        [watchId],
      );
      return rows.map(toCard);
    },
    async awaitingFix(watchId) {
      const rows = await engine.all<CardRow>(
        `SELECT * FROM watch_cards WHERE watch_id = $1 AND state = 'posted' ORDER BY pipeline_id`,
        [watchId],
      );
      return rows.map(toCard);
    },
    async cardPosted(key, ts) {
      return engine.transaction(async (tx) => {
        const r = await tx.get<CardRow>(
          `UPDATE watch_cards SET message_ts = $1,
             state = CASE WHEN fixed_by IS NOT NULL THEN 'fixing' ELSE 'posted' END
           WHERE card_key = $2 RETURNING *`,
          [ts, key],
        );
        if (!r) return 'done';
        if (r.status !== 'failed') {
          await tx.run('DELETE FROM watch_cards WHERE card_key = $1', [key]);
          return 'done';
        }
        return r.state as 'posted' | 'fixing';
      });
    },
    async finishCard(key) {
      await engine.run('DELETE FROM watch_cards WHERE card_key = $1', [key]);
    },
    async backlog(now, lateMs) {
      const r = await engine.get<{ late: number | string; oldest: string | null }>(
        'SELECT count(*) AS late, min(next_poll_at) AS oldest FROM watches WHERE active = 1 AND next_poll_at <= $1',
        [new Date(now.getTime() - lateMs).toISOString()],
      );
      return { late: Number(r?.late ?? 0), oldest: r?.oldest ? new Date(r.oldest) : null };
    },
    async count() {
      const r = await engine.get<{ n: number | string }>('SELECT count(*) AS n FROM watches');
      return Number(r?.n ?? 0);
    },
  };
}

class LeaseLost extends Error {}
