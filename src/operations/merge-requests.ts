import { RefusedError } from '../errors.js';
import type { Changed } from '../gitlab/call.js';
import type { GitlabClient } from '../gitlab/client.js';
import { BadRequestError, GitlabError, NotFoundError } from '../gitlab/errors.js';
import type {
  MergeOptions,
  MergeRequestCreateOptions,
  MergeRequestEditOptions,
  MergeRequestListOptions,
  ProjectMergeRequestListOptions,
} from '../gitlab/merge-requests.js';
import type { Page, PageOptions } from '../gitlab/paginate.js';
import type { Project, Resource } from '../gitlab/project.js';
import type {
  ClosesIssue,
  Commit,
  MergeRequest,
  MergeRequestChanges,
  MergeRequestSimple,
  MergeRequestVersion,
  MergeRequestVersionDetail,
  PipelineBasic,
  TimeStats,
  Todo,
} from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about, refusing } from './subject.js';

export type MergeRequestListItem = MergeRequest | MergeRequestSimple;

export type TimeAction = 'estimate' | 'reset-estimate' | 'spend' | 'reset-spent';

/** What a merge came to: the merge request as the server answered, or, when the same merge was already under way, who started it. */
export type MergeOutcome = { kind: 'answered'; mr: MergeRequest } | { kind: 'joined'; by: string };

const mrOf = (project: Project, iid: number): Resource => ({ kind: 'merge_request', project, iid });

/** The statuses of a merge the server refuses with, each with its own words (views/merge-requests.ts). */
const MERGE_REFUSALS = {
  401: 'merge_denied',
  403: 'merge_denied',
  405: 'not_mergeable',
  406: 'not_mergeable_now',
  409: 'sha_moved',
} as const;

const CHANGE_REFUSALS = { 403: true } as const;

/** The newest pipelines of a branch worth reading to find the one of its head commit. */
const HEAD_PIPELINE_WINDOW = 20;

