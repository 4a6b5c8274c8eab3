import { InvalidInputError, type RefusalReason, RefusedError, UnknownPersonError } from '../errors.js';
import { type Project, projectLabel, type Resource } from '../gitlab/project.js';
import type { Todo } from '../gitlab/schemas.js';
import type { UserRef } from '../grammar/index.js';
import type { SlackMessage } from '../slack-message.js';
import type { Digest, DigestKind } from '../store/digest-store.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import type { DigestChanges, DigestService, RunOutcome } from './digest-service.js';
import type { PeopleResolver } from './people.js';
import { about, refusing } from './subject.js';

// Digest use cases: who may do what, and the reads that check a new digest before it is stored. A digest reads
// with its owner's token whoever runs it; only the owner or a workspace admin may pause, resume, change or
// remove it, and anyone in its channel may run it now.

export type DigestAction = 'pause' | 'resume' | 'remove';

export interface NewDigestInput {
  kind: DigestKind;
  channelId: string;
  inDm: boolean;
  cron: string;
  tz: string;
  project?: Project;
  user?: UserRef;
  action?: string;
  targetType?: string;
  /** An insights digest's environment (checked against the project's deployments before anything is stored). */
  environment?: string;
}

/** Deployments read to check an insights digest's environment: the newest 500. */
const ENVIRONMENT_CHECK_PAGES = 5;

const subjectOf = (id: number): Resource => ({ kind: 'digest', id });

function refuse(action: string, id: number, reason: RefusalReason): never {
  throw new RefusedError({ action, subject: subjectOf(id), status: null, reason });
}

