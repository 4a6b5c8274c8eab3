import { createLeaseStore, type HeldLease, lease } from './delivery-lease-store.js';
import type { SqlEngine, SqlRunner } from './engine.js';

// Todo alerts of each person (`/gl notify`), and what a poll of them decides once: which replica polls a person
// (a lease taken with one conditional update, for a batch of people at once), the todos held for quiet hours, and
// the intent of a DM being posted. Written only against the SqlEngine port: the same SQL on both engines.

import { ALERT_ACTIONS, type AlertAction } from '../alert-actions.js';

/** Quiet hours as minutes of the day in the person's zone; `from` after `to` spans midnight. */
export interface QuietHours {
  from: number;
  to: number;
}

export interface AlertSetting {
  teamId: string;
  userId: string;
  active: boolean;
  actions: AlertAction[];
  quiet: QuietHours | null;
  tz: string;
  /** The newest todo id already seen: only todos above it are new. */
  seenTodoId: number;
  /** Why polling stopped by itself (`token`: the server refused the person's token); null when it did not. */
  pausedReason: string | null;
  dmChannel: string | null;
  nextPollAt: Date;
  lastPollAt: Date | null;
  lastResult: string | null;
  lastDeliveryAt: Date | null;
  lastDeliveryItems: number | null;
  lastDeliveryTs: string | null;
}

/** What a poll reads of a person's row (a claim returns only this: it is all a poll with nothing new uses). */
export type PolledSetting = Pick<
  AlertSetting,
  'teamId' | 'userId' | 'actions' | 'quiet' | 'tz' | 'seenTodoId' | 'dmChannel' | 'nextPollAt' | 'lastDeliveryTs'
>;

/** A person's row as a poll claimed it, with what the poll must know before reading. */
export interface ClaimedAlert {
  setting: PolledSetting;
  /** How many todos wait for the quiet hours to end. */
  held: number;
  /** Whether a delivery's intent is open (it is settled first). */
  openDelivery: boolean;
  /** Which claim of the person's poll this is (what a post fences with, store/lease-fence.ts). */
  leaseGen: number;
  /** Polls in a row before this one that found the server busy (the delivery kernel's back-off). */
  busyPolls: number;
}

export interface HeldTodo {
  todoId: number;
  /** The todo as it was read (JSON). */
  todo: string;
}

export interface AlertDelivery {
  runKey: string;
  teamId: string;
  userId: string;
  channelId: string;
  state: 'pending' | 'posted';
  messageTs: string | null;
  /** The mark the delivery moves to once committed. */
  seenTodoId: number;
  /** The held todos it carries (deleted with the commit). */
  todoIds: number[];
  items: number;
}

/** What a finished poll writes: the next poll, what happened; the lease is let go. */
export interface PollRecord {
  at: Date;
  nextPollAt: Date;
  result: string;
}