export function createMergeRequestOperations(deps: { access: GitlabAccess }) {
  /** Merges under way in this process, by merge request: a second one waits for the first instead of sending again. */
  const merging = new Map<string, { by: string; done: Promise<unknown> }>();

  const get = (ctx: RequestContext, project: Project, iid: number): Promise<MergeRequest> =>
    about(
      mrOf(project, iid),
      deps.access.withClient(ctx, (c) => c.mergeRequests.get(project.key, iid)),
    );

  const change = <T>(
    action: string,
    {
      ctx,
      project,
      iid,
      work,
    }: { ctx: RequestContext; project: Project; iid: number; work: (c: GitlabClient) => Promise<T> },
  ): Promise<T> => refusing(action, mrOf(project, iid), CHANGE_REFUSALS, deps.access.withClient(ctx, work));

  return {
    list(
      ctx: RequestContext,
      project: Project,
      options: ProjectMergeRequestListOptions,
    ): Promise<Page<MergeRequestListItem>> {
      return about(
        { kind: 'project', project },
        deps.access.withClient(ctx, (c) => c.mergeRequests.listForProject(project.key, options)),
      );
    },

    /** The person's merge requests across every project (GET /merge_requests). */
    listAll(ctx: RequestContext, options: MergeRequestListOptions): Promise<Page<MergeRequestListItem>> {
      return deps.access.withClient(ctx, (c) => c.mergeRequests.listAll(options));
    },

    get,

    /**
     * The pipeline of the merge request's head commit: named by later servers, looked up among the source
     * branch's newest pipelines otherwise. Null when there is none, or it cannot be read (the card does without).
     */
    async headPipeline(ctx: RequestContext, project: Project, mr: MergeRequest): Promise<PipelineBasic | null> {
      const named = mr.head_pipeline ?? mr.pipeline;
      if (named !== undefined) return named;
      const branch = mr.source_branch;
      if (mr.state !== 'opened' || !branch || !mr.sha || mr.source_project_id !== mr.target_project_id) return null;
      try {
        const page = await deps.access.withClient(ctx, (c) =>
          c.pipelines.list(project.key, { ref: branch, per_page: HEAD_PIPELINE_WINDOW }),
        );
        return page.items.find((p) => p.sha === mr.sha) ?? null;
      } catch (err) {
        if (err instanceof GitlabError) return null;
        throw err;
      }
    },

    commits(ctx: RequestContext, project: Project, iid: number, options: PageOptions = {}): Promise<Page<Commit>> {
      return about(
        mrOf(project, iid),
        deps.access.withClient(ctx, (c) => c.mergeRequests.commits(project.key, iid, options)),
      );
    },

    changes(ctx: RequestContext, project: Project, iid: number): Promise<MergeRequestChanges> {
      return about(
        mrOf(project, iid),
        deps.access.withClient(ctx, (c) => c.mergeRequests.changes(project.key, iid)),
      );
    },

    versions(ctx: RequestContext, project: Project, iid: number): Promise<Page<MergeRequestVersion>> {
      return about(
        mrOf(project, iid),
        deps.access.withClient(ctx, (c) => c.mergeRequests.versions(project.key, iid, { per_page: 100 })),
      );
    },

    /**
     * One diff version. The server answers 404 alike for a missing merge request and a missing version: on a 404
     * the merge request is read, so the error names whichever of the two is not there.
     */
    async version(
      ctx: RequestContext,
      project: Project,
      { iid, versionId }: { iid: number; versionId: number },
    ): Promise<MergeRequestVersionDetail> {
      try {
        return await about(
          { kind: 'merge_request_version', project, iid, id: versionId },
          deps.access.withClient(ctx, (c) => c.mergeRequests.version(project.key, iid, versionId)),
        );
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        await get(ctx, project, iid);
        throw err;
      }
    },

    closes(ctx: RequestContext, project: Project, iid: number): Promise<Page<ClosesIssue>> {
      return about(
        mrOf(project, iid),
        deps.access.withClient(ctx, (c) => c.mergeRequests.closesIssues(project.key, iid, { per_page: 100 })),
      );
    },

    /** Opens a merge request; a 409 means one from that source into that target is already open. */
    async create(ctx: RequestContext, project: Project, options: MergeRequestCreateOptions): Promise<MergeRequest> {
      try {
        return await refusing(
          'create',
          { kind: 'project', project },
          { 403: true, 409: 'exists' },
          deps.access.withClient(ctx, (c) => c.mergeRequests.create(project.key, options)),
        );
      } catch (err) {
        // GitLab says `source_branch is invalid` (or target_branch) for a branch that does not exist: name it.
        const which =
          err instanceof BadRequestError
            ? /\b(source|target)_branch is invalid\b/i.exec(err.serverMessage ?? '')
            : null;
        if (!which) throw err;
        const ref = which[1]?.toLowerCase() === 'source' ? options.source_branch : options.target_branch;
        throw new RefusedError(
          { action: 'create', subject: { kind: 'ref', project, ref }, status: 400, reason: 'no_ref' },
          err,
        );
      }
    },

    edit(ctx: RequestContext, project: Project, iid: number, options: MergeRequestEditOptions): Promise<MergeRequest> {
      return change('edit', { ctx, project, iid, work: (c) => c.mergeRequests.edit(project.key, iid, options) });
    },

    setState(ctx: RequestContext, project: Project, iid: number, event: 'close' | 'reopen'): Promise<MergeRequest> {
      return change(event, {
        ctx,
        project,
        iid,
        work: (c) => c.mergeRequests.edit(project.key, iid, { state_event: event }),
      });
    },

    remove(ctx: RequestContext, project: Project, iid: number): Promise<void> {
      return refusing(
        'delete',
        mrOf(project, iid),
        { 403: 'owner_only' },
        deps.access.withClient(ctx, (c) => c.mergeRequests.remove(project.key, iid)),
      );
    },

    /**
     * Merges (or sets it to merge when the pipeline succeeds). A merge of the same merge request already under
     * way in this process is not sent twice: the second waits for the first and answers who started it.
     */
    async merge(ctx: RequestContext, project: Project, iid: number, options: MergeOptions): Promise<MergeOutcome> {
      const key = `${project.path ?? project.key}!${iid}`;
      const running = merging.get(key);
      if (running) {
        await running.done.catch(() => undefined);
        return { kind: 'joined', by: running.by };
      }
      const work = refusing(
        'merge',
        mrOf(project, iid),
        MERGE_REFUSALS,
        deps.access.withClient(ctx, (c) => c.mergeRequests.merge(project.key, iid, options)),
      );
      merging.set(key, { by: ctx.actor.userId, done: work });
      try {
        return { kind: 'answered', mr: await work };
      } finally {
        merging.delete(key);
      }
    },

    /** Stops "merge when the pipeline succeeds"; servers that only acknowledge are read again. */
    async cancelAutoMerge(ctx: RequestContext, project: Project, iid: number): Promise<MergeRequest> {
      const answer = await refusing(
        'cancel-auto-merge',
        mrOf(project, iid),
        { 401: true, 403: true, 405: 'not_open', 406: 'not_auto_merging' },
        deps.access.withClient(ctx, (c) => c.mergeRequests.cancelMergeWhenPipelineSucceeds(project.key, iid)),
      );
      return answer ?? get(ctx, project, iid);
    },

    subscribe(ctx: RequestContext, project: Project, iid: number, on: boolean): Promise<Changed<MergeRequest>> {
      return change(on ? 'subscribe' : 'unsubscribe', {
        ctx,
        project,
        iid,
        work: (c) => (on ? c.mergeRequests.subscribe(project.key, iid) : c.mergeRequests.unsubscribe(project.key, iid)),
      });
    },

    todo(ctx: RequestContext, project: Project, iid: number): Promise<Changed<Todo>> {
      return change('todo', { ctx, project, iid, work: (c) => c.mergeRequests.createTodo(project.key, iid) });
    },

    time(
      ctx: RequestContext,
      project: Project,
      { iid, action, duration }: { iid: number; action: TimeAction; duration?: string },
    ): Promise<TimeStats> {
      return change(action, {
        ctx,
        project,
        iid,
        work: (c) => {
          const api = c.mergeRequests;
          switch (action) {
            case 'estimate':
              return api.setTimeEstimate(project.key, iid, duration ?? '');
            case 'reset-estimate':
              return api.resetTimeEstimate(project.key, iid);
            case 'spend':
              return api.addSpentTime(project.key, iid, duration ?? '');
            case 'reset-spent':
              return api.resetSpentTime(project.key, iid);
          }
        },
      });
    },

    timeStats(ctx: RequestContext, project: Project, iid: number): Promise<TimeStats> {
      return about(
        mrOf(project, iid),
        deps.access.withClient(ctx, (c) => c.mergeRequests.timeStats(project.key, iid)),
      );
    },
  };
}

export type MergeRequestOperations = ReturnType<typeof createMergeRequestOperations>;
