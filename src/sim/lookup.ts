// Finding the resource a path names, with GitLab's 404s for what does not
// exist or what the caller may not see.

import { accessLevel, canReadIssue, canReadProject } from './access.js';
import type { RequestContext } from './http/context.js';
import { forbidden, notFound } from './http/errors.js';
import type {
  GroupRecord,
  IssueRecord,
  JobRecord,
  MergeRequestRecord,
  PipelineRecord,
  ProjectRecord,
  State,
  UserRecord,
} from './model.js';
import { projectPath } from './present.js';

/** A project by numeric id or full path, if it exists and the user may see it. */
export function visibleProject(state: State, user: UserRecord, ref: string): ProjectRecord | null {
  let project: ProjectRecord | undefined;
  if (/^\d+$/.test(ref)) project = state.projects.get(Number(ref));
  else {
    const wanted = ref.toLowerCase();
    for (const p of state.projects.values()) {
      if (projectPath(state, p).toLowerCase() === wanted) {
        project = p;
        break;
      }
    }
  }
  return project && canReadProject(state, user, project) ? project : null;
}

export function findProject(ctx: RequestContext, key = 'id'): ProjectRecord {
  const project = visibleProject(ctx.state, ctx.user, ctx.route[key] ?? '');
  if (!project) throw notFound('Project');
  return project;
}

export function findGroup(ctx: RequestContext): GroupRecord {
  const ref = ctx.route.id ?? '';
  for (const g of ctx.state.groups.values()) {
    if (String(g.id) === ref || g.path.toLowerCase() === ref.toLowerCase()) {
      const member = g.members.some((m) => m.user_id === ctx.user.id);
      if (g.visibility !== 'private' || member || ctx.user.admin) return g;
    }
  }
  throw notFound('Group');
}

/** 403 unless the caller has at least `level` in the project. */
export function requireAccess(ctx: RequestContext, project: ProjectRecord, level: number): void {
  if (accessLevel(ctx.state, ctx.user, project) < level) throw forbidden();
}

function routeInt(ctx: RequestContext, key: string): number {
  const v = ctx.route[key] ?? '';
  return /^\d+$/.test(v) ? Number(v) : -1;
}

export function findIssue(ctx: RequestContext, project: ProjectRecord): IssueRecord {
  const iid = routeInt(ctx, 'issue_iid');
  for (const i of ctx.state.issues.values()) {
    if (i.project_id === project.id && i.iid === iid && canReadIssue(ctx.state, ctx.user, project, i)) return i;
  }
  throw notFound('Issue');
}

export function findMergeRequest(ctx: RequestContext, project: ProjectRecord): MergeRequestRecord {
  const iid = routeInt(ctx, 'merge_request_iid');
  for (const m of ctx.state.mergeRequests.values()) {
    if (m.project_id === project.id && m.iid === iid && !m.deleted) return m;
  }
  throw notFound('Merge Request');
}

export function findJob(ctx: RequestContext, project: ProjectRecord): JobRecord {
  const job = ctx.state.jobs.get(routeInt(ctx, 'job_id'));
  if (!job || job.project_id !== project.id) throw notFound('Job');
  return job;
}

export function findPipeline(ctx: RequestContext, project: ProjectRecord, key = 'pipeline_id'): PipelineRecord {
  const pipeline = ctx.state.pipelines.get(routeInt(ctx, key));
  if (!pipeline || pipeline.project_id !== project.id) throw notFound('Pipeline');
  return pipeline;
}
