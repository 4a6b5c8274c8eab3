import { registerSecret } from '../redact.js';
import type { BusyPolicy } from './database.js';
import { engineOf, type StoreSource } from './engine-of.js';
import type { Sealer } from './sealer.js';

// Workflow Builder step executions and the "Always" consents of people (tables in step-tables.ts). What must happen
// once is decided here, whichever replica asks: storing an execution claims it (a second delivery of the same
// function_executed stores nothing), and every later move of an execution is one conditional UPDATE whose
// RETURNING row goes to exactly one caller (an answer, a double click of it, the sweep). An execution that is
// 'running' belongs to the caller that moved it there, which finishes it. The workflow token Slack sent with the
// execution completes it later (after a consent click, possibly on another replica or after a restart): it is kept
// sealed like people's tokens, opened only to complete, and blanked once the execution is done.

export type StepState = 'new' | 'waiting' | 'running' | 'done';

/** What was decided about an execution: the person's answer, or that nobody answered in time. */
export type StepDecision = 'once' | 'always' | 'deny' | 'expired' | 'allowed';

export interface NewStepExecution {
  executionId: string;
  teamId: string;
  /** The person the step is to act as (its user_id input). */
  userId: string;
  step: string;
  project: string;
  inputs: Readonly<Record<string, string>>;
  workflowExecutionId: string | null;
  /** What an "Always" for this execution covers (see steps/scope.ts). */
  scope: string;
  /** The workflow token of the execution (function_executed's bot_access_token). */
  token: string;
  expiresAt: Date;
}

export interface StepExecution extends Omit<NewStepExecution, 'token'> {
  state: StepState;
  outcome: string | null;
  dm: { channel: string; ts: string } | null;
  createdAt: Date;
  /** The workflow token, opened; null once the execution is done (or when it does not open). */
  openToken(): string | null;
}

export interface StepConsent {
  scope: string;
  /** What the consent covers, in words ("Run a pipeline on demo/web at main"). */
  label: string;
  grantedAt: Date;
  /** The runs made under it without asking (kept a day), newest first: when, and what came of it. */
  runs: { at: Date; outcome: string | null }[];
}

export interface StepStore {
  /** Stores a new execution; false when it was stored already (Slack delivered it again). */
  receive(e: NewStepExecution): Promise<boolean>;
  get(executionId: string): Promise<StepExecution | null>;
  /** new → waiting: the person was asked, in this DM. */
  asked(executionId: string, dm: { channel: string; ts: string }): Promise<boolean>;
  /**
   * new → running, when the person's consent covers it already; the row when this call moved it. The same update
   * makes the DM that tells the person due (see claimConsentNotice). A running execution holds a lease of
   * `leaseMs` (its expiry moves to then): past it, its replica is taken for dead (takeAbandoned).
   */
  startAllowed(executionId: string, leaseMs: number): Promise<StepExecution | null>;
  /** Takes the DM due for an execution that ran under a consent: true for exactly one caller, once. */
  claimConsentNotice(executionId: string): Promise<boolean>;
  /**
   * waiting → running with the person's answer, only by that person and before it expired; the row when this call
   * decided it, null when it was decided already (a double click, another replica) or is no longer waiting.
   */
  decide(
    executionId: string,
    userId: string,
    decision: 'once' | 'always' | 'deny',
    leaseMs: number,
  ): Promise<StepExecution | null>;
  /** Executions still new or waiting at their expiry, each moved to running (with a lease) for exactly one caller. */
  takeExpired(leaseMs: number): Promise<StepExecution[]>;
  /**
   * Executions left running past their lease (their replica died while they ran), each handed to exactly one
   * caller with a new lease, so another replica takes it again only if this caller also dies before finishing it.
   */
  takeAbandoned(leaseMs: number): Promise<StepExecution[]>;
  /** The person's executions that ran under an "Always" (newest first, at most `limit`), kept a day. */
  runsUnderConsent(teamId: string, userId: string, limit: number): Promise<StepExecution[]>;
  /** running → done with what came of it; the token is forgotten. */
  finish(executionId: string, outcome: string): Promise<void>;
  /** Forgets executions done (or left) for more than a day; how many. */
  prune(): Promise<number>;

