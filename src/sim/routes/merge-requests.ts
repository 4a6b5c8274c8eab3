// Merge requests: lists, one MR, create / edit / close / reopen / delete,
// commits, changes, diff versions, closes_issues, merge and its
// merge-when-pipeline-succeeds cancel (PUT as documented, POST as 9.5 routes
// it), plus the shared issuable calls.

import { accessLevel, canReadIssue, canReadProject, canUpdateMergeRequest, DEVELOPER, OWNER } from '../access.js';
import { ACTIVE } from '../ci/engine.js';
import { recordEvent } from '../domain/activity.js';
import { mergeMergeRequest } from '../domain/merging.js';
import { empty, type Handler, json, type RequestContext } from '../http/context.js';
import {
  apiError,
  conflict,
  forbidden,
  invalidRecord,
  notAllowed,
  notFound,
  paramError,
  SimError,
  unauthorized,
} from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { bool, has, int, oneOf, requireStr, str } from '../http/params.js';
import type { Route } from '../http/router.js';
import { findMergeRequest, findProject } from '../lookup.js';
import type { DiffRecord, MergeRequestRecord, State } from '../model.js';
import { nextId } from '../model.js';
import {
  closedIssueIids,
  isWorkInProgress,
  presentCommit,
  presentIssueBasic,
  presentMergeRequest,
  presentMergeRequestBasic,
  presentMergeRequestSimple,
  presentVersion,
} from '../present.js';
import { createTodo, filterIssuables, type IssuableKind, readLabels, readMilestone, timeRoutes } from './issuables.js';

const STATES = ['opened', 'closed', 'merged', 'locked'] as const;

function listWith(ctx: RequestContext, items: MergeRequestRecord[], defaultScope: 'created-by-me' | 'all') {
  const view = oneOf(ctx.params, 'view', ['simple'] as const);
  const filtered = filterIssuables(ctx, items, { defaultScope, states: STATES });
  return paginate(ctx, filtered, (m) =>
    view === 'simple' ? presentMergeRequestSimple(ctx, m) : presentMergeRequestBasic(ctx, m),
  );
}

const listAll: Handler = (ctx) => {
  const items = [...ctx.state.mergeRequests.values()].filter((m) => {
    const project = ctx.state.projects.get(m.project_id);
    return !m.deleted && project !== undefined && canReadProject(ctx.state, ctx.user, project);
  });
  return listWith(ctx, items, 'created-by-me');
};

const listProject: Handler = (ctx) => {
  const project = findProject(ctx);
  const items = [...ctx.state.mergeRequests.values()].filter((m) => m.project_id === project.id && !m.deleted);
  return listWith(ctx, items, 'all');
};

const mrKind: IssuableKind<MergeRequestRecord> = {
  type: 'MergeRequest',
  find(ctx) {
    const project = findProject(ctx);
    return { project, item: findMergeRequest(ctx, project) };
  },
  canUpdate: (ctx, project, mr) => canUpdateMergeRequest(ctx.state, ctx.user, project, mr),
  present: presentMergeRequest,
};

const getOne: Handler = (ctx) => json(200, presentMergeRequest(ctx, mrKind.find(ctx).item));

/** Commits on `head` that `base` does not have, newest first. */
function commitsBetween(state: State, base: string, head: string): string[] {
  const inBase = new Set<string>();
  const stack = [base];
  while (stack.length) {
    const sha = stack.pop() as string;
    if (inBase.has(sha)) continue;
    inBase.add(sha);
    stack.push(...(state.commits.get(sha)?.parent_ids ?? []));
  }
  const out: string[] = [];
  let cursor: string | undefined = head;
  while (cursor && !inBase.has(cursor) && out.length < 250) {
    out.push(cursor);
    cursor = state.commits.get(cursor)?.parent_ids[0];
  }
  return out;
}

/** Without file contents, each commit is shown as its changelog line. */
function changelogDiff(state: State, shas: string[]): DiffRecord[] {
  if (!shas.length) return [];
  const lines = [...shas].reverse().map((sha) => `+- ${state.commits.get(sha)?.title ?? sha}`);
  return [
    {
      old_path: 'CHANGELOG.md',
      new_path: 'CHANGELOG.md',
      a_mode: '100644',
      b_mode: '100644',
      diff: `--- a/CHANGELOG.md\n+++ b/CHANGELOG.md\n@@ -1,2 +1,${2 + lines.length} @@\n # Changelog\n \n${lines.join('\n')}\n`,
      new_file: false,
      renamed_file: false,
      deleted_file: false,
    },
  ];
}

