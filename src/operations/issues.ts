import type { Changed } from '../gitlab/call.js';
import type { IssueCreateOptions, IssueEditOptions, IssueListOptions } from '../gitlab/issues.js';
import type { Page } from '../gitlab/paginate.js';
import { type Project, projectOf, type Resource } from '../gitlab/project.js';
import type { Issue, MergeRequest, TimeStats, Todo, UserAgentDetail } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about, refusing } from './subject.js';

/** Which issues a list reads: the person's own (GET /issues), a group's or a project's. */
export type IssueListScope =
  | { kind: 'mine' }
  | { kind: 'group'; group: string | number }
  | { kind: 'project'; project: Project };

/** The project an issue moves to: its numeric id (what the move takes) and its path (what people read). */
export interface MoveTarget {
  id: number;
  project: Project;
}

export type IssueStateEvent = 'close' | 'reopen';
export type TimeAction = 'estimate' | 'reset-estimate' | 'spend' | 'reset-spent';

const issueOf = (project: Project, iid: number): Resource => ({ kind: 'issue', project, iid });

/** Changes need the Reporter role, or being the issue's author or an assignee: a 403 says so. */
const CHANGE = { 403: true } as const;

export function createIssueOperations(deps: { access: GitlabAccess }) {
  const get = (ctx: RequestContext, project: Project, iid: number): Promise<Issue> =>
    about(
      issueOf(project, iid),
      deps.access.withClient(ctx, (c) => c.issues.get(project.key, iid)),
    );

  /** The project as the server knows it, and whether it is public (a channel may read its name). */
  const projectSeen = async (
    ctx: RequestContext,
    project: Project,
  ): Promise<{ project: Project; isPublic: boolean }> => {
    const p = await about(
      { kind: 'project', project },
      deps.access.withClient(ctx, (c) => c.projects.get(project.key)),
    );
    return {
      project: projectOf(project.path ?? p.path_with_namespace, p.path_with_namespace),
      isPublic: p.visibility === 'public',
    };
  };

  return {
    list(ctx: RequestContext, scope: IssueListScope, options: IssueListOptions): Promise<Page<Issue>> {
      switch (scope.kind) {
        case 'mine':
          return deps.access.withClient(ctx, (c) => c.issues.listAll(options));
        case 'group':
          return about(
            { kind: 'group', group: scope.group },
            deps.access.withClient(ctx, (c) => c.issues.listForGroup(scope.group, options)),
          );
        case 'project':
          return about(
            { kind: 'project', project: scope.project },
            deps.access.withClient(ctx, (c) => c.issues.listForProject(scope.project.key, options)),
          );
      }
    },

    get,

    /** The project as the server knows it (checks that it exists for this person); its path labels it. */
    async project(ctx: RequestContext, project: Project): Promise<Project> {
      return (await projectSeen(ctx, project)).project;
    },
    projectSeen,

    /** The issue with its time tracking: servers before 10.5 leave time_stats out of the issue itself. */
    async withTimeStats(ctx: RequestContext, project: Project, iid: number, known?: Issue): Promise<Issue> {
      const issue = known ?? (await get(ctx, project, iid));
      if (issue.time_stats) return issue;
      const time_stats = await about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) => c.issues.timeStats(project.key, iid)),
      );
      return { ...issue, time_stats };
    },

    create(ctx: RequestContext, project: Project, options: IssueCreateOptions): Promise<Issue> {
      return refusing(
        'create',
        { kind: 'project', project },
        { 403: true },
        deps.access.withClient(ctx, (c) => c.issues.create(project.key, options)),
      );
    },

    edit(ctx: RequestContext, project: Project, iid: number, options: IssueEditOptions): Promise<Issue> {
      return refusing(
        'edit',
        issueOf(project, iid),
        CHANGE,
        deps.access.withClient(ctx, (c) => c.issues.edit(project.key, iid, options)),
      );
    },

    setState(ctx: RequestContext, project: Project, iid: number, event: IssueStateEvent): Promise<Issue> {
      return refusing(
        event,
        issueOf(project, iid),
        CHANGE,
        deps.access.withClient(ctx, (c) => c.issues.edit(project.key, iid, { state_event: event })),
      );
    },

    remove(ctx: RequestContext, project: Project, iid: number): Promise<void> {
      return refusing(
        'delete',
        issueOf(project, iid),
        { 403: true },
        deps.access.withClient(ctx, (c) => c.issues.remove(project.key, iid)),
      );
    },

    /**
     * The project an issue is moved to, as the server knows it (its numeric id is what the move takes). A path
     * that names no project the person can see is a refusal of the move, naming the path.
     */
    moveTarget(
      ctx: RequestContext,
      from: Project,
      { iid, to }: { iid: number; to: string | number },
    ): Promise<MoveTarget> {
      return refusing(
        'move',
        issueOf(from, iid),
        { 404: `no_target:${to}` },
        deps.access.withClient(ctx, async (c) => {
          const p = await c.projects.get(to);
          return { id: p.id, project: projectOf(p.path_with_namespace) };
        }),
      );
    },

    move(ctx: RequestContext, project: Project, iid: number, to: MoveTarget): Promise<Issue> {
      return refusing(
        'move',
        issueOf(project, iid),
        { 400: 'move', 403: true },
        deps.access.withClient(ctx, (c) => c.issues.move(project.key, iid, { to_project_id: to.id })),
      );
    },

    subscription(ctx: RequestContext, project: Project, iid: number, subscribe: boolean): Promise<Changed<Issue>> {
      return about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) =>
          subscribe ? c.issues.subscribe(project.key, iid) : c.issues.unsubscribe(project.key, iid),
        ),
      );
    },

    todo(ctx: RequestContext, project: Project, iid: number): Promise<Changed<Todo>> {
      return about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) => c.issues.createTodo(project.key, iid)),
      );
    },

    /** 👍 as the person acting. The server answers 404 to a second one, and to one on their own issue. */
    thumbsUp(ctx: RequestContext, project: Project, iid: number): Promise<unknown> {
      return about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) =>
          c.awardEmoji.award({ kind: 'issue', project: project.key, iid }, 'thumbsup'),
        ),
      );
    },

    /** The id of the 👍 the person acting gave the issue, if any (read after the server refused another). */
    async ownThumbsUp(ctx: RequestContext, project: Project, iid: number): Promise<number | null> {
      const username = (await ctx.session.connection())?.username ?? null;
      const awards = await about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) =>
          c.awardEmoji.list({ kind: 'issue', project: project.key, iid }, { per_page: 100 }),
        ),
      );
      const own = awards.items.find((a) => a.name === 'thumbsup' && username !== null && a.user.username === username);
      return own?.id ?? null;
    },

    /** Takes back the person's own 👍. */
    takeBackThumbsUp(
      ctx: RequestContext,
      project: Project,
      { iid, awardId }: { iid: number; awardId: number },
    ): Promise<void> {
      return about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) => c.awardEmoji.remove({ kind: 'issue', project: project.key, iid }, awardId)),
      );
    },

    /** Who last closed or reopened the issue, from the project's events (servers before 10.6 do not say). */
    async lastActor(ctx: RequestContext, project: Project, issue: Issue, action: 'closed' | 'reopened') {
      const events = await about(
        { kind: 'project', project },
        deps.access.withClient(ctx, (c) =>
          c.events.listForProject(project.key, { action, target_type: 'issue', per_page: 100 }),
        ),
      );
      const event = events.items.find((e) => e.target_id === issue.id);
      return event ? (event.author?.username ?? event.author_username ?? null) : null;
    },

    time(
      ctx: RequestContext,
      project: Project,
      { iid, action, duration }: { iid: number; action: TimeAction; duration?: string },
    ): Promise<TimeStats> {
      return refusing(
        action,
        issueOf(project, iid),
        { 400: 'time', 403: true },
        deps.access.withClient(ctx, (c) => {
          switch (action) {
            case 'estimate':
              return c.issues.setTimeEstimate(project.key, iid, duration ?? '');
            case 'reset-estimate':
              return c.issues.resetTimeEstimate(project.key, iid);
            case 'spend':
              return c.issues.addSpentTime(project.key, iid, duration ?? '');
            case 'reset-spent':
              return c.issues.resetSpentTime(project.key, iid);
          }
        }),
      );
    },

    timeStats(ctx: RequestContext, project: Project, iid: number): Promise<TimeStats> {
      return about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) => c.issues.timeStats(project.key, iid)),
      );
    },

    closedBy(ctx: RequestContext, project: Project, iid: number): Promise<Page<MergeRequest>> {
      return about(
        issueOf(project, iid),
        deps.access.withClient(ctx, (c) => c.issues.closedBy(project.key, iid, { per_page: 40 })),
      );
    },

    /** Admins only; 404 also when nothing was recorded. */
    agent(ctx: RequestContext, project: Project, iid: number): Promise<UserAgentDetail> {
      return refusing(
        'agent',
        issueOf(project, iid),
        { 403: 'admin', 404: 'no_agent' },
        deps.access.withClient(ctx, (c) => c.issues.userAgentDetail(project.key, iid)),
      );
    },
  };
}

export type IssueOperations = ReturnType<typeof createIssueOperations>;
