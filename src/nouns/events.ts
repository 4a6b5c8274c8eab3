import type { Project } from '../gitlab/project.js';
import type { Event } from '../gitlab/schemas.js';
import type { RequestContext } from '../operations/context.js';
import { createEventOperations, type EventScope } from '../operations/events.js';
import { eventFor, issueOfEvent } from '../views/audience.js';
import { buildEventList } from '../views/events.js';
import { describeFilters, pageSize } from '../views/lists.js';
import { readersOf } from './support.js';
import { noun, type Platform } from './types.js';

const eventNoun = noun('event', (deps) => createEventOperations(deps));

/**
 * Events name their project by id only. A project's own events are all in it; anyone else's are looked up
 * once per project (as the person, so no one learns a path they may not see), for links and references.
 */
async function projectPaths({
  ctx,
  platform,
  events,
  scope,
}: {
  ctx: RequestContext;
  platform: Platform;
  events: readonly Event[];
  scope: EventScope;
}): Promise<Map<number, string>> {
  const paths = new Map<number, string>();
  // A project asked about once per answer, whatever it answered: one that cannot be read is not asked again per row.
  const asked = new Set<number>();
  for (const event of events) {
    if (event.project_id === null || asked.has(event.project_id)) continue;
    asked.add(event.project_id);
    if (scope.kind === 'project') {
      if (scope.project.path) paths.set(event.project_id, scope.project.path);
      continue;
    }
    const found = await platform.resolveProject(ctx, { kind: 'id', id: event.project_id }).catch(() => null);
    if (found?.path) paths.set(event.project_id, found.path);
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

export const events = eventNoun.define({
  lists: {
    async 'event.list'(command, ctx, platform, ops, place, notice) {
      const flags = command.flags;
      // --user names a person; else the project given or the channel's; else the person's own events.
      let scope: EventScope;
      if (flags.user) scope = { kind: 'user', user: await platform.people.idOrUsername(ctx, flags.user) };
      else if (command.target.project || (await ops.channelHasDefault(ctx))) {
        const project: Project = await platform.resolveProject(ctx, command.target.project);
        scope = { kind: 'project', project };
      } else scope = { kind: 'mine' };
      const perPage = pageSize(flags.perPage);
      const result = await ops.list(ctx, scope, {
        ...(flags.action ? { action: flags.action } : {}),
        ...(flags.targetType ? { targetType: flags.targetType } : {}),
        ...(flags.before ? { before: flags.before } : {}),
        ...(flags.after ? { after: flags.after } : {}),
        ...(flags.sort ? { sort: flags.sort } : {}),
        ...(flags.page ? { page: flags.page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      // Shown in the channel, an event about a confidential issue keeps its number but not its words (audience.ts).
      if (command.share) {
        const keys = result.items.map(issueOfEvent).filter((k): k is string => k !== null);
        const confidential = keys.length > 0 ? await ops.confidentialIssues(ctx, keys) : new Set<string>();
        result.items = result.items.map((e) => eventFor('channel', e, confidential));
      }
      // "Your events" shown in a channel would read as everyone's: it names whose they are.
      const shared =
        scope.kind === 'mine' && command.share ? ((await ctx.session.connection())?.username ?? null) : null;
      const projects = await projectPaths({ ctx, platform, events: result.items, scope });
      const here = scope.kind === 'project' ? (result.items[0]?.project_id ?? null) : null;
      return buildEventList(result.items, result, {
        title: titleOf(scope, shared),
        filters: describeFilters({
          action: flags.action,
          targetType: flags.targetType,
          before: flags.before,
          after: flags.after,
          sort: flags.sort,
        }),
        place,
        ctx: {
          serverUrl: platform.serverUrl,
          ...(await readersOf(ctx, platform)),
          projects,
          here,
        },
        notice,
      });
    },
  },
});