export interface AlertStore {
  get(teamId: string, userId: string): Promise<AlertSetting | null>;
  /**
   * Turns alerts on: a new or stopped person starts from `seenTodoId`; one already on keeps their mark (and their
   * held todos) and only changes actions and quiet hours. A pause for a refused token ends.
   */
  enable(
    input: { teamId: string; userId: string; actions: AlertAction[]; quiet: QuietHours | null; tz: string },
    seenTodoId: number,
    now: Date,
  ): Promise<{ setting: AlertSetting; wasOn: boolean }>;
  /** Turns alerts off (held todos are dropped); true when they were on. */
  disable(teamId: string, userId: string, now: Date): Promise<boolean>;
  /**
   * Takes up to `limit` people whose poll is due at `now` and whom nobody polls, oldest poll first, leased to
   * `owner` until `until`.
   */
  claimDue(owner: string, now: Date, until: Date, limit: number): Promise<ClaimedAlert[]>;
  /** Takes one person's lease (the demo's poll now, a person's own poll); null when another replica holds it. */
  claim(options: {
    teamId: string;
    userId: string;
    owner: string;
    now: Date;
    until: Date;
  }): Promise<ClaimedAlert | null>;
  renew(owner: string, until: Date): Promise<number>;
  /**
   * Right before a DM: renews the person's lease until `until` if `lease` still holds it at `now`; false when it
   * ran out or was taken over (the DM is not posted: the new holder finds the intent and delivers it).
   */
  fence(teamId: string, userId: string, lease: HeldLease, o: { now: Date; until: Date }): Promise<boolean>;
  /** Everyone with alerts on is due at `now` (the demo's tick polls at once). */
  makeDue(now: Date): Promise<void>;
  /** Writes finished polls and lets their leases go (one statement for many). */
  recordPolls(owner: string, polls: readonly (readonly [teamId: string, userId: string, PollRecord])[]): Promise<void>;
  releaseAll(owner: string): Promise<void>;
  /** Todos found during quiet hours are held and the mark moves past them, in one transaction. */
  hold(options: {
    teamId: string;
    userId: string;
    todos: readonly HeldTodo[];
    seenTodoId: number;
    now: Date;
  }): Promise<void>;
  held(teamId: string, userId: string): Promise<HeldTodo[]>;
  /** New todos none of which is alerted (other actions, done meanwhile): the mark moves past them. */
  advance(teamId: string, userId: string, seenTodoId: number): Promise<void>;
  setDmChannel(teamId: string, userId: string, channel: string): Promise<void>;
  openDelivery(d: Omit<AlertDelivery, 'state' | 'messageTs'>, now: Date): Promise<void>;
  openDeliveryOf(teamId: string, userId: string): Promise<AlertDelivery | null>;
  markPosted(runKey: string, ts: string): Promise<void>;
  /**
   * The delivery happened: the mark moves, its held todos go, the last delivery is noted and the intent deleted,
   * in one transaction. `during` runs inside it (the test seam for a kill while saving).
   */
  commitDelivery(runKey: string, at: Date, during?: () => void): Promise<void>;
  /** Nothing was posted: the intent goes, the mark stays (the next poll reads those todos again). */
  dropDelivery(runKey: string): Promise<void>;
  /** The server refused the person's token: polling stops until they connect again; true when it was polling. */
  pauseForToken(teamId: string, userId: string, now: Date): Promise<boolean>;
  /** They connected again: polling resumes at once; true when it was paused for that. */
  resumeAfterToken(teamId: string, userId: string, now: Date): Promise<boolean>;
  /** People whose alerts a refused token paused (their token is re-checked by the delivery kernel). */
  tokenPaused(): Promise<{ teamId: string; userId: string }[]>;
  /** How many people are polling, and how many of them are overdue at `overdueAt` (and since when). */
  backlog(overdueAt: Date): Promise<{ polling: number; overdue: number; oldest: Date | null }>;
}

interface SettingRow {
  person_key: string;
  team_id: string;
  user_id: string;
  active: number | string;
  actions: string;
  quiet_from: number | string | null;
  quiet_to: number | string | null;
  tz: string;
  seen_todo_id: number | string;
  paused_reason: string | null;
  dm_channel: string | null;
  next_poll_at: string;
  last_poll_at: string | null;
  last_result: string | null;
  last_delivery_at: string | null;
  last_delivery_items: number | string | null;
  last_delivery_ts: string | null;
}

interface ClaimRow
  extends Pick<
    SettingRow,
    | 'person_key'
    | 'team_id'
    | 'user_id'
    | 'actions'
    | 'quiet_from'
    | 'quiet_to'
    | 'tz'
    | 'seen_todo_id'
    | 'dm_channel'
    | 'next_poll_at'
    | 'last_delivery_ts'
  > {
  held_count: number | string;
  open_delivery: number | string;
  claim_gen: number | string;
  busy_before: number | string;
}

const keyOf = (teamId: string, userId: string) => `${teamId}:${userId}`;
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const date = (v: string | null) => (v === null ? null : new Date(v));

