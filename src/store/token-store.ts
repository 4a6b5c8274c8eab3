import { forgetSecret, registerSecret } from '../redact.js';
import type { BusyPolicy } from './database.js';
import type { SqlRunner, SqlValue } from './engine.js';
import { engineOf, type StoreSource } from './engine-of.js';
import type { Sealer } from './sealer.js';

/** As stored: 'valid' or 'revoked'; 'unreadable' is found on reading (the sealed token does not open). */
export type ConnectionStatus = 'valid' | 'revoked' | 'unreadable';

/** What is known about a person's connection without opening the sealed token. */
export interface Connection {
  teamId: string;
  userId: string;
  serverUrl: string;
  createdAt: Date;
  verifiedAt: Date;
  status: ConnectionStatus;
  /** The server account the token belongs to (null for connections made before the bot asked). */
  username: string | null;
}

/** A connection and its sealed token, read together; `open` decrypts it. */
export interface StoredToken {
  connection: Connection;
  open(): Promise<string>;
}

/** What `loadMany` read: a person's stored token (null: none), or undefined when it must be read again. */
export interface LoadedTokens {
  get(userId: string): StoredToken | null | undefined;
}

// One implementation over the store port (SQLite or PostgreSQL, ARCHITECTURE §9).
export interface TokenStore {
  save(input: {
    teamId: string;
    userId: string;
    token: string;
    serverUrl: string;
    verifiedAt: Date;
    username: string | null;
  }): Promise<void>;
  find(teamId: string, userId: string): Promise<Connection | null>;
  /** The connection and its sealed token with one read; the token is opened only on `open()`. */
  load(teamId: string, userId: string): Promise<StoredToken | null>;
  /**
   * Several people's connections and sealed tokens of one team with one read (a poll's batch), each as `load`
   * gives it. The answer is for use soon after: `get` stops answering (undefined: load that person yourself) for
   * everyone once this store has saved, revoked, restored or removed any token since the read.
   */
  loadMany(teamId: string, userIds: readonly string[]): Promise<LoadedTokens>;
  /** The connections of people whose server username is this one (for `@name` and mentions). */
  findByUsername(teamId: string, username: string): Promise<Connection[]>;
  /** Opens the sealed token; only call this right before a request needs it. */
  openToken(teamId: string, userId: string): Promise<string | null>;
  /** Marks the token refused by the server; true when this changed the status (so people are told once). */
  markRevoked(teamId: string, userId: string): Promise<boolean>;
  /** Marks a token marked revoked valid again (the server accepted it after all); true when this changed it. */
  /** `checkedAt` is when the server accepted it again: whoami's "token last checked" moves with it. */
  restore(teamId: string, userId: string, checkedAt: Date): Promise<boolean>;
  remove(teamId: string, userId: string): Promise<boolean>;
  /**
   * Re-seals every value sealed under the previous key; returns how many rows changed. A value that does not
   * open is left as it is (its person is asked to connect again when they next use the bot).
   */
  resealStale(): Promise<number>;
  /** How many stored tokens each key sealed, by key id. */
  countByKey(): Promise<Map<string, number>>;
  /**
   * Puts every token stored for the team on the redaction list, also those this replica never opened: before the
   * bot shows text others wrote (a job's trace), where anyone's token may have been printed.
   */
  registerAll(teamId: string): Promise<void>;
}

interface Row {
  team_id: string;
  user_id: string;
  sealed_token: string;
  key_id: string;
  server_url: string;
  created_at: string;
  verified_at: string;
  status: 'valid' | 'revoked';
  username: string | null;
}

const rowKey = (teamId: string, userId: string) => `user-token:${teamId}:${userId}`;

