// The tables through which replicas decide scheduled work once (ARCHITECTURE §9), in each engine's words:
// - cron_fires: the key of every node-cron fire a replica took (the first insert wins; kept a day, then pruned);
// - digests.lease_owner / lease_until: which replica runs a digest (and settles its intent) until when;
// - channel_lanes: the next time a message may be posted into a channel (Slack's one per second per channel);
// - token_budgets: what the server said of a token's rate limit, and what replicas have spent of it since.
// Times of rows compared with `now` are ISO-8601 text like every other time in the store; pacing times are
// epoch milliseconds, as the pacing clock counts them.

export const SCHEDULE_TABLES_SQLITE = `
  CREATE TABLE cron_fires (
    fire_key TEXT PRIMARY KEY,
    fired_by TEXT NOT NULL,
    fired_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX cron_fires_at ON cron_fires (fired_at);
  ALTER TABLE digests ADD COLUMN lease_owner TEXT;
  ALTER TABLE digests ADD COLUMN lease_until TEXT;
  CREATE INDEX digests_due ON digests (active, next_run_at);
  CREATE TABLE channel_lanes (
    channel_id   TEXT PRIMARY KEY,
    next_post_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE token_budgets (
    budget_key    TEXT PRIMARY KEY,
    remaining     INTEGER,
    rate_limit    INTEGER,
    reset_at      INTEGER,
    blocked_until INTEGER NOT NULL,
    touched_at    INTEGER NOT NULL
  ) STRICT;`;

export const SCHEDULE_TABLES_POSTGRES = `
  CREATE TABLE cron_fires (
    fire_key TEXT PRIMARY KEY,
    fired_by TEXT NOT NULL,
    fired_at TEXT NOT NULL
  );
  CREATE INDEX cron_fires_at ON cron_fires (fired_at);
  ALTER TABLE digests ADD COLUMN lease_owner TEXT;
  ALTER TABLE digests ADD COLUMN lease_until TEXT;
  CREATE INDEX digests_due ON digests (active, next_run_at);
  CREATE TABLE channel_lanes (
    channel_id   TEXT PRIMARY KEY,
    next_post_at BIGINT NOT NULL
  );
  CREATE TABLE token_budgets (
    budget_key    TEXT PRIMARY KEY,
    remaining     BIGINT,
    rate_limit    BIGINT,
    reset_at      BIGINT,
    blocked_until BIGINT NOT NULL,
    touched_at    BIGINT NOT NULL
  );`;
