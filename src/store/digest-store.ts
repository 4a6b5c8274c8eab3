import { type BusyPolicy, type Db, whenFree } from './database.js';

// Digests and the intents of their runs. A digest keeps a read cursor (the newest `created_at` posted and the keys
// of what was posted at exactly that instant); a run first writes an intent holding the cursor it will move to,
// then posts, then commits the cursor and deletes the intent in one transaction. The interface is asynchronous
// although SQLite answers synchronously: a shared store for several replicas (ARCHITECTURE §9) would not.

export type DigestKind = 'todos' | 'project_events' | 'user_events';

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
> & { nextRunAt: Date | null; cursor: DigestCursor };

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
  reschedule(id: number, cron: string, tz: string, nextRunAt: Date | null): Promise<Digest | null>;
  /** Pauses an active digest; null when it was not active (so whoever pauses it says so once). */
  pause(id: number, reason: PauseReason, by: string | null): Promise<Digest | null>;
  /** Pauses every active digest of an owner at once; returns the ones this paused. */
  pauseOwner(teamId: string, ownerId: string, reason: PauseReason): Promise<Digest[]>;
  /** Resumes a paused digest; null when it was not paused. */
  resume(id: number, nextRunAt: Date | null): Promise<Digest | null>;
  /** Resumes the owner's digests paused for one of `reasons`; returns them. */
  resumeOwner(
    teamId: string,
    ownerId: string,
    reasons: readonly PauseReason[],
    nextRunAt: (d: Digest) => Date | null,
  ): Promise<Digest[]>;
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
}

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

