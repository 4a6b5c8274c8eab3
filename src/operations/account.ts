import { projectOf } from '../gitlab/project.js';
import type { ProjectRef } from '../grammar/index.js';
import type { ChannelDefault, ChannelStore } from '../store/channel-store.js';
import type { TokenStore } from '../store/token-store.js';
import type { GitlabAccess, TokenCheck } from './access.js';
import type { AlertService } from './alert-service.js';
import type { Actor, RequestContext } from './context.js';
import { about } from './subject.js';

/** A connection's check, and when it was stored over another account's, that account's username. */
export type ConnectResult =
  | Exclude<TokenCheck, { ok: true }>
  | { ok: true; username: string | null; replaced: string | null };

export function createAccountOperations(deps: {
  access: GitlabAccess;
  tokens: TokenStore;
  channels: ChannelStore;
  alerts?: AlertService;
}) {
  const channelOf = (ctx: RequestContext): string => {
    if (!ctx.channelId) throw new Error('a channel default needs a channel');
    return ctx.channelId;
  };
  return {
    /** The person's todo alert setting, for whoami. */
    alertSetting: (actor: Actor) => deps.alerts?.get(actor.teamId, actor.userId) ?? Promise.resolve(null),
    /**
     * Checks the token and stores it (with whose it is) only if the server accepts it. A token of another server
     * account than the one connected before says whom it replaces, so nobody switches accounts without knowing.
     */
    async connect(actor: Actor, token: string, now: Date): Promise<ConnectResult> {
      const check = await deps.access.verify(token);
      if (check.ok) {
        const before = await deps.tokens.find(actor.teamId, actor.userId);
        const replaced = before?.username && before.username !== check.username ? before.username : null;
        await deps.tokens.save({
          teamId: actor.teamId,
          userId: actor.userId,
          token,
          serverUrl: deps.access.serverUrl,
          verifiedAt: now,
          username: check.username,
        });
        return { ...check, replaced };
      }
      return check;
    },
    disconnect: (actor: Actor) => deps.tokens.remove(actor.teamId, actor.userId),
    /** Makes a project the channel's default after one read proves it exists and the person may see it. */
    async useProject(
      ctx: RequestContext,
      ref: ProjectRef,
    ): Promise<{ project: string; webUrl: string | null; isPublic: boolean }> {
      const key = ref.kind === 'path' ? ref.path : ref.id;
      const project = await about(
        { kind: 'project', project: projectOf(key) },
        deps.access.withClient(ctx, (c) => c.projects.get(key)),
      );
      const path = project.path_with_namespace ?? String(project.id);
      // A server that does not say is taken as private: the name is then not told to the whole channel.
      const isPublic = project.visibility === 'public';
      await deps.channels.set({
        teamId: ctx.actor.teamId,
        channelId: channelOf(ctx),
        project: path,
        setBy: ctx.actor.userId,
        hidden: !isPublic,
      });
      return { project: path, webUrl: project.web_url ?? null, isPublic };
    },
    /** Clears the channel's default; the one it was (with whether the channel was told its name), or null. */
    async clearProject(ctx: RequestContext): Promise<ChannelDefault | null> {
      const previous = await deps.channels.get(ctx.actor.teamId, channelOf(ctx));
      await deps.channels.clear(ctx.actor.teamId, channelOf(ctx));
      return previous;
    },
    /** The channel's default, with who set it and whether its name is hidden from the channel; null without one. */
    channelDefault: (ctx: RequestContext): Promise<ChannelDefault | null> =>
      ctx.channelId ? deps.channels.get(ctx.actor.teamId, ctx.channelId) : Promise.resolve(null),
  };
}

export type AccountOperations = ReturnType<typeof createAccountOperations>;
