import { ProjectRequiredError } from '../errors.js';
import type { ProjectRef } from '../grammar/index.js';
import type { ChannelStore } from '../store/channel-store.js';
import type { RequestContext } from './context.js';

/** The project a command acts on: the one it names, else the channel's default, else "which project?". */
export async function resolveProject(
  ref: ProjectRef | null,
  ctx: RequestContext,
  channels: ChannelStore,
): Promise<ProjectKey> {
  if (ref) return ref.kind === 'path' ? ref.path : ref.id;
  const fallback = await channelDefaultProject(ctx, channels);
  if (fallback === null) throw new ProjectRequiredError();
  return fallback;
}

/** The channel's default project, or null (lists such as `/gl issues` then use the global route). */
export async function channelDefaultProject(ctx: RequestContext, channels: ChannelStore): Promise<string | null> {
  if (!ctx.channelId) return null;
  return (await channels.get(ctx.actor.teamId, ctx.channelId))?.project ?? null;
}

/** A project as commands name it: a path (`group/app`) or a numeric id. */
export type ProjectKey = string | number;

export function projectLabel(project: ProjectKey): string {
  return typeof project === 'number' ? `project ${project}` : project;
}
