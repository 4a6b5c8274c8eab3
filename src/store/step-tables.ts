// The tables of Workflow Builder steps (store/step-store.ts), one migration step on each engine.
//
// - step_executions: one row per function execution Slack sent. Inserting it is what claims the execution (a
//   function_executed delivered again, to this replica or another, finds the row and does nothing). A step that
//   waits for its person's answer is a row in 'waiting' until an answer or the sweep (expires_at) moves it on with
//   one conditional UPDATE; the workflow token to complete it with is kept sealed, and blanked once it is done.
// - step_consents: the "Always" answers, per person and scope (this step on this project, or a workflow).

export const STEP_TABLES_SQLITE = `CREATE TABLE step_executions (
     execution_id          TEXT PRIMARY KEY,
     team_id               TEXT NOT NULL,
     user_id               TEXT NOT NULL,
     step                  TEXT NOT NULL,
     project               TEXT NOT NULL,
     inputs                TEXT NOT NULL,
     workflow_execution_id TEXT,
     scope                 TEXT NOT NULL,
     sealed_token          TEXT NOT NULL,
     state                 TEXT NOT NULL CHECK (state IN ('new', 'waiting', 'running', 'done')),
     outcome               TEXT,
     dm_channel            TEXT,
     dm_ts                 TEXT,
     created_at            TEXT NOT NULL,
     expires_at            TEXT NOT NULL
   ) STRICT;
   CREATE INDEX step_executions_due ON step_executions (state, expires_at);
   CREATE TABLE step_consents (
     team_id    TEXT NOT NULL,
     user_id    TEXT NOT NULL,
     scope      TEXT NOT NULL,
     label      TEXT NOT NULL,
     granted_at TEXT NOT NULL,
     PRIMARY KEY (team_id, user_id, scope)
   ) STRICT;`;

export const STEP_TABLES_POSTGRES = `CREATE TABLE step_executions (
     execution_id          TEXT PRIMARY KEY,
     team_id               TEXT NOT NULL,
     user_id               TEXT NOT NULL,
     step                  TEXT NOT NULL,
     project               TEXT NOT NULL,
     inputs                TEXT NOT NULL,
     workflow_execution_id TEXT,
     scope                 TEXT NOT NULL,
     sealed_token          TEXT NOT NULL,
     state                 TEXT NOT NULL CHECK (state IN ('new', 'waiting', 'running', 'done')),
     outcome               TEXT,
     dm_channel            TEXT,
     dm_ts                 TEXT,
     created_at            TEXT NOT NULL,
     expires_at            TEXT NOT NULL
   );
   CREATE INDEX step_executions_due ON step_executions (state, expires_at);
   CREATE TABLE step_consents (
     team_id    TEXT NOT NULL,
     user_id    TEXT NOT NULL,
     scope      TEXT NOT NULL,
     label      TEXT NOT NULL,
     granted_at TEXT NOT NULL,
     PRIMARY KEY (team_id, user_id, scope)
   );`;