const create: Handler = (ctx) => {
  const project = findProject(ctx);
  const title = requireStr(ctx.params, 'title');
  const source = requireStr(ctx.params, 'source_branch');
  const target = requireStr(ctx.params, 'target_branch');
  if (accessLevel(ctx.state, ctx.user, project) < DEVELOPER) throw forbidden();
  const targetProjectId = int(ctx.params, 'target_project_id');
  if (targetProjectId !== undefined && targetProjectId !== project.id) {
    throw invalidRecord({ target_project_id: ['must be this project: forks are not simulated'] });
  }
  if (source === target)
    throw new SimError(400, { message: ["You can't use same project/branch for source and target"] });
  const head = project.branches[source];
  const base = project.branches[target];
  if (!head) throw invalidRecord({ source_branch: ['is invalid'] });
  if (!base) throw invalidRecord({ target_branch: ['is invalid'] });
  const existing = [...ctx.state.mergeRequests.values()].find(
    (m) =>
      m.project_id === project.id &&
      m.source_branch === source &&
      m.target_branch === target &&
      m.state === 'opened' &&
      !m.deleted,
  );
  if (existing) {
    throw new SimError(409, {
      message: [`Cannot Create: This merge request already exists: ["${existing.title}"]`],
    });
  }
  const shas = commitsBetween(ctx.state, base, head);
  const diffs = changelogDiff(ctx.state, shas);
  const iso = ctx.now.toISOString();
  const assigneeId = int(ctx.params, 'assignee_id');
  const removeSource = bool(ctx.params, 'remove_source_branch');
  let headPipeline: number | null = null;
  for (const p of ctx.state.pipelines.values())
    if (p.project_id === project.id && p.ref === source && p.sha === head) headPipeline = p.id;
  const mr: MergeRequestRecord = {
    id: nextId(ctx.state, 'mergeRequests'),
    iid: project.next_mr_iid++,
    project_id: project.id,
    title,
    description: str(ctx.params, 'description') ?? null,
    state: 'opened',
    created_at: iso,
    updated_at: iso,
    labels: readLabels(ctx, project) ?? [],
    milestone_id: readMilestone(ctx, project) ?? null,
    author_id: ctx.user.id,
    subscriber_ids: [ctx.user.id],
    time_estimate: 0,
    total_time_spent: 0,
    source_project_id: project.id,
    target_project_id: project.id,
    source_branch: source,
    target_branch: target,
    assignee_id: assigneeId !== undefined && ctx.state.users.has(assigneeId) ? assigneeId : null,
    merge_when_pipeline_succeeds: false,
    merge_user_id: null,
    merge_status: 'can_be_merged',
    sha: head,
    merge_commit_sha: null,
    // 9.5 sets this only when a merge asks for it; the creation's choice is force_remove_source_branch.
    should_remove_source_branch: null,
    force_remove_source_branch: removeSource ?? false,
    commit_shas: shas,
    diffs,
    head_pipeline_id: headPipeline,
    deleted: false,
  };
  ctx.state.mergeRequests.set(mr.id, mr);
  const versionId = nextId(ctx.state, 'versions');
  ctx.state.versions.set(versionId, {
    id: versionId,
    merge_request_id: mr.id,
    head_commit_sha: head,
    base_commit_sha: base,
    start_commit_sha: base,
    created_at: iso,
    state: 'collected',
    commit_shas: shas,
    diffs,
  });
  recordEvent(
    ctx.state,
    {
      project_id: project.id,
      author_id: ctx.user.id,
      action: 'created',
      target_type: 'MergeRequest',
      target_id: mr.id,
    },
    ctx.now,
  );
  if (mr.assignee_id !== null && mr.assignee_id !== ctx.user.id) {
    createTodo(ctx.state, {
      user_id: mr.assignee_id,
      author_id: ctx.user.id,
      project_id: project.id,
      action_name: 'assigned',
      target_type: 'MergeRequest',
      target_id: mr.id,
      at: ctx.now,
    });
    mr.subscriber_ids.push(mr.assignee_id);
  }
  return json(201, presentMergeRequest(ctx, mr));
};

