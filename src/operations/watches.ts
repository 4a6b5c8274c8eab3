import { InvalidInputError, type RefusalReason, RefusedError } from '../errors.js';
import type { Project, Resource } from '../gitlab/project.js';
import type { Watch, WatchStatusFilter } from '../store/watch-store.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about } from './subject.js';
import type { WatchService } from './watch-service.js';

// Watch use cases: who may do what, and the reads that check a new watch before it is stored. A watch reads with
// its creator's token whoever looks at it; only the creator or a workspace admin may pause, resume or remove it.

export type WatchAction = 'pause' | 'resume' | 'remove';

/** Pipelines read when a watch is made: what is there then is never posted. */
const BASELINE = 20;

const subjectOf = (id: number): Resource => ({ kind: 'watch', id });

function refuse(action: string, id: number, reason: RefusalReason): never {
  throw new RefusedError({ action, subject: subjectOf(id), status: null, reason });
}

export function createWatchOperations(deps: { access: GitlabAccess; watches: WatchService }) {
  const { watches } = deps;

  /** The watch a command or button names, or a clear "no such watch". */
  async function find(id: number): Promise<Watch> {
    const w = await watches.get(id);
    if (!w) throw new InvalidInputError(`There is no watch #${id}. \`watch list\` shows the watches here.`);
    return w;
  }

  async function mayManage(ctx: RequestContext, w: Watch): Promise<boolean> {
    if (w.teamId !== ctx.actor.teamId) return false;
    return w.creatorId === ctx.actor.userId || (await watches.isAdmin(ctx.actor.userId));
  }

  return {
    find,
    /**
     * Makes this channel's watch of a project: the project as the creator sees it (one read: its id outlives a
     * rename) and its newest pipelines (one read: they are what the watch starts from, never posted).
     */
    async create(
      ctx: RequestContext,
      {
        channelId,
        project,
        ref,
        statusFilter,
      }: { channelId: string; project: Project; ref: string | null; statusFilter: WatchStatusFilter },
    ): Promise<{ watch: Watch; created: boolean }> {
      const subject: Resource = { kind: 'project', project };
      const p = await about(
        subject,
        deps.access.withClient(ctx, (c) => c.projects.get(project.key)),
      );
      const baseline = await about(
        subject,
        deps.access.withClient(ctx, (c) =>
          c.pipelines.list(p.id, { per_page: BASELINE, order_by: 'id', sort: 'desc', ...(ref ? { ref } : {}) }),
        ),
      );
      return watches.create({
        teamId: ctx.actor.teamId,
        channelId,
        creatorId: ctx.actor.userId,
        project: { id: p.id, path: p.path_with_namespace },
        ref,
        statusFilter,
        baseline: baseline.items.map((x) => ({ id: x.id, status: x.status })),
      });
    },
    list: (ctx: RequestContext) =>
      ctx.channelId ? watches.listForChannel(ctx.actor.teamId, ctx.channelId) : Promise.resolve([]),
    /** The person's own watches, wherever they post (Home, whoami). */
    owned: (ctx: RequestContext) => watches.listForCreator(ctx.actor.teamId, ctx.actor.userId),
    get: (id: number) => watches.get(id),
    /** Refuses (before anything changes) a person who may not change the watch. */
    async checkManage(ctx: RequestContext, w: Watch, action: WatchAction): Promise<void> {
      if (!(await mayManage(ctx, w))) refuse(action, w.id, 'not_owner');
    },
    /** Pauses, resumes or removes; `changed` is false when it was already so (a stale card). */
    async manage(ctx: RequestContext, id: number, action: WatchAction): Promise<{ watch: Watch; changed: boolean }> {
      const w = await find(id);
      if (!(await mayManage(ctx, w))) refuse(action, id, 'not_owner');
      if (action === 'remove') return { watch: w, changed: await watches.remove(id) };
      const after = action === 'pause' ? await watches.pause(id, ctx.actor.userId) : await watches.resume(id);
      return after ? { watch: after, changed: true } : { watch: (await watches.get(id)) ?? w, changed: false };
    },
  };
}

export type WatchOperations = ReturnType<typeof createWatchOperations>;
