import { ProjectRequiredError } from '../errors.js';
import { type Project, projectOf } from '../gitlab/project.js';
import type { ProjectRef } from '../grammar/index.js';
import type { ChannelStore } from '../store/channel-store.js';
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

  return {
    /** The path of a project by its id, read as the person (and kept a few minutes for them). */
    pathOf,
    async resolve(ctx: RequestContext, ref: ProjectRef | null): Promise<Project> {
      if (ref?.kind === 'path') return projectOf(ref.path);
      if (ref?.kind === 'id') return projectOf(ref.id, await pathOf(ctx, ref.id));
      const fallback = await channelDefaultProject(ctx, deps.channels);
      if (fallback === null) throw new ProjectRequiredError();
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