const UPDATE_PARAMS = [
  'title',
  'target_branch',
  'assignee_id',
  'description',
  'state_event',
  'labels',
  'milestone_id',
  'remove_source_branch',
];

const update: Handler = (ctx) => {
  const { project, item: mr } = mrKind.find(ctx);
  if (!UPDATE_PARAMS.some((k) => has(ctx.params, k))) {
    throw paramError(`${UPDATE_PARAMS.join(', ')} are missing, at least one parameter must be provided`);
  }
  if (!canUpdateMergeRequest(ctx.state, ctx.user, project, mr)) throw forbidden();
  const title = str(ctx.params, 'title');
  if (title !== undefined) mr.title = title;
  const description = str(ctx.params, 'description');
  if (description !== undefined) mr.description = description;
  const targetBranch = str(ctx.params, 'target_branch');
  if (targetBranch !== undefined) {
    if (!project.branches[targetBranch]) throw invalidRecord({ target_branch: ['is invalid'] });
    mr.target_branch = targetBranch;
  }
  if (has(ctx.params, 'assignee_id')) {
    const id = int(ctx.params, 'assignee_id');
    mr.assignee_id = id !== undefined && ctx.state.users.has(id) ? id : null;
  }
  const labels = readLabels(ctx, project);
  if (labels !== undefined) mr.labels = labels;
  const milestone = readMilestone(ctx, project);
  if (milestone !== undefined) mr.milestone_id = milestone;
  const remove = bool(ctx.params, 'remove_source_branch');
  if (remove !== undefined) mr.force_remove_source_branch = remove;
  const event = oneOf(ctx.params, 'state_event', ['close', 'reopen'] as const);
  if (event === 'close' && mr.state === 'opened') {
    mr.state = 'closed';
    mr.merge_when_pipeline_succeeds = false;
    recordEvent(
      ctx.state,
      {
        project_id: project.id,
        author_id: ctx.user.id,
        action: 'closed',
        target_type: 'MergeRequest',
        target_id: mr.id,
      },
      ctx.now,
    );
  } else if (event === 'reopen' && mr.state === 'closed') {
    mr.state = 'opened';
    recordEvent(
      ctx.state,
      {
        project_id: project.id,
        author_id: ctx.user.id,
        action: 'reopened',
        target_type: 'MergeRequest',
        target_id: mr.id,
      },
      ctx.now,
    );
  }
  mr.updated_at = ctx.now.toISOString();
  return json(200, presentMergeRequest(ctx, mr));
};

const remove: Handler = (ctx) => {
  const { project, item: mr } = mrKind.find(ctx);
  if (accessLevel(ctx.state, ctx.user, project) < OWNER) throw forbidden();
  mr.deleted = true;
  return empty(204);
};

const commits: Handler = (ctx) => {
  const { item: mr } = mrKind.find(ctx);
  return json(
    200,
    mr.commit_shas.flatMap((sha) => {
      const c = ctx.state.commits.get(sha);
      return c ? [presentCommit(c)] : [];
    }),
  );
};

const changes: Handler = (ctx) => {
  const { item: mr } = mrKind.find(ctx);
  return json(200, { ...presentMergeRequest(ctx, mr), changes: mr.diffs.map((d) => ({ ...d })) });
};

function versionsOf(state: State, mr: MergeRequestRecord) {
  return [...state.versions.values()].filter((v) => v.merge_request_id === mr.id).sort((a, b) => b.id - a.id);
}

const versions: Handler = (ctx) => {
  const { item: mr } = mrKind.find(ctx);
  return paginate(ctx, versionsOf(ctx.state, mr), (v) => presentVersion(ctx, v, false));
};

const version: Handler = (ctx) => {
  const { item: mr } = mrKind.find(ctx);
  const v = ctx.state.versions.get(Number(ctx.route.version_id));
  if (!v || v.merge_request_id !== mr.id) throw notFound();
  return json(200, presentVersion(ctx, v, true));
};

const closesIssues: Handler = (ctx) => {
  const { project, item: mr } = mrKind.find(ctx);
  const iids = closedIssueIids(ctx, mr);
  const issues = [...ctx.state.issues.values()].filter(
    (i) => i.project_id === project.id && iids.includes(i.iid) && canReadIssue(ctx.state, ctx.user, project, i),
  );
  return paginate(ctx, issues, (i) => presentIssueBasic(ctx, i));
};