export function createDigestOperations(deps: { access: GitlabAccess; digests: DigestService }) {
  const { digests } = deps;

  /** The digest a command or button names, or a clear "no such digest". */
  async function find(id: number): Promise<Digest> {
    const d = await digests.get(id);
    if (!d) throw new InvalidInputError(`There is no digest #${id}. \`digest list\` shows the digests here.`);
    return d;
  }

  async function mayManage(ctx: RequestContext, d: Digest): Promise<boolean> {
    if (d.teamId !== ctx.actor.teamId) return false;
    return d.ownerId === ctx.actor.userId || (await digests.isAdmin(ctx.actor.userId));
  }

  /** The project as the creator sees it (one read): its id outlives a rename, its path labels the digest. */
  async function projectFor(ctx: RequestContext, project: Project): Promise<{ id: number; path: string }> {
    const p = await about(
      { kind: 'project', project },
      deps.access.withClient(ctx, (c) => c.projects.get(project.key)),
    );
    return { id: p.id, path: p.path_with_namespace };
  }

  /** The user whose events a digest follows, with the username that labels it (one read). */
  async function userFor(
    ctx: RequestContext,
    ref: UserRef,
    people: PeopleResolver,
  ): Promise<{ id: number; username: string }> {
    const who = await people.idOrUsername(ctx, ref);
    const user = await about(
      { kind: 'user', id: who },
      deps.access.withClient(ctx, (c) => (typeof who === 'number' ? c.users.get(who) : c.users.findByUsername(who))),
    );
    if (!user) throw new UnknownPersonError('no_user', String(who));
    return { id: user.id, username: user.username };
  }

  /**
   * Refuses an environment the project never deployed to in its newest deployments (read as the creator), with the
   * names it did deploy to; nothing is stored.
   */
  async function checkEnvironment(ctx: RequestContext, project: Project, environment: string): Promise<void> {
    const seen = new Set<string>();
    for (let page = 1; page <= ENVIRONMENT_CHECK_PAGES; page += 1) {
      const list = await about(
        { kind: 'project', project },
        deps.access.withClient(ctx, (c) =>
          c.deployments.list(project.key, { order_by: 'created_at', sort: 'desc', page, per_page: 100 }),
        ),
      );
      for (const d of list.items) seen.add(d.environment.name);
      if (seen.has(environment)) return;
      if (list.nextPage === null) break;
    }
    const names = [...seen].sort().map((e) => `\`${e}\``);
    throw new InvalidInputError(
      `${projectLabel(project)} has no deployments to an environment named "${environment}"${
        names.length ? `; it deploys to ${names.join(', ')}` : '; it has no deployments yet'
      }. Nothing was created.`,
    );
  }

  return {
    find,
    async create(ctx: RequestContext, input: NewDigestInput, people: PeopleResolver) {
      const project = input.project ? await projectFor(ctx, input.project) : null;
      if (input.environment !== undefined && input.project) {
        await checkEnvironment(ctx, input.project, input.environment);
      }
      const user = input.user ? await userFor(ctx, input.user, people) : null;
      return digests.create({
        teamId: ctx.actor.teamId,
        ownerId: ctx.actor.userId,
        channelId: input.channelId,
        inDm: input.inDm,
        kind: input.kind,
        project,
        user,
        action: input.action ?? null,
        targetType: input.targetType ?? null,
        environment: input.environment ?? null,
        cron: input.cron,
        tz: input.tz,
      });
    },
    dmOf: (ctx: RequestContext) => digests.openDm(ctx.actor.userId),
    /** Someone else (a workspace admin) changed the digest: its owner is told in one DM, `message`. */
    async tellOwner(ctx: RequestContext, d: Digest, message: SlackMessage): Promise<void> {
      if (d.ownerId !== ctx.actor.userId) await digests.tellOwner(d.ownerId, message);
    },
    list: (ctx: RequestContext) => digests.list(ctx.actor.teamId, ctx.channelId, ctx.actor.userId),
    /** The person's own digests, wherever they post (the Home tab's). */
    owned: (ctx: RequestContext) => digests.listOwned(ctx.actor.teamId, ctx.actor.userId),
    nextRun: (d: Digest) => digests.nextRun(d),
    /**
     * Changes a digest's schedule, zone or event filters: only its owner or a workspace admin may, as for pause.
     * A todos digest has no event filters to change.
     */
    async edit(ctx: RequestContext, id: number, changes: DigestChanges): Promise<Digest> {
      const d = await find(id);
      if (!(await mayManage(ctx, d))) refuse('edit', id, 'not_owner');
      if (
        (d.kind === 'todos' || d.kind === 'insights') &&
        (changes.action !== undefined || changes.targetType !== undefined)
      ) {
        const what = d.kind === 'todos' ? 'todos' : 'weekly insights';
        throw new InvalidInputError(
          `Digest #${id} posts ${what}: \`--action\` and \`--target-type\` are for events digests. Nothing was changed.`,
        );
      }
      return (await digests.edit(id, changes)) ?? refuse('edit', id, 'gone');
    },
    /** Refuses (before anything changes) a person who may not manage the digest. */
    async checkManage(ctx: RequestContext, d: Digest, action: DigestAction): Promise<void> {
      if (!(await mayManage(ctx, d))) refuse(action, d.id, 'not_owner');
    },
    /** Pauses, resumes or removes; null when it was already so (a stale card), the digest as it is otherwise. */
    async manage(ctx: RequestContext, id: number, action: DigestAction): Promise<{ digest: Digest; changed: boolean }> {
      const d = await find(id);
      if (!(await mayManage(ctx, d))) refuse(action, id, 'not_owner');
      if (action === 'remove') return { digest: d, changed: await digests.remove(id) };
      const after = action === 'pause' ? await digests.pause(id, ctx.actor.userId) : await digests.resume(id);
      return after ? { digest: after, changed: true } : { digest: (await digests.get(id)) ?? d, changed: false };
    },
    /** Anyone in the digest's channel (and its owner anywhere) may run it now; it reads with the owner's token. */
    async checkRun(ctx: RequestContext, d: Digest): Promise<void> {
      if (d.teamId !== ctx.actor.teamId) refuse('run', d.id, 'elsewhere');
      if (d.ownerId !== ctx.actor.userId && d.channelId !== ctx.channelId) refuse('run', d.id, 'elsewhere');
    },
    get: (id: number) => digests.get(id),
    run: (id: number) => digests.run(id, 'manual'),
    /** Runs a digest after the answer went out; `describe` says what the person is told of the outcome. */
    runAndTell(
      ctx: RequestContext,
      id: number,
      describe: (outcome: RunOutcome) => Promise<{ channelId: string; message: SlackMessage | null } | null>,
    ): void {
      digests.runAndTell(id, ctx.actor.userId, describe);
    },
    /** A todo of a todos digest, marked done as the clicker (who must be the digest's owner). */
    async todoDone(ctx: RequestContext, d: Digest | null, todoId: number): Promise<boolean> {
      if (d && d.ownerId !== ctx.actor.userId) refuse('done', d.id, 'not_yours');
      try {
        await refusing(
          'done',
          { kind: 'todo', id: todoId },
          { 404: true },
          deps.access.withClient(ctx, (c) => c.todos.markDone(todoId)),
        );
        return true;
      } catch (err) {
        // Already done (or never the clicker's): the card is redrawn as it is.
        if (err instanceof RefusedError && err.refusal.status === 404) return false;
        throw err;
      }
    },
    async allDone(ctx: RequestContext, d: Digest | null): Promise<void> {
      if (d && d.ownerId !== ctx.actor.userId) refuse('done', d.id, 'not_yours');
      await deps.access.withClient(ctx, (c) => c.todos.markAllDone());
    },
    /** The clicker's pending todos, to redraw a todos digest after a Done. */
    async pendingTodos(ctx: RequestContext): Promise<{ todos: Todo[]; truncated: boolean }> {
      const page = await deps.access.withClient(ctx, (c) => c.todos.list({ state: 'pending', per_page: 100 }));
      return { todos: page.items, truncated: page.nextPage !== null };
    },
  };
}

export type DigestOperations = ReturnType<typeof createDigestOperations>;
