import type { ProjectRef } from '../grammar/index.js';
import type { ChannelStore } from '../store/channel-store.js';
import type { Connection, TokenStore } from '../store/token-store.js';
import type { GitlabAccess, TokenCheck } from './access.js';
import type { Actor, RequestContext } from './context.js';
import { channelDefaultProject } from './projects.js';
import { about } from './subject.js';

export interface AccountOperations {
  /** Checks the token with one read and stores it only if the server accepts it. */
  connect(actor: Actor, token: string, now: Date): Promise<TokenCheck>;
  disconnect(actor: Actor): Promise<boolean>;
  connection(actor: Actor): Promise<Connection | null>;
  /** Makes a project the channel's default after one read proves it exists and the person may see it. */
  useProject(ctx: RequestContext, ref: ProjectRef): Promise<{ project: string; webUrl: string | null }>;
  clearProject(ctx: RequestContext): Promise<string | null>;
  channelProject(ctx: RequestContext): Promise<string | null>;
}

export function createAccountOperations(o: {
  access: GitlabAccess;
  tokens: TokenStore;
  channels: ChannelStore;
}): AccountOperations {
  const channelOf = (ctx: RequestContext): string => {
    if (!ctx.channelId) throw new Error('a channel default needs a channel');
    return ctx.channelId;
  };
  return {
    async connect(actor, token, now) {
      const check = await o.access.verify(token);
      if (check.ok) {
        await o.tokens.save({
          teamId: actor.teamId,
          userId: actor.userId,
          token,
          serverUrl: o.access.serverUrl,
          verifiedAt: now,
        });
      }
      return check;
    },
    disconnect: (actor) => o.tokens.remove(actor.teamId, actor.userId),
    connection: (actor) => o.tokens.find(actor.teamId, actor.userId),
    async useProject(ctx, ref) {
      const id = ref.kind === 'path' ? ref.path : ref.id;
      const project = await about(
        `Project ${typeof id === 'number' ? id : id}`,
        o.access.withClient(ctx.actor, (c) => c.projects.get(id)),
      );
      const path = project.path_with_namespace ?? String(project.id);
      await o.channels.set({
        teamId: ctx.actor.teamId,
        channelId: channelOf(ctx),
        project: path,
        setBy: ctx.actor.userId,
      });
      return { project: path, webUrl: project.web_url ?? null };
    },
    async clearProject(ctx) {
      const previous = await o.channels.get(ctx.actor.teamId, channelOf(ctx));
      await o.channels.clear(ctx.actor.teamId, channelOf(ctx));
      return previous?.project ?? null;
    },
    channelProject: (ctx) => channelDefaultProject(ctx, o.channels),
  };
}