export function createDigestStore(db: Db, now: () => Date = () => new Date(), busy: BusyPolicy = {}): DigestStore {
  // Writes wait for another process's lock on timers (the event loop stays free); reads do not wait (WAL).
  const free = <T>(what: string, run: () => T) => whenFree(what, run, busy);
  const insert = db.prepare(
    `INSERT INTO digests (team_id, owner_user_id, channel_id, in_dm, kind, project_id, project_path, user_id, username,
       action, target_type, cron, tz, active, created_at, updated_at, next_run_at, cursor_at, cursor_keys)
     VALUES (@team_id, @owner_user_id, @channel_id, @in_dm, @kind, @project_id, @project_path, @user_id, @username,
       @action, @target_type, @cron, @tz, 1, @now, @now, @next_run_at, @cursor_at, @cursor_keys)`,
  );
  const byId = db.prepare('SELECT * FROM digests WHERE id = ?');
  const same = db.prepare(
    `SELECT * FROM digests WHERE team_id = @team_id AND owner_user_id = @owner_user_id AND channel_id = @channel_id
       AND kind = @kind AND project_id IS @project_id AND user_id IS @user_id AND action IS @action
       AND target_type IS @target_type ORDER BY id LIMIT 1`,
  );
  const byChannel = db.prepare('SELECT * FROM digests WHERE team_id = ? AND channel_id = ? ORDER BY id');
  const byOwner = db.prepare('SELECT * FROM digests WHERE team_id = ? AND owner_user_id = ? ORDER BY id');
  const active = db.prepare('SELECT * FROM digests WHERE active = 1 ORDER BY id');
  const countAll = db.prepare('SELECT count(*) AS n FROM digests');
  const setSchedule = db.prepare('UPDATE digests SET cron = ?, tz = ?, next_run_at = ?, updated_at = ? WHERE id = ?');
  const setPaused = db.prepare(
    `UPDATE digests SET active = 0, paused_reason = ?, paused_by = ?, updated_at = ? WHERE id = ? AND active = 1`,
  );
  const setActive = db.prepare(
    `UPDATE digests SET active = 1, paused_reason = NULL, paused_by = NULL, next_run_at = ?, updated_at = ?
     WHERE id = ? AND active = 0`,
  );
  const del = db.prepare('DELETE FROM digests WHERE id = ?');
  const setRun = db.prepare(
    `UPDATE digests SET last_run_at = ?, last_result = ?, last_items = ?, next_run_at = ? WHERE id = ?`,
  );
  const insertRun = db.prepare(
    `INSERT INTO digest_runs (run_key, digest_id, scheduled_for, reason, state, channel_id, cursor_at, cursor_keys,
       items, created_at)
     VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?)`,
  );
  const posted = db.prepare(`UPDATE digest_runs SET state = 'posted', message_ts = ? WHERE run_key = ?`);
  const runByKey = db.prepare('SELECT * FROM digest_runs WHERE run_key = ?');
  const moveCursor = db.prepare(
    `UPDATE digests SET cursor_at = ?, cursor_keys = ?, last_post_ts = coalesce(?, last_post_ts), last_run_at = ?,
       last_result = ?, last_items = ?, next_run_at = ? WHERE id = ?`,
  );
  const delRun = db.prepare('DELETE FROM digest_runs WHERE run_key = ?');
  const allRuns = db.prepare('SELECT * FROM digest_runs ORDER BY created_at, run_key');
  const runOf = db.prepare('SELECT * FROM digest_runs WHERE digest_id = ? ORDER BY created_at DESC LIMIT 1');

  const get = (id: number) => {
    const r = byId.get(id) as DigestRow | undefined;
    return r ? toDigest(r) : null;
  };
  const sameParams = (d: NewDigest) => ({
    team_id: d.teamId,
    owner_user_id: d.ownerId,
    channel_id: d.channelId,
    kind: d.kind,
    project_id: d.project?.id ?? null,
    user_id: d.user?.id ?? null,
    action: d.action,
    target_type: d.targetType,
  });

  return {
    async create(d) {
      return free('save a digest', () => {
        const result = insert.run({
          ...sameParams(d),
          in_dm: d.inDm ? 1 : 0,
          project_path: d.project?.path ?? null,
          username: d.user?.username ?? null,
          cron: d.cron,
          tz: d.tz,
          now: now().toISOString(),
          next_run_at: iso(d.nextRunAt),
          cursor_at: d.cursor.at,
          cursor_keys: JSON.stringify(d.cursor.keys),
        });
        return get(Number(result.lastInsertRowid)) as Digest;
      });
    },
    async get(id) {
      return get(id);
    },
    async findSame(d) {
      const r = same.get(sameParams(d)) as DigestRow | undefined;
      return r ? toDigest(r) : null;
    },
    async listForChannel(teamId, channelId) {
      return (byChannel.all(teamId, channelId) as DigestRow[]).map(toDigest);
    },
    async listForOwner(teamId, ownerId) {
      return (byOwner.all(teamId, ownerId) as DigestRow[]).map(toDigest);
    },
    async listActive() {
      return (active.all() as DigestRow[]).map(toDigest);
    },
    async count() {
      return (countAll.get() as { n: number }).n;
    },
    async reschedule(id, cron, tz, nextRunAt) {
      return free('reschedule a digest', () => {
        setSchedule.run(cron, tz, iso(nextRunAt), now().toISOString(), id);
        return get(id);
      });
    },
    async pause(id, reason, by) {
      return free('pause a digest', () => {
        return setPaused.run(reason, by, now().toISOString(), id).changes > 0 ? get(id) : null;
      });
    },
    async pauseOwner(teamId, ownerId, reason) {
      return free('pause the digests of a person', () => {
        return db.transaction(() => {
          const paused: Digest[] = [];
          for (const r of byOwner.all(teamId, ownerId) as DigestRow[]) {
            if (setPaused.run(reason, null, now().toISOString(), r.id).changes > 0) paused.push(get(r.id) as Digest);
          }
          return paused;
        })();
      });
    },
    async resume(id, nextRunAt) {
      return free('resume a digest', () => {
        return setActive.run(iso(nextRunAt), now().toISOString(), id).changes > 0 ? get(id) : null;
      });
    },
    async resumeOwner(teamId, ownerId, reasons, nextRunAt) {
      return free('resume the digests of a person', () => {
        return db.transaction(() => {
          const resumed: Digest[] = [];
          for (const r of byOwner.all(teamId, ownerId) as DigestRow[]) {
            if (r.active === 1 || r.paused_reason === null || !reasons.includes(r.paused_reason)) continue;
            if (setActive.run(iso(nextRunAt(toDigest(r))), now().toISOString(), r.id).changes > 0) {
              resumed.push(get(r.id) as Digest);
            }
          }
          return resumed;
        })();
      });
    },
    async remove(id) {
      return free('remove a digest', () => {
        return del.run(id).changes > 0;
      });
    },
    async recordRun(id, run) {
      return free('record a digest run', () => {
        setRun.run(run.at.toISOString(), run.result, run.items, iso(run.nextRunAt), id);
      });
    },
    async recordRuns(runs) {
      return free('record digest runs', () => {
        db.transaction(() => {
          for (const [id, run] of runs) setRun.run(run.at.toISOString(), run.result, run.items, iso(run.nextRunAt), id);
        })();
      });
    },
    async openRun(run) {
      return free('write a digest intent', () => {
        insertRun.run(
          run.runKey,
          run.digestId,
          run.scheduledFor.toISOString(),
          run.reason,
          run.channelId,
          run.cursor.at,
          JSON.stringify(run.cursor.keys),
          run.items,
          run.createdAt.toISOString(),
        );
      });
    },
    async markPosted(runKey, messageTs) {
      return free('mark a digest posted', () => {
        posted.run(messageTs, runKey);
      });
    },
    async commitRun(runKey, run, midway) {
      return free('commit a digest run', () => {
        return db.transaction(() => {
          const r = runByKey.get(runKey) as RunRow | undefined;
          if (!r) return false;
          moveCursor.run(
            r.cursor_at,
            r.cursor_keys,
            r.message_ts,
            run.at.toISOString(),
            run.result,
            run.items,
            iso(run.nextRunAt),
            r.digest_id,
          );
          midway?.();
          delRun.run(runKey);
          return true;
        })();
      });
    },
    async dropRun(runKey) {
      return free('drop a digest intent', () => {
        delRun.run(runKey);
      });
    },
    async openRuns() {
      return (allRuns.all() as RunRow[]).map(toRun);
    },
    async openRunOf(digestId) {
      const r = runOf.get(digestId) as RunRow | undefined;
      return r ? toRun(r) : null;
    },
  };
}