export function createTokenStore(
  source: StoreSource,
  sealer: Sealer,
  now: () => Date = () => new Date(),
  busy: BusyPolicy = {},
): TokenStore {
  const db = engineOf(source, busy);
  const SELECT = 'SELECT * FROM user_tokens WHERE team_id = $1 AND user_id = $2';
  const select = (teamId: string, userId: string) => db.get<Row>(SELECT, [teamId, userId]);
  const RESEAL =
    'UPDATE user_tokens SET sealed_token = $1, key_id = $2 WHERE team_id = $3 AND user_id = $4 AND key_id = $5';

  // Several people at once: one statement whatever their number (the ids travel as one JSON list).
  const SELECT_MANY =
    db.kind === 'postgres'
      ? 'SELECT * FROM user_tokens WHERE team_id = $1 AND user_id IN (SELECT jsonb_array_elements_text($2::jsonb))'
      : 'SELECT * FROM user_tokens WHERE team_id = $1 AND user_id IN (SELECT value FROM json_each($2))';
  // Counts this store's writes to tokens: rows read together before a write are not used after it.
  let writes = 0;
  const writeRow = (sql: string, params: readonly SqlValue[]) =>
    db.run(sql, params).finally(() => {
      writes += 1;
    });

  const toConnection = (r: Row): Connection => ({
    teamId: r.team_id,
    userId: r.user_id,
    serverUrl: r.server_url,
    createdAt: new Date(r.created_at),
    verifiedAt: new Date(r.verified_at),
    status: r.status,
    username: r.username,
  });

  // Opened tokens by their row and sealed value (a seal opens only under its own row's key: a value copied into
  // another person's row must not open there from this map): every command needs its person's token, and AES-GCM per command adds
  // nothing (a new seal is a new key here). Bounded, but above the people polled each minute (alerts open every
  // subscriber's token once a minute: a bound below that would open each of them every time); the plaintext is
  // already known to the redaction list.
  const openedTokens = new Map<string, string>();
  const OPENED_MAX = 20_000;
  const openedKey = (r: Pick<Row, 'team_id' | 'user_id' | 'sealed_token'>) =>
    `${rowKey(r.team_id, r.user_id)}\u0000${r.sealed_token}`;

  const openRow = async (r: Row): Promise<string> => {
    const known = openedTokens.get(openedKey(r));
    if (known !== undefined) {
      registerSecret(known);
      return known;
    }
    const opened = sealer.open(r.sealed_token, rowKey(r.team_id, r.user_id));
    registerSecret(opened.plaintext);
    if (!opened.stale) remember(openedKey(r), opened.plaintext);
    // Sealed under the previous key: sealed again now, or on a later read if the database is busy.
    if (opened.stale) await resealRow(db, r, opened.plaintext).catch(() => 0);
    return opened.plaintext;
  };

  const storedOf = (r: Row): StoredToken => ({ connection: toConnection(r), open: () => openRow(r) });

  function remember(key: string, plaintext: string): void {
    openedTokens.set(key, plaintext);
    if (openedTokens.size > OPENED_MAX) openedTokens.delete(openedTokens.keys().next().value as string);
  }

  const resealRow = (runner: SqlRunner, r: Row, plaintext: string) => {
    const sealed = sealer.seal(plaintext, rowKey(r.team_id, r.user_id));
    return runner.run(RESEAL, [sealed.value, sealed.keyId, r.team_id, r.user_id, r.key_id]);
  };

  return {
    async save({ teamId, userId, token, serverUrl, verifiedAt, username }) {
      registerSecret(token);
      const sealed = sealer.seal(token, rowKey(teamId, userId));
      await writeRow(
        `INSERT INTO user_tokens (team_id, user_id, sealed_token, key_id, server_url, created_at, verified_at, status, username)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'valid', $8)
         ON CONFLICT (team_id, user_id) DO UPDATE SET
           sealed_token = excluded.sealed_token, key_id = excluded.key_id, server_url = excluded.server_url,
           created_at = excluded.created_at, verified_at = excluded.verified_at, status = 'valid',
           username = excluded.username`,
        [
          teamId,
          userId,
          sealed.value,
          sealed.keyId,
          serverUrl,
          now().toISOString(),
          verifiedAt.toISOString(),
          username,
        ],
      );
    },
    async find(teamId, userId) {
      const r = await select(teamId, userId);
      return r ? toConnection(r) : null;
    },
    async load(teamId, userId) {
      const r = await select(teamId, userId);
      return r ? storedOf(r) : null;
    },
    async loadMany(teamId, userIds) {
      const readAfter = writes;
      const rows = userIds.length === 0 ? [] : await db.all<Row>(SELECT_MANY, [teamId, JSON.stringify(userIds)]);
      const found = new Map<string, Row>();
      for (const r of rows) found.set(r.user_id, r);
      const asked = new Set(userIds);
      return {
        get(userId) {
          if (writes !== readAfter || !asked.has(userId)) return undefined;
          const r = found.get(userId);
          return r ? storedOf(r) : null;
        },
      };
    },
    async findByUsername(teamId, username) {
      const rows = await db.all<Row>('SELECT * FROM user_tokens WHERE team_id = $1 AND lower(username) = lower($2)', [
        teamId,
        username,
      ]);
      return rows.map(toConnection);
    },
    async openToken(teamId, userId) {
      const r = await select(teamId, userId);
      return r ? openRow(r) : null;
    },
    async markRevoked(teamId, userId) {
      const r = await select(teamId, userId);
      if (r) openedTokens.delete(openedKey(r));
      const changed = await writeRow(
        `UPDATE user_tokens SET status = 'revoked' WHERE team_id = $1 AND user_id = $2 AND status = 'valid'`,
        [teamId, userId],
      );
      return changed > 0;
    },
    async restore(teamId, userId, checkedAt) {
      const changed = await writeRow(
        `UPDATE user_tokens SET status = 'valid', verified_at = $3 WHERE team_id = $1 AND user_id = $2 AND status = 'revoked'`,
        [teamId, userId, checkedAt.toISOString()],
      );
      return changed > 0;
    },
    async remove(teamId, userId) {
      const r = await select(teamId, userId);
      if (!r) return false;
      // The token leaves the redaction list and the opened tokens with the row; a broken seal leaves nothing.
      openedTokens.delete(openedKey(r));
      try {
        forgetSecret(sealer.open(r.sealed_token, rowKey(teamId, userId)).plaintext);
      } catch {
        /* nothing readable to forget */
      }
      return (await writeRow('DELETE FROM user_tokens WHERE team_id = $1 AND user_id = $2', [teamId, userId])) > 0;
    },
    async resealStale() {
      const previous = sealer.previousKeyId;
      if (!previous || previous === sealer.keyId) return 0;
      // Once, whichever replicas start together: the others wait, then find nothing left under the previous key.
      return db.lock('re-seal tokens', async (tx) => {
        let changed = 0;
        for (const r of await tx.all<Row>('SELECT * FROM user_tokens WHERE key_id = $1', [previous])) {
          let plaintext: string;
          try {
            plaintext = sealer.open(r.sealed_token, rowKey(r.team_id, r.user_id)).plaintext;
          } catch {
            continue; // damaged: found again, and told, when its person next uses the bot
          }
          changed += await resealRow(tx, r, plaintext);
        }
        return changed;
      });
    },
    async countByKey() {
      const rows = await db.all<{ key_id: string; n: number }>(
        'SELECT key_id, count(*) AS n FROM user_tokens GROUP BY key_id',
      );
      return new Map(rows.map((r) => [r.key_id, r.n]));
    },
    async registerAll(teamId) {
      const rows = await db.all<Pick<Row, 'team_id' | 'user_id' | 'sealed_token'>>(
        'SELECT team_id, user_id, sealed_token FROM user_tokens WHERE team_id = $1',
        [teamId],
      );
      for (const r of rows) {
        const known = openedTokens.get(openedKey(r));
        if (known !== undefined) {
          registerSecret(known);
          continue;
        }
        try {
          const opened = sealer.open(r.sealed_token, rowKey(r.team_id, r.user_id)).plaintext;
          registerSecret(opened);
          remember(openedKey(r), opened);
        } catch {
          // A seal that does not open holds nothing this bot could have shown.
        }
      }
    },
  };
}
