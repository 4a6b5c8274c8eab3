import type { BusyPolicy } from './database.js';
import { lease } from './delivery-lease-store.js';
import type { SqlRunner, SqlValue } from './engine.js';
import { engineOf, type StoreSource } from './engine-of.js';

// Digests and the intents of their runs. A digest keeps a read cursor (the newest `created_at` posted and the keys
// of what was posted at exactly that instant); a run first writes an intent holding the cursor it will move to,
// then posts, then commits the cursor and deletes the intent in one transaction. One implementation over the store
// port (SQLite or PostgreSQL, ARCHITECTURE §9).

export type DigestKind = 'todos' | 'project_events' | 'user_events' | 'insights';

/** Why a digest is paused: by a person, or by the bot after the server or Slack refused it. */
export type PauseReason = 'person' | 'token' | 'forbidden' | 'not_found' | 'channel';

export interface DigestCursor {
  /** ISO time of the newest event already posted (or of the digest's creation). */
  at: string;
  /** Keys of the events at exactly `at` already posted; a key may repeat (two identical events, no ids). */
  keys: string[];
}

export interface Digest {
  id: number;
  teamId: string;
  ownerId: string;
  /** Where it posts: a channel, or the owner's DM with the bot. */
  channelId: string;
  inDm: boolean;
  kind: DigestKind;
  /** For project events: the numeric id and the path the server confirmed. */
  project: { id: number; path: string } | null;
  /** For a user's events. */
  user: { id: number; username: string } | null;
  action: string | null;
  targetType: string | null;
  /** For insights: the environment its keys are about (null: the production-like one of each week). */
  environment: string | null;
  cron: string;
  tz: string;
  active: boolean;
  pausedReason: PauseReason | null;
  /** Slack user id of who paused it (null when the bot did). */
  pausedBy: string | null;
  createdAt: Date;
  lastRunAt: Date | null;
  /** `posted`, `empty`, `failed: …`, `paused: …`. */
  lastResult: string | null;
  lastItems: number | null;
  /** Slack ts of the digest's latest post: history older than it cannot hold a later run's post. */
  lastPostTs: string | null;
  nextRunAt: Date | null;
  cursor: DigestCursor;
}

export type NewDigest = Pick<
  Digest,
  'teamId' | 'ownerId' | 'channelId' | 'inDm' | 'kind' | 'project' | 'user' | 'action' | 'targetType' | 'cron' | 'tz'
> & { environment?: string | null; nextRunAt: Date | null; cursor: DigestCursor };

/** A run between its intent and its commit. */
export interface DigestRun {
  runKey: string;
  digestId: number;
  scheduledFor: Date;
  reason: string;
  state: 'pending' | 'posted';
  channelId: string;
  messageTs: string | null;
  /** The cursor the digest moves to when the run is committed. */
  cursor: DigestCursor;
  items: number;
  createdAt: Date;
}

export interface RunRecord {
  at: Date;
  result: string;
  items: number;
  nextRunAt: Date | null;
}

