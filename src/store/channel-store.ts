import { type BusyPolicy, type Db, whenFree } from './database.js';

export interface ChannelDefault {
  teamId: string;
  channelId: string;
  /** A project path (`group/sub/app`) or a numeric id, as the person gave it and the server confirmed. */
  project: string;
  setBy: string;
  setAt: Date;
}

export interface ChannelStore {
  get(teamId: string, channelId: string): Promise<ChannelDefault | null>;
  set(input: { teamId: string; channelId: string; project: string; setBy: string }): Promise<void>;
  clear(teamId: string, channelId: string): Promise<boolean>;
}

interface Row {
  team_id: string;
  channel_id: string;
  project: string;
  set_by: string;
  set_at: string;
}

export function createChannelStore(db: Db, now: () => Date = () => new Date(), busy: BusyPolicy = {}): ChannelStore {
  const free = <T>(what: string, run: () => T) => whenFree(what, run, busy);
  const select = db.prepare('SELECT * FROM channel_defaults WHERE team_id = ? AND channel_id = ?');
  const upsert = db.prepare(
    `INSERT INTO channel_defaults (team_id, channel_id, project, set_by, set_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (team_id, channel_id) DO UPDATE SET project = excluded.project, set_by = excluded.set_by, set_at = excluded.set_at`,
  );
  const del = db.prepare('DELETE FROM channel_defaults WHERE team_id = ? AND channel_id = ?');
  return {
    async get(teamId, channelId) {
      const r = await free("read a channel's default", () => select.get(teamId, channelId) as Row | undefined);
      return r
        ? { teamId: r.team_id, channelId: r.channel_id, project: r.project, setBy: r.set_by, setAt: new Date(r.set_at) }
        : null;
    },
    async set({ teamId, channelId, project, setBy }) {
      const at = now().toISOString();
      await free("save a channel's default", () => upsert.run(teamId, channelId, project, setBy, at));
    },
    async clear(teamId, channelId) {
      return (await free("clear a channel's default", () => del.run(teamId, channelId))).changes > 0;
    },
  };
}
