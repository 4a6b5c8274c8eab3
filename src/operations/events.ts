import { TokenRevokedError } from '../errors.js';
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

/**
 * Which of the issues some events are about are confidential (`project:iid` keys, see views/audience.ts), read as
 * the person whose events are shown: an issue that cannot be read counts as one; a refused token stops the read.
 */
export async function confidentialIssuesOf(
  access: GitlabAccess,
  ctx: RequestContext,
  keys: readonly string[],
): Promise<Set<string>> {
  // One list read per project and hundred issues (`iids[]`, state all), not one read per issue.
  const byProject = new Map<number, Set<number>>();
  for (const key of new Set(keys)) {
    const [project, iid] = key.split(':').map(Number) as [number, number];
    const iids = byProject.get(project) ?? new Set<number>();
    iids.add(iid);
    byProject.set(project, iids);
  }
  const out = new Set<string>();
  await Promise.all(
    [...byProject].flatMap(([project, iids]) => {
      const all = [...iids];
      const chunks = Array.from({ length: Math.ceil(all.length / 100) }, (_, i) => all.slice(i * 100, i * 100 + 100));
      return chunks.map(async (chunk) => {
        const open = new Set<number>();
        try {
          const page = await access.withClient(ctx, (c) =>
            c.issues.listForProject(project, { iids: chunk, state: 'all', per_page: 100 }),
          );
          for (const issue of page.items) if (!issue.confidential) open.add(issue.iid);
        } catch (err) {
          if (err instanceof TokenRevokedError) throw err;
        }
        // Not read, or not listed to this person: counted as confidential.
        for (const iid of chunk) if (!open.has(iid)) out.add(`${project}:${iid}`);
      });
    }),
  );
  return out;
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
    confidentialIssues(ctx: RequestContext, keys: readonly string[]): Promise<Set<string>> {
      return confidentialIssuesOf(deps.access, ctx, keys);
    },

    /** Whether the channel has a default project (then `/gl events` means its events, else the person's own). */
    async channelHasDefault(ctx: RequestContext): Promise<boolean> {
      return (await channelDefaultProject(ctx, deps.channels)) !== null;
    },
  };
}

export type EventOperations = ReturnType<typeof createEventOperations>;