export interface DigestStore {
  create(input: NewDigest): Promise<Digest>;
  get(id: number): Promise<Digest | null>;
  /** A digest of the same owner, destination and subject (creating it again changes its schedule instead). */
  findSame(input: NewDigest): Promise<Digest | null>;
  /** The digests posting into a channel. */
  listForChannel(teamId: string, channelId: string): Promise<Digest[]>;
  listForOwner(teamId: string, ownerId: string): Promise<Digest[]>;
  listActive(): Promise<Digest[]>;
  count(): Promise<number>;
  reschedule(id: number, options: { cron: string; tz: string; nextRunAt: Date | null }): Promise<Digest | null>;
  /** Changes which events an events digest posts (null: all). */
  refilter(id: number, action: string | null, targetType: string | null): Promise<Digest | null>;
  /** Pauses an active digest; null when it was not active (so whoever pauses it says so once). */
  pause(id: number, reason: PauseReason, by: string | null): Promise<Digest | null>;
  /** Pauses every active digest of an owner at once; returns the ones this paused. */
  pauseOwner(teamId: string, ownerId: string, reason: PauseReason): Promise<Digest[]>;
  /** Resumes a paused digest; null when it was not paused. */
  resume(id: number, nextRunAt: Date | null): Promise<Digest | null>;
  /** Resumes the owner's digests paused for one of `reasons`; returns them. */
  resumeOwner(options: {
    teamId: string;
    ownerId: string;
    reasons: readonly PauseReason[];
    nextRunAt: (d: Digest) => Date | null;
  }): Promise<Digest[]>;
  remove(id: number): Promise<boolean>;
  /** A run that posted nothing (or failed): the cursor stays. */
  recordRun(id: number, run: RunRecord): Promise<void>;
  /** Many such runs in one transaction. */
  recordRuns(runs: readonly (readonly [number, RunRecord])[]): Promise<void>;
  /** Writes the intent of a run before anything is posted. */
  openRun(run: Omit<DigestRun, 'state' | 'messageTs'>): Promise<void>;
  markPosted(runKey: string, messageTs: string): Promise<void>;
  /**
   * Moves the digest's cursor to the run's and deletes the intent, in one transaction. `midway` runs inside it,
   * between the two writes (a test seam for a kill while saving).
   */
  commitRun(runKey: string, run: RunRecord, midway?: () => void): Promise<boolean>;
  dropRun(runKey: string): Promise<void>;
  openRuns(): Promise<DigestRun[]>;
  openRunOf(digestId: number): Promise<DigestRun | null>;
  /** The ids of active digests on the schedule `cron` in `tz`, as the database says now. */
  dueIn(schedule: { cron: string; tz: string }): Promise<number[]>;
  /** Every active digest's schedule: what every replica arms. */
  scheduled(): Promise<{ id: number; cron: string; tz: string }[]>;
  /** Active digests whose run was due by `dueBefore` and that nobody holds at `now`. */
  overdue(dueBefore: Date, now: Date, limit: number): Promise<{ id: number; nextRunAt: Date }[]>;
  /**
   * Digests with an open intent whose lease ran out at `now` (a replica died holding it), and with `released`
   * also those nobody holds (a run that left its intent for the next run to settle).
   */
  orphaned(now: Date, o: { released: boolean }): Promise<{ id: number; scheduledFor: Date }[]>;
  /** Owners with digests paused for `reason`. */
  pausedOwners(reason: PauseReason): Promise<{ teamId: string; ownerId: string }[]>;
}

/** What a claim of a digest's lease selects besides its row: whether an intent of an earlier run is open. */
export const OPEN_RUN_OF_CLAIMED = `CASE WHEN EXISTS (SELECT 1 FROM digest_runs r WHERE r.digest_id = digests.id)
  THEN 1 ELSE 0 END AS open_run`;

/** A row of `digests` as both engines return it. */
export interface DigestRow {
  id: number;
  team_id: string;
  owner_user_id: string;
  channel_id: string;
  in_dm: number;
  kind: DigestKind;
  project_id: number | null;
  project_path: string | null;
  user_id: number | null;
  username: string | null;
  action: string | null;
  target_type: string | null;
  environment: string | null;
  cron: string;
  tz: string;
  active: number;
  paused_reason: PauseReason | null;
  paused_by: string | null;
  created_at: string;
  updated_at: string;
  last_run_at: string | null;
  last_result: string | null;
  last_items: number | null;
  last_post_ts: string | null;
  next_run_at: string | null;
  cursor_at: string;
  cursor_keys: string;
}

interface RunRow {
  run_key: string;
  digest_id: number;
  scheduled_for: string;
  reason: string;
  state: 'pending' | 'posted';
  channel_id: string;
  message_ts: string | null;
  cursor_at: string;
  cursor_keys: string;
  items: number;
  created_at: string;
}

const date = (iso: string | null) => (iso === null ? null : new Date(iso));
const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function keysOf(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
}

