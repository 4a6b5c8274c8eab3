import type { BusyPolicy } from './database.js';
import { engineOf, type StoreSource } from './engine-of.js';

export interface ChannelDefault {
  teamId: string;
  channelId: string;
  /** A project path (`group/sub/app`) or a numeric id, as the person gave it and the server confirmed. */
  project: string;
  setBy: string;
  setAt: Date;
  /** The project is not public: the channel was told a default was set, never which, and is never told later. */
  hidden: boolean;
}

export interface ChannelStore {
  get(teamId: string, channelId: string): Promise<ChannelDefault | null>;
  set(input: { teamId: string; channelId: string; project: string; setBy: string; hidden: boolean }): Promise<void>;
  clear(teamId: string, channelId: string): Promise<boolean>;
}

interface Row {
  team_id: string;
  channel_id: string;
  project: string;
  set_by: string;
  set_at: string;
  hidden: number;
}

export function createChannelStore(
  source: StoreSource,
  now: () => Date = () => new Date(),
  busy: BusyPolicy = {},
): ChannelStore {
  const db = engineOf(source, busy);
  return {
    async get(teamId, channelId) {
      const r = await db.get<Row>('SELECT * FROM channel_defaults WHERE team_id = $1 AND channel_id = $2', [
        teamId,
        channelId,
      ]);
      return r
        ? {
            teamId: r.team_id,
            channelId: r.channel_id,
            project: r.project,
            setBy: r.set_by,
            setAt: new Date(r.set_at),
            hidden: Number(r.hidden) === 1,
          }
        : null;
    },
    async set({ teamId, channelId, project, setBy, hidden }) {
      await db.run(
        `INSERT INTO channel_defaults (team_id, channel_id, project, set_by, set_at, hidden) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (team_id, channel_id) DO UPDATE SET project = excluded.project, set_by = excluded.set_by,
           set_at = excluded.set_at, hidden = excluded.hidden`,
        [teamId, channelId, project, setBy, now().toISOString(), hidden ? 1 : 0],
      );
    },
    async clear(teamId, channelId) {
      return (
        (await db.run('DELETE FROM channel_defaults WHERE team_id = $1 AND channel_id = $2', [teamId, channelId])) > 0
      );
    },
  };
}