const actionsOf = (text: string): AlertAction[] =>
  text.split(',').filter((a): a is AlertAction => (ALERT_ACTIONS as readonly string[]).includes(a));
const quietOf = (r: Pick<SettingRow, 'quiet_from' | 'quiet_to'>): QuietHours | null =>
  r.quiet_from === null || r.quiet_to === null ? null : { from: Number(r.quiet_from), to: Number(r.quiet_to) };

function toSetting(r: SettingRow): AlertSetting {
  return {
    teamId: r.team_id,
    userId: r.user_id,
    active: Number(r.active) === 1,
    actions: actionsOf(r.actions),
    quiet: quietOf(r),
    tz: r.tz,
    seenTodoId: Number(r.seen_todo_id),
    pausedReason: r.paused_reason,
    dmChannel: r.dm_channel,
    nextPollAt: new Date(r.next_poll_at),
    lastPollAt: date(r.last_poll_at),
    lastResult: r.last_result,
    lastDeliveryAt: date(r.last_delivery_at),
    lastDeliveryItems: r.last_delivery_items === null ? null : Number(r.last_delivery_items),
    lastDeliveryTs: r.last_delivery_ts,
  };
}

const toClaimed = (r: ClaimRow): ClaimedAlert => ({
  setting: {
    teamId: r.team_id,
    userId: r.user_id,
    actions: actionsOf(r.actions),
    quiet: quietOf(r),
    tz: r.tz,
    seenTodoId: Number(r.seen_todo_id),
    dmChannel: r.dm_channel,
    nextPollAt: new Date(r.next_poll_at),
    lastDeliveryTs: r.last_delivery_ts,
  },
  held: Number(r.held_count),
  openDelivery: Number(r.open_delivery) === 1,
  leaseGen: Number(r.claim_gen),
  busyPolls: Number(r.busy_before),
});

/** What a claim returns: the row as a poll reads it, the held todos and whether an intent is open. */
const CLAIMED = `alert_settings.person_key, alert_settings.team_id, alert_settings.user_id, alert_settings.actions,
  alert_settings.quiet_from, alert_settings.quiet_to, alert_settings.tz, alert_settings.seen_todo_id,
  alert_settings.dm_channel, alert_settings.next_poll_at, alert_settings.last_delivery_ts, ${lease.gen('alert_settings.')} AS claim_gen,
  ${lease.busyPolls('alert_settings.')},
  (SELECT count(*) FROM alert_held h WHERE h.person_key = alert_settings.person_key) AS held_count,
  CASE WHEN EXISTS (SELECT 1 FROM alert_deliveries d WHERE d.person_key = alert_settings.person_key) THEN 1 ELSE 0 END
    AS open_delivery`;

const POLLING = 'active = 1 AND paused_reason IS NULL';