export function toDigest(r: DigestRow): Digest {
  return {
    id: r.id,
    teamId: r.team_id,
    ownerId: r.owner_user_id,
    channelId: r.channel_id,
    inDm: r.in_dm === 1,
    kind: r.kind,
    project: r.project_path !== null && r.project_id !== null ? { id: r.project_id, path: r.project_path } : null,
    user: r.user_id !== null && r.username !== null ? { id: r.user_id, username: r.username } : null,
    action: r.action,
    targetType: r.target_type,
    environment: r.environment ?? null,
    cron: r.cron,
    tz: r.tz,
    active: r.active === 1,
    pausedReason: r.paused_reason,
    pausedBy: r.paused_by,
    createdAt: new Date(r.created_at),
    lastRunAt: date(r.last_run_at),
    lastResult: r.last_result,
    lastItems: r.last_items,
    lastPostTs: r.last_post_ts,
    nextRunAt: date(r.next_run_at),
    cursor: { at: r.cursor_at, keys: keysOf(r.cursor_keys) },
  };
}

function toRun(r: RunRow): DigestRun {
  return {
    runKey: r.run_key,
    digestId: r.digest_id,
    scheduledFor: new Date(r.scheduled_for),
    reason: r.reason,
    state: r.state,
    channelId: r.channel_id,
    messageTs: r.message_ts,
    cursor: { at: r.cursor_at, keys: keysOf(r.cursor_keys) },
    items: r.items,
    createdAt: new Date(r.created_at),
  };
}

const UPDATE_RUN =
  'UPDATE digests SET last_run_at = $1, last_result = $2, last_items = $3, next_run_at = $4 WHERE id = $5';
const SET_PAUSED = `UPDATE digests SET active = 0, paused_reason = $1, paused_by = $2, updated_at = $3
  WHERE id = $4 AND active = 1`;
const SET_ACTIVE = `UPDATE digests SET active = 1, paused_reason = NULL, paused_by = NULL, next_run_at = $1, updated_at = $2
  WHERE id = $3 AND active = 0`;
const BY_OWNER = 'SELECT * FROM digests WHERE team_id = $1 AND owner_user_id = $2 ORDER BY id';

