import type { EventAction, EventListOptions, EventTargetType } from '../gitlab/events.js';
import type { Page } from '../gitlab/paginate.js';
import type { Project } from '../gitlab/project.js';
import type { Event } from '../gitlab/schemas.js';
import type { ChannelStore } from '../store/channel-store.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { channelDefaultProject } from './projects.js';
import { about } from './subject.js';

/** Whose events: the person's own, another user's (an id or a username), or a project's. */
export type EventScope =
  | { kind: 'mine' }
  | { kind: 'user'; user: number | string }
  | { kind: 'project'; project: Project };

export interface EventListQuery {
  action?: EventAction;
  targetType?: EventTargetType;
  before?: string;
  after?: string;
  sort?: 'asc' | 'desc';
  page?: number;
  perPage?: number;
}

export function createEventOperations(deps: { access: GitlabAccess; channels: ChannelStore }) {
  return {
    list(ctx: RequestContext, scope: EventScope, q: EventListQuery): Promise<Page<Event>> {
      const options: EventListOptions = {
        ...(q.action ? { action: q.action } : {}),
        ...(q.targetType ? { target_type: q.targetType } : {}),
        ...(q.before ? { before: q.before } : {}),
        ...(q.after ? { after: q.after } : {}),
        ...(q.sort ? { sort: q.sort } : {}),
        ...(q.page ? { page: q.page } : {}),
        ...(q.perPage ? { per_page: q.perPage } : {}),
      };
      switch (scope.kind) {
        case 'mine':
          return deps.access.withClient(ctx, (c) => c.events.listForCurrentUser(options));
        case 'user':
          return about(
            { kind: 'user', id: scope.user },
            deps.access.withClient(ctx, (c) => c.events.listForUser(scope.user, options)),
          );
        case 'project':
          return about(
            { kind: 'project', project: scope.project },
            deps.access.withClient(ctx, (c) => c.events.listForProject(scope.project.key, options)),
          );
      }
    },

    /**
     * Which of the issues these events are about are confidential (`project:iid`, see views/audience.ts), read as
     * the person: before events are shown where others read them. An issue that cannot be read counts as one.
     */
    async confidentialIssues(ctx: RequestContext, keys: readonly string[]): Promise<Set<string>> {
      const out = new Set<string>();
      await Promise.all(
        [...new Set(keys)].map(async (key) => {
          const [project, iid] = key.split(':').map(Number) as [number, number];
          try {
            const issue = await deps.access.withClient(ctx, (c) => c.issues.get(project, iid));
            if (issue.confidential) out.add(key);
          } catch {
            out.add(key);
          }
        }),
      );
      return out;
    },

    /** Whether the channel has a default project (then `/gl events` means its events, else the person's own). */
    async channelHasDefault(ctx: RequestContext): Promise<boolean> {
      return (await channelDefaultProject(ctx, deps.channels)) !== null;
    },
  };
}

export type EventOperations = ReturnType<typeof createEventOperations>;