function headPipelineActive(ctx: RequestContext, mr: MergeRequestRecord): boolean {
  const p = mr.head_pipeline_id === null ? undefined : ctx.state.pipelines.get(mr.head_pipeline_id);
  return p !== undefined && p.sha === mr.sha && ACTIVE.includes(p.status);
}

const merge: Handler = (ctx) => {
  const { project, item: mr } = mrKind.find(ctx);
  if (accessLevel(ctx.state, ctx.user, project) < DEVELOPER) throw unauthorized();
  if (mr.state !== 'opened') throw apiError(406, 'Branch cannot be merged');
  if (mr.merge_status === 'cannot_be_merged' || isWorkInProgress(mr.title)) throw notAllowed();
  const sha = str(ctx.params, 'sha');
  if (sha !== undefined && sha !== mr.sha) throw conflict(`SHA does not match HEAD of source branch: ${mr.sha}`);
  const removeSource = bool(ctx.params, 'should_remove_source_branch');
  if (bool(ctx.params, 'merge_when_pipeline_succeeds') && headPipelineActive(ctx, mr)) {
    mr.merge_when_pipeline_succeeds = true;
    mr.merge_user_id = ctx.user.id;
    if (removeSource !== undefined) mr.should_remove_source_branch = removeSource;
    mr.updated_at = ctx.now.toISOString();
  } else {
    const commitMessage = str(ctx.params, 'merge_commit_message');
    mergeMergeRequest(ctx.state, mr, {
      userId: ctx.user.id,
      at: ctx.now,
      ...(commitMessage ? { commitMessage } : {}),
      ...(removeSource !== undefined ? { removeSourceBranch: removeSource } : {}),
    });
  }
  return json(200, presentMergeRequest(ctx, mr));
};

/** The documented PUT: 200 with the merge request, 405 when not open, 406 when not set. */
const cancelAutoMergePut: Handler = (ctx) => {
  const { project, item: mr } = mrKind.find(ctx);
  if (!canUpdateMergeRequest(ctx.state, ctx.user, project, mr)) throw unauthorized();
  if (mr.state !== 'opened') throw notAllowed();
  if (!mr.merge_when_pipeline_succeeds) throw apiError(406, '406 Not Acceptable');
  mr.merge_when_pipeline_succeeds = false;
  mr.merge_user_id = null;
  mr.updated_at = ctx.now.toISOString();
  return json(200, presentMergeRequest(ctx, mr));
};

/** The 9.5 server's POST route: 201 with the service result, even when it could not cancel. */
const cancelAutoMergePost: Handler = (ctx) => {
  const { project, item: mr } = mrKind.find(ctx);
  if (!canUpdateMergeRequest(ctx.state, ctx.user, project, mr)) throw unauthorized();
  if (mr.state !== 'opened' || !mr.merge_when_pipeline_succeeds) {
    return json(201, { message: "Can't cancel the automatic merge", status: 'error', http_status: 406 });
  }
  mr.merge_when_pipeline_succeeds = false;
  mr.merge_user_id = null;
  mr.updated_at = ctx.now.toISOString();
  return json(201, { status: 'success' });
};

const MR = '/projects/:id/merge_requests/:merge_request_iid';

export const mergeRequestRoutes: Route[] = [
  ['GET', '/merge_requests', listAll],
  ['GET', '/projects/:id/merge_requests', listProject],
  ['POST', '/projects/:id/merge_requests', create],
  ['GET', MR, getOne],
  ['PUT', MR, update],
  ['DELETE', MR, remove],
  ['GET', `${MR}/commits`, commits],
  ['GET', `${MR}/changes`, changes],
  ['GET', `${MR}/versions`, versions],
  ['GET', `${MR}/versions/:version_id`, version],
  ['GET', `${MR}/closes_issues`, closesIssues],
  ['PUT', `${MR}/merge`, merge],
  ['PUT', `${MR}/cancel_merge_when_pipeline_succeeds`, cancelAutoMergePut],
  ['POST', `${MR}/cancel_merge_when_pipeline_succeeds`, cancelAutoMergePost],
  ...timeRoutes(MR, mrKind),
];
