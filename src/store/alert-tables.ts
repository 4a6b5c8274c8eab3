// The tables of todo alerts (`/gl notify`), in each engine's words:
// - alert_settings: one row per person: on/off, which todo actions, quiet hours (minutes of the day in their zone),
//   the high-water mark of todos already seen, why alerts are paused, the next poll and the lease of the replica
//   polling them (a poll is one person's, taken with one conditional update), the last delivery;
// - alert_held: todos found during quiet hours, kept (as read) until the quiet ends and they go as one message;
// - alert_deliveries: the intent of a DM being posted (the mark it moves to, the held todos it carries), so that a
//   delivery cut off by a kill is settled (its post found → committed; not → done again), never sent twice.
// Times compared with `now` are ISO-8601 text like every other time in the store.

const COLUMNS = (int: string) => `
    person_key       TEXT PRIMARY KEY,
    team_id          TEXT NOT NULL,
    user_id          TEXT NOT NULL,
    active           INTEGER NOT NULL CHECK (active IN (0, 1)),
    actions          TEXT NOT NULL,
    quiet_from       INTEGER,
    quiet_to         INTEGER,
    tz               TEXT NOT NULL,
    seen_todo_id     ${int} NOT NULL,
    paused_reason    TEXT,
    dm_channel       TEXT,
    next_poll_at     TEXT NOT NULL,
    last_poll_at     TEXT,
    last_result      TEXT,
    last_delivery_at TEXT,
    last_delivery_items INTEGER,
    last_delivery_ts TEXT,
    lease_owner      TEXT,
    lease_until      TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL`;

const HELD = (int: string) => `
    person_key TEXT NOT NULL REFERENCES alert_settings (person_key) ON DELETE CASCADE,
    todo_id    ${int} NOT NULL,
    todo       TEXT NOT NULL,
    held_at    TEXT NOT NULL,
    PRIMARY KEY (person_key, todo_id)`;

const DELIVERIES = (int: string) => `
    run_key      TEXT PRIMARY KEY,
    person_key   TEXT NOT NULL REFERENCES alert_settings (person_key) ON DELETE CASCADE,
    channel_id   TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('pending', 'posted')),
    message_ts   TEXT,
    seen_todo_id ${int} NOT NULL,
    todo_ids     TEXT NOT NULL,
    items        INTEGER NOT NULL,
    created_at   TEXT NOT NULL`;

export const ALERT_TABLES_SQLITE = `
  CREATE TABLE alert_settings (${COLUMNS('INTEGER')}
  ) STRICT;
  CREATE INDEX alert_settings_due ON alert_settings (active, next_poll_at);
  CREATE TABLE alert_held (${HELD('INTEGER')}
  ) STRICT;
  CREATE TABLE alert_deliveries (${DELIVERIES('INTEGER')}
  ) STRICT;
  CREATE INDEX alert_deliveries_person ON alert_deliveries (person_key);`;

export const ALERT_TABLES_POSTGRES = `
  CREATE TABLE alert_settings (${COLUMNS('BIGINT')}
  );
  CREATE INDEX alert_settings_due ON alert_settings (active, next_poll_at);
  CREATE TABLE alert_held (${HELD('BIGINT')}
  );
  CREATE TABLE alert_deliveries (${DELIVERIES('BIGINT')}
  );
  CREATE INDEX alert_deliveries_person ON alert_deliveries (person_key);`;