  /** Whether the person said "Always" to this scope. */
  allows(teamId: string, userId: string, scope: string): Promise<boolean>;
  /** Records an "Always"; true when it was not there before. */
  allow(options: { teamId: string; userId: string; scope: string; label: string }): Promise<boolean>;
  /** Takes an "Always" back; true when it was there. */
  revoke(teamId: string, userId: string, scope: string): Promise<boolean>;
  /** The person's "Always" consents, oldest first, each with the runs made under it lately. */
  consents(teamId: string, userId: string): Promise<StepConsent[]>;
}

interface Row {
  execution_id: string;
  team_id: string;
  user_id: string;
  step: string;
  project: string;
  inputs: string;
  workflow_execution_id: string | null;
  scope: string;
  sealed_token: string;
  state: StepState;
  outcome: string | null;
  dm_channel: string | null;
  dm_ts: string | null;
  created_at: string;
  expires_at: string;
}

const tokenBinding = (executionId: string) => `step-token:${executionId}`;

/** How long finished executions are kept (a redelivery after that would find nothing: Slack retries within minutes). */
const KEEP_MS = 24 * 60 * 60 * 1000;

export function createStepStore(
  source: StoreSource,
  sealer: Sealer,
  now: () => Date = () => new Date(),
  busy: BusyPolicy = {},
): StepStore {
  const db = engineOf(source, busy);

  const fromRow = (r: Row): StepExecution => {
    let inputs: Record<string, string> = {};
    try {
      inputs = JSON.parse(r.inputs) as Record<string, string>;
    } catch {
      inputs = {};
    }
    return {
      executionId: r.execution_id,
      teamId: r.team_id,
      userId: r.user_id,
      step: r.step,
      project: r.project,
      inputs,
      workflowExecutionId: r.workflow_execution_id,
      scope: r.scope,
      state: r.state,
      outcome: r.outcome,
      dm: r.dm_channel && r.dm_ts ? { channel: r.dm_channel, ts: r.dm_ts } : null,
      createdAt: new Date(r.created_at),
      expiresAt: new Date(r.expires_at),
      openToken() {
        if (!r.sealed_token) return null;
        try {
          const token = sealer.open(r.sealed_token, tokenBinding(r.execution_id)).plaintext;
          registerSecret(token);
          return token;
        } catch {
          return null;
        }
      },
    };
  };

  const leaseEnd = (leaseMs: number) => new Date(now().getTime() + leaseMs).toISOString();

  const one = async (sql: string, params: (string | null)[]) => {
    const row = await db.get<Row>(sql, params);
    return row ? fromRow(row) : null;
  };

  return {
    async receive(e) {
      registerSecret(e.token);
      const sealed = sealer.seal(e.token, tokenBinding(e.executionId)).value;
      const inserted = await db.run(
        `INSERT INTO step_executions (execution_id, team_id, user_id, step, project, inputs, workflow_execution_id,
           scope, sealed_token, state, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'new', $10, $11)
         ON CONFLICT (execution_id) DO NOTHING`,
        [
          e.executionId,
          e.teamId,
          e.userId,
          e.step,
          e.project,
          JSON.stringify(e.inputs),
          e.workflowExecutionId,
          e.scope,
          sealed,
          now().toISOString(),
          e.expiresAt.toISOString(),
        ],
      );
      return inserted > 0;
    },
    get: (executionId) => one('SELECT * FROM step_executions WHERE execution_id = $1', [executionId]),
    async asked(executionId, dm) {
      const changed = await db.run(
        `UPDATE step_executions SET state = 'waiting', dm_channel = $2, dm_ts = $3
         WHERE execution_id = $1 AND state = 'new'`,
        [executionId, dm.channel, dm.ts],
      );
      return changed > 0;
    },
    startAllowed: (executionId, leaseMs) =>
      one(
        `UPDATE step_executions SET state = 'running', outcome = 'allowed', consent_notice = 'due', expires_at = $2
         WHERE execution_id = $1 AND state = 'new' RETURNING *`,
        [executionId, leaseEnd(leaseMs)],
      ),
    async claimConsentNotice(executionId) {
      const changed = await db.run(
        `UPDATE step_executions SET consent_notice = 'sent' WHERE execution_id = $1 AND consent_notice = 'due'`,
        [executionId],
      );
      return changed > 0;
    },
    decide: (executionId, userId, decision, leaseMs) =>
      one(
        `UPDATE step_executions SET state = 'running', outcome = $3, expires_at = $5
         WHERE execution_id = $1 AND user_id = $2 AND state = 'waiting' AND expires_at > $4 RETURNING *`,
        [executionId, userId, decision, now().toISOString(), leaseEnd(leaseMs)],
      ),
    async takeExpired(leaseMs) {
      const rows = await db.all<Row>(
        // Its expiry moves to the lease's end: a sweep that finds it running only takes it over if this one dies.
        `UPDATE step_executions SET state = 'running', outcome = 'expired', expires_at = $2
         WHERE state IN ('new', 'waiting') AND expires_at <= $1 RETURNING *`,
        [now().toISOString(), leaseEnd(leaseMs)],
      );
      return rows.map(fromRow);
    },
    async takeAbandoned(leaseMs) {
      const rows = await db.all<Row>(
        `UPDATE step_executions SET expires_at = $2
         WHERE state = 'running' AND expires_at <= $1 RETURNING *`,
        [now().toISOString(), leaseEnd(leaseMs)],
      );
      return rows.map(fromRow);
    },
    async runsUnderConsent(teamId, userId, limit) {
      const rows = await db.all<Row>(
        `SELECT * FROM step_executions WHERE team_id = $1 AND user_id = $2 AND consent_notice IS NOT NULL
         ORDER BY created_at DESC, execution_id LIMIT ${Math.max(1, Math.floor(limit))}`,
        [teamId, userId],
      );
      return rows.map(fromRow);
    },
    async finish(executionId, outcome) {
      await db.run(
        `UPDATE step_executions SET state = 'done', outcome = $2, sealed_token = '' WHERE execution_id = $1`,
        [executionId, outcome],
      );
    },
    prune: () =>
      db.run(`DELETE FROM step_executions WHERE expires_at <= $1 AND state IN ('done', 'running')`, [
        new Date(now().getTime() - KEEP_MS).toISOString(),
      ]),

    async allows(teamId, userId, scope) {
      const row = await db.get('SELECT 1 AS ok FROM step_consents WHERE team_id = $1 AND user_id = $2 AND scope = $3', [
        teamId,
        userId,
        scope,
      ]);
      return row !== undefined;
    },
    async allow({ teamId, userId, scope, label }) {
      const inserted = await db.run(
        `INSERT INTO step_consents (team_id, user_id, scope, label, granted_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (team_id, user_id, scope) DO NOTHING`,
        [teamId, userId, scope, label, now().toISOString()],
      );
      return inserted > 0;
    },
    async revoke(teamId, userId, scope) {
      const removed = await db.run('DELETE FROM step_consents WHERE team_id = $1 AND user_id = $2 AND scope = $3', [
        teamId,
        userId,
        scope,
      ]);
      return removed > 0;
    },
    async consents(teamId, userId) {
      const rows = await db.all<{ scope: string; label: string; granted_at: string }>(
        `SELECT scope, label, granted_at FROM step_consents WHERE team_id = $1 AND user_id = $2
         ORDER BY granted_at, scope`,
        [teamId, userId],
      );
      if (rows.length === 0) return [];
      const runs = await db.all<Pick<Row, 'scope' | 'created_at' | 'outcome'>>(
        `SELECT scope, created_at, outcome FROM step_executions
         WHERE team_id = $1 AND user_id = $2 AND consent_notice IS NOT NULL ORDER BY created_at DESC LIMIT 200`,
        [teamId, userId],
      );
      return rows.map((r) => ({
        scope: r.scope,
        label: r.label,
        grantedAt: new Date(r.granted_at),
        runs: runs
          .filter((run) => run.scope === r.scope)
          .map((run) => ({ at: new Date(run.created_at), outcome: run.outcome })),
      }));
    },
  };
}
