import { type BusyPolicy, type Db, whenFree } from './database.js';

// Previews of a person's links into non-public projects show the channel what only they may see, so each one is
// asked for, unless the person said "Always in this channel" (or `unfurl private on` there). That consent is
// kept per person and channel, until `unfurl private off` in that channel takes it back.

export interface UnfurlStore {
  /** Whether the person lets previews of their non-public links show in this channel without asking. */
  allows(teamId: string, userId: string, channelId: string): Promise<boolean>;
  /** Gives that consent; true when it was not given before. */
  allow(teamId: string, userId: string, channelId: string): Promise<boolean>;
  /** Takes it back; true when it had been given. */
  revoke(teamId: string, userId: string, channelId: string): Promise<boolean>;
}

export function createUnfurlStore(db: Db, now: () => Date = () => new Date(), busy: BusyPolicy = {}): UnfurlStore {
  const free = <T>(what: string, run: () => T) => whenFree(what, run, busy);
  const select = db.prepare('SELECT 1 AS ok FROM unfurl_consents WHERE team_id = ? AND user_id = ? AND channel_id = ?');
  const insert = db.prepare(
    `INSERT INTO unfurl_consents (team_id, user_id, channel_id, granted_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (team_id, user_id, channel_id) DO NOTHING`,
  );
  const del = db.prepare('DELETE FROM unfurl_consents WHERE team_id = ? AND user_id = ? AND channel_id = ?');
  return {
    async allows(teamId, userId, channelId) {
      return (await free('read a preview consent', () => select.get(teamId, userId, channelId))) !== undefined;
    },
    async allow(teamId, userId, channelId) {
      const at = now().toISOString();
      return (await free('save a preview consent', () => insert.run(teamId, userId, channelId, at))).changes > 0;
    },
    async revoke(teamId, userId, channelId) {
      return (await free('remove a preview consent', () => del.run(teamId, userId, channelId))).changes > 0;
    },
  };
}