export function createAlertStore(engine: SqlEngine): AlertStore {
  const leases = createLeaseStore(engine, 'alert_settings');
  const greatest = engine.kind === 'postgres' ? 'GREATEST' : 'max';
  const ids = (list: readonly unknown[], from: number) => list.map((_, i) => `$${i + from}`).join(', ');
  // A batch's finished polls with one statement, whatever their number (they travel as one JSON list): an idle poll
  // writes its row once, not a statement of its own.
  const RECORD_POLLS = `UPDATE alert_settings SET next_poll_at = v.n, last_poll_at = v.a, last_result = v.r,
       ${lease.release}
     FROM ${
       engine.kind === 'postgres'
         ? 'jsonb_to_recordset($2::jsonb) AS v(k text, n text, a text, r text)'
         : "(SELECT value ->> 'k' AS k, value ->> 'n' AS n, value ->> 'a' AS a, value ->> 'r' AS r FROM json_each($2)) AS v"
     }
     WHERE alert_settings.person_key = v.k AND ${lease.heldBy('$1', 'alert_settings.')}`;
  const INSERT_SETTING = `INSERT INTO alert_settings (person_key, team_id, user_id, active,
       actions, quiet_from, quiet_to, tz, seen_todo_id, paused_reason, next_poll_at, created_at, updated_at)
     VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $9, NULL, $8, $8, $8)
     ON CONFLICT (person_key) DO UPDATE SET active = 1, actions = excluded.actions,
       quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, tz = excluded.tz,
       seen_todo_id = excluded.seen_todo_id, paused_reason = NULL, next_poll_at = excluded.next_poll_at,
       updated_at = excluded.updated_at`;

  async function commit(tx: SqlRunner, runKey: string, at: Date, during?: () => void): Promise<void> {
    const d = await tx.get<{
      person_key: string;
      seen_todo_id: number | string;
      todo_ids: string;
      items: number | string;
      message_ts: string | null;
    }>('SELECT person_key, seen_todo_id, todo_ids, items, message_ts FROM alert_deliveries WHERE run_key = $1', [
      runKey,
    ]);
    if (!d) return;
    await tx.run(
      `UPDATE alert_settings SET seen_todo_id = ${greatest}(seen_todo_id, $2), last_delivery_at = $3,
         last_delivery_items = $4, last_delivery_ts = $5, updated_at = $3
       WHERE person_key = $1`,
      [d.person_key, Number(d.seen_todo_id), at.toISOString(), Number(d.items), d.message_ts],
    );
    const held = JSON.parse(d.todo_ids) as number[];
    for (let i = 0; i < held.length; i += 500) {
      const part = held.slice(i, i + 500);
      await tx.run(`DELETE FROM alert_held WHERE person_key = $1 AND todo_id IN (${ids(part, 2)})`, [
        d.person_key,
        ...part,
      ]);
    }
    during?.();
    await tx.run('DELETE FROM alert_deliveries WHERE run_key = $1', [runKey]);
  }

  return {
    async get(teamId, userId) {
      const row = await engine.get<SettingRow>('SELECT * FROM alert_settings WHERE person_key = $1', [
        keyOf(teamId, userId),
      ]);
      return row ? toSetting(row) : null;
    },
    enable(input, seenTodoId, now) {
      const key = keyOf(input.teamId, input.userId);
      const at = now.toISOString();
      return engine.transaction(async (tx) => {
        const before = await tx.get<{ active: number | string }>(
          'SELECT active FROM alert_settings WHERE person_key = $1',
          [key],
        );
        const wasOn = before !== undefined && Number(before.active) === 1;
        const fields = [input.actions.join(','), input.quiet?.from ?? null, input.quiet?.to ?? null, input.tz, at];
        if (wasOn) {
          await tx.run(
            `UPDATE alert_settings SET actions = $2, quiet_from = $3, quiet_to = $4, tz = $5, updated_at = $6,
               paused_reason = NULL, next_poll_at = CASE WHEN paused_reason IS NULL THEN next_poll_at ELSE $6 END
             WHERE person_key = $1`,
            [key, ...fields],
          );
        } else {
          if (before) await tx.run('DELETE FROM alert_held WHERE person_key = $1', [key]);
          await tx.run(INSERT_SETTING, [key, input.teamId, input.userId, ...fields, seenTodoId]);
        }
        const row = (await tx.get<SettingRow>('SELECT * FROM alert_settings WHERE person_key = $1', [
          key,
        ])) as SettingRow;
        return { setting: toSetting(row), wasOn };
      });
    },
    async disable(teamId, userId, now) {
      const key = keyOf(teamId, userId);
      return engine.transaction(async (tx) => {
        const changed = await tx.run(
          'UPDATE alert_settings SET active = 0, paused_reason = NULL, updated_at = $2 WHERE person_key = $1 AND active = 1',
          [key, now.toISOString()],
        );
        await tx.run('DELETE FROM alert_held WHERE person_key = $1', [key]);
        return changed > 0;
      });
    },
    async claimDue(owner, now, until, limit) {
      const at = now.toISOString();
      // Most ticks find nobody due: a read answers them, so an idle tick never waits for the write lock (nor
      // queues a write in front of people's commands while another process holds it).
      const any = await engine.get(
        `SELECT 1 AS due FROM alert_settings
         WHERE ${POLLING} AND next_poll_at <= $1 AND ${lease.free('$1')} LIMIT 1`,
        [at],
      );
      if (!any) return [];
      const due = `SELECT person_key FROM alert_settings
           WHERE ${POLLING} AND next_poll_at <= $3 AND ${lease.free('$3')}
           ORDER BY next_poll_at, person_key LIMIT $4`;
      // PostgreSQL picks the rows once (a materialized CTE that skips rows other replicas are taking); SQLite has
      // one writer at a time, so the plain subquery is the same decision.
      const sql =
        engine.kind === 'postgres'
          ? `WITH picked AS MATERIALIZED (${due} FOR UPDATE SKIP LOCKED)
             UPDATE alert_settings SET ${lease.take('$1', '$2')} FROM picked
             WHERE alert_settings.person_key = picked.person_key
             RETURNING ${CLAIMED}`
          : // `+active` keeps SQLite from walking every active row to test it against the picked keys: each
            // picked row is looked up by its key instead.
            `UPDATE alert_settings SET ${lease.take('$1', '$2')}
             WHERE person_key IN (${due}) AND +active = 1 AND paused_reason IS NULL
               AND ${lease.free('$3')}
             RETURNING ${CLAIMED}`;
      const rows = await engine.all<ClaimRow>(sql, [owner, until.toISOString(), at, limit]);
      // RETURNING keeps no order: oldest poll first, as picked (in code-unit order, as SQLite's index has it, and
      // cheaper than a collation's compare).
      rows.sort((a, b) => byText(a.next_poll_at, b.next_poll_at) || byText(a.person_key, b.person_key));
      return rows.map(toClaimed);
    },
    async claim({ teamId, userId, owner, now, until }) {
      const row = await engine.get<ClaimRow>(
        `UPDATE alert_settings SET ${lease.take('$1', '$2')}
         WHERE person_key = $3 AND ${POLLING} AND ${lease.freeOrHeldBy('$1', '$4')}
         RETURNING ${CLAIMED}`,
        [owner, until.toISOString(), keyOf(teamId, userId), now.toISOString()],
      );
      return row ? toClaimed(row) : null;
    },
    renew: (owner, until) => leases.renew(owner, until),
    fence: (teamId, userId, held, o) => leases.fence(keyOf(teamId, userId), held, o),
    async makeDue(now) {
      await engine.run(`UPDATE alert_settings SET next_poll_at = $1 WHERE ${POLLING}`, [now.toISOString()]);
    },
    async recordPolls(owner, polls) {
      if (polls.length === 0) return;
      const rows = polls.map(([teamId, userId, p]) => ({
        k: keyOf(teamId, userId),
        n: p.nextPollAt.toISOString(),
        a: p.at.toISOString(),
        r: p.result,
      }));
      await engine.run(RECORD_POLLS, [owner, JSON.stringify(rows)]);
    },
    releaseAll: (owner) => leases.releaseAll(owner),
    async hold({ teamId, userId, todos, seenTodoId, now }) {
      const key = keyOf(teamId, userId);
      await engine.transaction(async (tx) => {
        for (const t of todos) {
          await tx.run(
            `INSERT INTO alert_held (person_key, todo_id, todo, held_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (person_key, todo_id) DO NOTHING`,
            [key, t.todoId, t.todo, now.toISOString()],
          );
        }
        await tx.run(`UPDATE alert_settings SET seen_todo_id = ${greatest}(seen_todo_id, $2) WHERE person_key = $1`, [
          key,
          seenTodoId,
        ]);
      });
    },
    async held(teamId, userId) {
      const rows = await engine.all<{ todo_id: number | string; todo: string }>(
        'SELECT todo_id, todo FROM alert_held WHERE person_key = $1 ORDER BY todo_id',
        [keyOf(teamId, userId)],
      );
      return rows.map((r) => ({ todoId: Number(r.todo_id), todo: r.todo }));
    },
    async advance(teamId, userId, seenTodoId) {
      await engine.run(`UPDATE alert_settings SET seen_todo_id = ${greatest}(seen_todo_id, $2) WHERE person_key = $1`, [
        keyOf(teamId, userId),
        seenTodoId,
      ]);
    },
    async setDmChannel(teamId, userId, channel) {
      await engine.run('UPDATE alert_settings SET dm_channel = $2 WHERE person_key = $1', [
        keyOf(teamId, userId),
        channel,
      ]);
    },
    async openDelivery(d, now) {
      await engine.run(
        `INSERT INTO alert_deliveries (run_key, person_key, channel_id, state, message_ts, seen_todo_id, todo_ids,
           items, created_at)
         VALUES ($1, $2, $3, 'pending', NULL, $4, $5, $6, $7)`,
        [
          d.runKey,
          keyOf(d.teamId, d.userId),
          d.channelId,
          d.seenTodoId,
          JSON.stringify(d.todoIds),
          d.items,
          now.toISOString(),
        ],
      );
    },
    async openDeliveryOf(teamId, userId) {
      const r = await engine.get<{
        run_key: string;
        channel_id: string;
        state: 'pending' | 'posted';
        message_ts: string | null;
        seen_todo_id: number | string;
        todo_ids: string;
        items: number | string;
      }>('SELECT * FROM alert_deliveries WHERE person_key = $1 ORDER BY created_at LIMIT 1', [keyOf(teamId, userId)]);
      if (!r) return null;
      return {
        runKey: r.run_key,
        teamId,
        userId,
        channelId: r.channel_id,
        state: r.state,
        messageTs: r.message_ts,
        seenTodoId: Number(r.seen_todo_id),
        todoIds: JSON.parse(r.todo_ids) as number[],
        items: Number(r.items),
      };
    },
    async markPosted(runKey, ts) {
      await engine.run("UPDATE alert_deliveries SET state = 'posted', message_ts = $2 WHERE run_key = $1", [
        runKey,
        ts,
      ]);
    },
    commitDelivery: (runKey, at, during) => engine.transaction((tx) => commit(tx, runKey, at, during)),
    async dropDelivery(runKey) {
      await engine.run('DELETE FROM alert_deliveries WHERE run_key = $1', [runKey]);
    },
    async pauseForToken(teamId, userId, now) {
      const changed = await engine.run(
        `UPDATE alert_settings SET paused_reason = 'token', updated_at = $2
         WHERE person_key = $1 AND active = 1 AND paused_reason IS NULL`,
        [keyOf(teamId, userId), now.toISOString()],
      );
      return changed > 0;
    },
    async tokenPaused() {
      const rows = await engine.all<{ team_id: string; user_id: string }>(
        `SELECT team_id, user_id FROM alert_settings WHERE active = 1 AND paused_reason = 'token' ORDER BY person_key`,
      );
      return rows.map((r) => ({ teamId: r.team_id, userId: r.user_id }));
    },
    async resumeAfterToken(teamId, userId, now) {
      const changed = await engine.run(
        `UPDATE alert_settings SET paused_reason = NULL, next_poll_at = $2, updated_at = $2
         WHERE person_key = $1 AND paused_reason = 'token'`,
        [keyOf(teamId, userId), now.toISOString()],
      );
      return changed > 0;
    },
    async backlog(overdueAt) {
      const row = await engine.get<{ polling: number | string; overdue: number | string; oldest: string | null }>(
        `SELECT count(*) AS polling,
           sum(CASE WHEN next_poll_at <= $1 THEN 1 ELSE 0 END) AS overdue,
           min(CASE WHEN next_poll_at <= $1 THEN next_poll_at END) AS oldest
         FROM alert_settings WHERE ${POLLING}`,
        [overdueAt.toISOString()],
      );
      return {
        polling: Number(row?.polling ?? 0),
        overdue: Number(row?.overdue ?? 0),
        oldest: row?.oldest ? new Date(row.oldest) : null,
      };
    },
  };
}
