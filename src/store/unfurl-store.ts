import type { BusyPolicy } from './database.js';
import { engineOf, type StoreSource } from './engine-of.js';

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

export function createUnfurlStore(
  source: StoreSource,
  now: () => Date = () => new Date(),
  busy: BusyPolicy = {},
): UnfurlStore {
  const db = engineOf(source, busy);
  const KEY = 'team_id = $1 AND user_id = $2 AND channel_id = $3';
  return {
    async allows(teamId, userId, channelId) {
      return (
        (await db.get(`SELECT 1 AS ok FROM unfurl_consents WHERE ${KEY}`, [teamId, userId, channelId])) !== undefined
      );
    },
    async allow(teamId, userId, channelId) {
      const inserted = await db.run(
        `INSERT INTO unfurl_consents (team_id, user_id, channel_id, granted_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (team_id, user_id, channel_id) DO NOTHING`,
        [teamId, userId, channelId, now().toISOString()],
      );
      return inserted > 0;
    },
    async revoke(teamId, userId, channelId) {
      return (await db.run(`DELETE FROM unfurl_consents WHERE ${KEY}`, [teamId, userId, channelId])) > 0;
    },
  };
}
