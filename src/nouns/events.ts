import type { Project } from '../gitlab/project.js';
import type { Event } from '../gitlab/schemas.js';
import type { RequestContext } from '../operations/context.js';
import { createEventOperations, type EventScope } from '../operations/events.js';
import { buildEventList } from '../views/events.js';
import { describeFilters, pageSize } from '../views/lists.js';
import { noun, type Platform } from './types.js';

const n = noun('event', (d) => createEventOperations(d));

/**
 * Events name their project by id only. A project's own events are all in it; anyone else's are looked up
 * once per project (as the person, so no one learns a path they may not see), for links and references.
 */
async function projectPaths(
  ctx: RequestContext,
  s: Platform,
  events: readonly Event[],
  scope: EventScope,
): Promise<Map<number, string>> {
  const paths = new Map<number, string>();
  for (const e of events) {
    if (e.project_id === null || paths.has(e.project_id)) continue;
    if (scope.kind === 'project') {
      if (scope.project.path) paths.set(e.project_id, scope.project.path);
      continue;
    }
    const found = await s.resolveProject(ctx, { kind: 'id', id: e.project_id }).catch(() => null);
    if (found?.path) paths.set(e.project_id, found.path);
  }
  return paths;
}

function titleOf(scope: EventScope, shown: string | number | null): string {
  switch (scope.kind) {
    case 'mine':
      return shown === null ? 'Your events' : `Events of @${shown}`;
    case 'user':
      return typeof scope.user === 'number' ? `Events of user ${scope.user}` : `Events of @${scope.user}`;
    case 'project':
      return `Events in ${scope.project.path ?? `project ${scope.project.key}`}`;
  }
}

export const events = n.define({
  lists: {
    async 'event.list'(cmd, ctx, s, ops, place, notice) {
      const f = cmd.flags;
      // --user names a person; else the project given or the channel's; else the person's own events.
      let scope: EventScope;
      if (f.user) scope = { kind: 'user', user: await s.people.idOrUsername(ctx, f.user) };
      else if (cmd.target.project || (await ops.channelHasDefault(ctx))) {
        const project: Project = await s.resolveProject(ctx, cmd.target.project);
        scope = { kind: 'project', project };
      } else scope = { kind: 'mine' };
      const perPage = pageSize(f.perPage);
      const result = await ops.list(ctx, scope, {
        ...(f.action ? { action: f.action } : {}),
        ...(f.targetType ? { targetType: f.targetType } : {}),
        ...(f.before ? { before: f.before } : {}),
        ...(f.after ? { after: f.after } : {}),
        ...(f.sort ? { sort: f.sort } : {}),
        ...(f.page ? { page: f.page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      // "Your events" shown in a channel would read as everyone's: it names whose they are.
      const shared = scope.kind === 'mine' && cmd.share ? ((await ctx.session.connection())?.username ?? null) : null;
      const projects = await projectPaths(ctx, s, result.items, scope);
      const here = scope.kind === 'project' ? (result.items[0]?.project_id ?? null) : null;
      return buildEventList(result.items, result, {
        title: titleOf(scope, shared),
        filters: describeFilters({
          action: f.action,
          targetType: f.targetType,
          before: f.before,
          after: f.after,
          sort: f.sort,
        }),
        place,
        ctx: { serverUrl: s.serverUrl, now: ctx.now, timeZone: await s.timeZoneOf(ctx.actor.userId), projects, here },
        notice,
      });
    },
  },
});
