import { ChannelDefaultUnseenError, ProjectRequiredError } from '../errors.js';
import { ForbiddenError, NotFoundError } from '../gitlab/errors.js';
import { type Project, projectOf } from '../gitlab/project.js';
import type { ProjectRef } from '../grammar/index.js';
import type { ChannelDefault, ChannelStore } from '../store/channel-store.js';
import { createTtlCache } from '../ttl-cache.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about } from './subject.js';

/**
 * The project a command acts on: the one it names, else the channel's default, else "which project?".
 * A numeric id is looked up once (as the person, so nobody learns a path they may not see) to get the
 * path that labels and links need; the answer is kept a few minutes per person.
 */
export function createProjectResolver(deps: { access: GitlabAccess; channels: ChannelStore }) {
  const paths = createTtlCache<string>({ ttlMs: 10 * 60 * 1000, maxEntries: 5000 });

  const pathOf = async (ctx: RequestContext, id: number): Promise<string> => {
    const key = `${ctx.actor.teamId}:${ctx.actor.userId}:${id}`;
    const hit = paths.get(key, ctx.now.getTime());
    if (hit !== undefined) return hit;
    const project = await about(
      { kind: 'project', project: projectOf(id) },
      deps.access.withClient(ctx, (c) => c.projects.get(id)),
    );
    const path = project.path_with_namespace ?? String(id);
    paths.set(key, path, ctx.now.getTime());
    return path;
  };

  // Whether the person may see a channel default the channel was told is not public, kept a few minutes.
  const seen = createTtlCache<boolean>({ ttlMs: 10 * 60 * 1000, maxEntries: 5000 });

  /**
   * Refuses, without its name, a default the channel was told is not public when the person cannot see it: their
   * command would otherwise fail naming it ("Project demo/secret was not found") and blaming a name they never
   * typed. Read once as the person, without a subject, so no answer of it names the project either.
   */
  const checkSeen = async (ctx: RequestContext, chosen: ChannelDefault): Promise<void> => {
    const key = `${ctx.actor.teamId}:${ctx.actor.userId}:${chosen.project}`;
    let visible = seen.get(key, ctx.now.getTime());
    if (visible === undefined) {
      const project = /^\d+$/.test(chosen.project) ? Number(chosen.project) : chosen.project;
      try {
        await deps.access.withClient(ctx, (c) => c.projects.get(project));
        visible = true;
      } catch (err) {
        if (!(err instanceof NotFoundError || err instanceof ForbiddenError)) throw err;
        visible = false;
      }
      seen.set(key, visible, ctx.now.getTime());
    }
    if (!visible) throw new ChannelDefaultUnseenError(chosen.setBy);
  };

  return {
    /** The path of a project by its id, read as the person (and kept a few minutes for them). */
    pathOf,
    async resolve(ctx: RequestContext, ref: ProjectRef | null): Promise<Project> {
      if (ref?.kind === 'path') return projectOf(ref.path);
      if (ref?.kind === 'id') return projectOf(ref.id, await pathOf(ctx, ref.id));
      const chosen = ctx.channelId ? await deps.channels.get(ctx.actor.teamId, ctx.channelId) : null;
      if (chosen === null) throw new ProjectRequiredError();
      if (chosen.hidden) await checkSeen(ctx, chosen);
      const fallback = chosen.project;
      return /^\d+$/.test(fallback)
        ? projectOf(Number(fallback), await pathOf(ctx, Number(fallback)))
        : projectOf(fallback);
    },
  };
}

/** The channel's default project, or null (lists such as `/gl issues` then use the global route). */
export async function channelDefaultProject(ctx: RequestContext, channels: ChannelStore): Promise<string | null> {
  if (!ctx.channelId) return null;
  return (await channels.get(ctx.actor.teamId, ctx.channelId))?.project ?? null;
}