export function createDigestStore(
  source: StoreSource,
  now: () => Date = () => new Date(),
  busy: BusyPolicy = {},
): DigestStore {
  const db = engineOf(source, busy);
  // "Equal, or both null": SQLite says IS, PostgreSQL IS NOT DISTINCT FROM.
  const same = db.kind === 'postgres' ? 'IS NOT DISTINCT FROM' : 'IS';

  const getIn = async (runner: SqlRunner, id: number) => {
    const r = await runner.get<DigestRow>('SELECT * FROM digests WHERE id = $1', [id]);
    return r ? toDigest(r) : null;
  };
  const get = (id: number) => getIn(db, id);
  const list = async (sql: string, params: SqlValue[] = []) => (await db.all<DigestRow>(sql, params)).map(toDigest);
  const runParams = (id: number, run: RunRecord): SqlValue[] => [
    run.at.toISOString(),
    run.result,
    run.items,
    iso(run.nextRunAt),
    id,
  ];

  return {
    async create(d) {
      const r = await db.get<DigestRow>(
        `INSERT INTO digests (team_id, owner_user_id, channel_id, in_dm, kind, project_id, project_path, user_id, username,
           action, target_type, cron, tz, active, created_at, updated_at, next_run_at, cursor_at, cursor_keys, environment)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 1, $14, $14, $15, $16, $17, $18)
         RETURNING *`,
        [
          d.teamId,
          d.ownerId,
          d.channelId,
          d.inDm ? 1 : 0,
          d.kind,
          d.project?.id ?? null,
          d.project?.path ?? null,
          d.user?.id ?? null,
          d.user?.username ?? null,
          d.action,
          d.targetType,
          d.cron,
          d.tz,
          now().toISOString(),
          iso(d.nextRunAt),
          d.cursor.at,
          JSON.stringify(d.cursor.keys),
          d.environment ?? null,
        ],
      );
      return toDigest(r as DigestRow);
    },
    get,
    async findSame(d) {
      const r = await db.get<DigestRow>(
        `SELECT * FROM digests WHERE team_id = $1 AND owner_user_id = $2 AND channel_id = $3 AND kind = $4
           AND project_id ${same} $5 AND user_id ${same} $6 AND action ${same} $7 AND target_type ${same} $8
           AND environment ${same} $9
         ORDER BY id LIMIT 1`,
        [
          d.teamId,
          d.ownerId,
          d.channelId,
          d.kind,
          d.project?.id ?? null,
          d.user?.id ?? null,
          d.action,
          d.targetType,
          d.environment ?? null,
        ],
      );
      return r ? toDigest(r) : null;
    },
    listForChannel: (teamId, channelId) =>
      list('SELECT * FROM digests WHERE team_id = $1 AND channel_id = $2 ORDER BY id', [teamId, channelId]),
    listForOwner: (teamId, ownerId) => list(BY_OWNER, [teamId, ownerId]),
    listActive: () => list('SELECT * FROM digests WHERE active = 1 ORDER BY id'),
    async count() {
      return (await db.get<{ n: number }>('SELECT count(*) AS n FROM digests'))?.n ?? 0;
    },
    async reschedule(id, { cron, tz, nextRunAt }) {
      await db.run('UPDATE digests SET cron = $1, tz = $2, next_run_at = $3, updated_at = $4 WHERE id = $5', [
        cron,
        tz,
        iso(nextRunAt),
        now().toISOString(),
        id,
      ]);
      return get(id);
    },
    async refilter(id, action, targetType) {
      await db.run('UPDATE digests SET action = $1, target_type = $2, updated_at = $3 WHERE id = $4', [
        action,
        targetType,
        now().toISOString(),
        id,
      ]);
      return get(id);
    },
    async pause(id, reason, by) {
      return (await db.run(SET_PAUSED, [reason, by, now().toISOString(), id])) > 0 ? get(id) : null;
    },
    async pauseOwner(teamId, ownerId, reason) {
      return db.transaction(async (tx) => {
        const paused: Digest[] = [];
        for (const r of await tx.all<DigestRow>(BY_OWNER, [teamId, ownerId])) {
          if ((await tx.run(SET_PAUSED, [reason, null, now().toISOString(), r.id])) > 0) {
            paused.push((await getIn(tx, r.id)) as Digest);
          }
        }
        return paused;
      });
    },
    async resume(id, nextRunAt) {
      return (await db.run(SET_ACTIVE, [iso(nextRunAt), now().toISOString(), id])) > 0 ? get(id) : null;
    },
    async resumeOwner({ teamId, ownerId, reasons, nextRunAt }) {
      return db.transaction(async (tx) => {
        const resumed: Digest[] = [];
        for (const r of await tx.all<DigestRow>(BY_OWNER, [teamId, ownerId])) {
          if (r.active === 1 || r.paused_reason === null || !reasons.includes(r.paused_reason)) continue;
          if ((await tx.run(SET_ACTIVE, [iso(nextRunAt(toDigest(r))), now().toISOString(), r.id])) > 0) {
            resumed.push((await getIn(tx, r.id)) as Digest);
          }
        }
        return resumed;
      });
    },
    async remove(id) {
      return (await db.run('DELETE FROM digests WHERE id = $1', [id])) > 0;
    },
    async recordRun(id, run) {
      await db.run(UPDATE_RUN, runParams(id, run));
    },
    async recordRuns(runs) {
      if (runs.length === 0) return;
      await db.transaction(async (tx) => {
        for (const [id, run] of runs) await tx.run(UPDATE_RUN, runParams(id, run));
      });
    },
    async openRun(run) {
      await db.run(
        `INSERT INTO digest_runs (run_key, digest_id, scheduled_for, reason, state, channel_id, cursor_at, cursor_keys,
           items, created_at)
         VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9)`,
        [
          run.runKey,
          run.digestId,
          run.scheduledFor.toISOString(),
          run.reason,
          run.channelId,
          run.cursor.at,
          JSON.stringify(run.cursor.keys),
          run.items,
          run.createdAt.toISOString(),
        ],
      );
    },
    async markPosted(runKey, messageTs) {
      await db.run(`UPDATE digest_runs SET state = 'posted', message_ts = $1 WHERE run_key = $2`, [messageTs, runKey]);
    },
    async commitRun(runKey, run, midway) {
      return db.transaction(async (tx) => {
        const r = await tx.get<RunRow>('SELECT * FROM digest_runs WHERE run_key = $1', [runKey]);
        if (!r) return false;
        await tx.run(
          `UPDATE digests SET cursor_at = $1, cursor_keys = $2, last_post_ts = coalesce($3, last_post_ts),
             last_run_at = $4, last_result = $5, last_items = $6, next_run_at = $7 WHERE id = $8`,
          [
            r.cursor_at,
            r.cursor_keys,
            r.message_ts,
            run.at.toISOString(),
            run.result,
            run.items,
            iso(run.nextRunAt),
            r.digest_id,
          ],
        );
        midway?.();
        await tx.run('DELETE FROM digest_runs WHERE run_key = $1', [runKey]);
        return true;
      });
    },
    async dropRun(runKey) {
      await db.run('DELETE FROM digest_runs WHERE run_key = $1', [runKey]);
    },
    async openRuns() {
      return (await db.all<RunRow>('SELECT * FROM digest_runs ORDER BY created_at, run_key')).map(toRun);
    },
    async dueIn({ cron, tz }) {
      const rows = await db.all<{ id: number | string }>(
        'SELECT id FROM digests WHERE active = 1 AND cron = $1 AND tz = $2 ORDER BY id',
        [cron, tz],
      );
      return rows.map((r) => Number(r.id));
    },
    async scheduled() {
      const rows = await db.all<{ id: number | string; cron: string; tz: string }>(
        'SELECT id, cron, tz FROM digests WHERE active = 1 ORDER BY id',
      );
      return rows.map((r) => ({ id: Number(r.id), cron: r.cron, tz: r.tz }));
    },
    async overdue(dueBefore, at, limit) {
      const rows = await db.all<{ id: number | string; next_run_at: string }>(
        `SELECT id, next_run_at FROM digests
         WHERE active = 1 AND next_run_at IS NOT NULL AND next_run_at <= $1 AND ${lease.free('$2')}
         ORDER BY next_run_at, id LIMIT $3`,
        [dueBefore.toISOString(), at.toISOString(), limit],
      );
      return rows.map((r) => ({ id: Number(r.id), nextRunAt: new Date(r.next_run_at) }));
    },
    async orphaned(at, o) {
      const rows = await db.all<{ digest_id: number | string; scheduled_for: string }>(
        `SELECT r.digest_id, max(r.scheduled_for) AS scheduled_for FROM digest_runs r JOIN digests d ON d.id = r.digest_id
         WHERE ${lease.lapsed('$1', 'd.')} ${o.released ? `OR ${lease.released('d.')}` : ''}
         GROUP BY r.digest_id ORDER BY r.digest_id`,
        [at.toISOString()],
      );
      return rows.map((r) => ({ id: Number(r.digest_id), scheduledFor: new Date(r.scheduled_for) }));
    },
    async pausedOwners(reason) {
      const rows = await db.all<{ team_id: string; owner_user_id: string }>(
        `SELECT DISTINCT team_id, owner_user_id FROM digests WHERE active = 0 AND paused_reason = $1
         ORDER BY team_id, owner_user_id`,
        [reason],
      );
      return rows.map((r) => ({ teamId: r.team_id, ownerId: r.owner_user_id }));
    },
    async openRunOf(digestId) {
      const r = await db.get<RunRow>(
        'SELECT * FROM digest_runs WHERE digest_id = $1 ORDER BY created_at DESC LIMIT 1',
        [digestId],
      );
      return r ? toRun(r) : null;
    },
  };
}
