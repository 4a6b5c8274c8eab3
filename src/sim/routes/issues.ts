// Issues: the three lists, one issue, create / edit / close / reopen / delete,
// move, closed_by, user_agent_detail, plus the shared issuable calls.

import { accessLevel, canReadIssue, canReadProject, canUpdateIssue, OWNER, REPORTER } from '../access.js';
import { recordEvent } from '../domain/activity.js';
import { empty, type Handler, json, type RequestContext } from '../http/context.js';
import { apiError, forbidden, notFound, paramError } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { bool, date, dateTime, has, int, intList, requireInt, str } from '../http/params.js';
import type { Route } from '../http/router.js';
import { findGroup, findIssue, findProject } from '../lookup.js';
import type { IssueRecord, ProjectRecord } from '../model.js';
import { nextId } from '../model.js';
import { closedIssueIids, presentIssue, presentIssueBasic, presentMergeRequestBasic, projectPath } from '../present.js';
import { createTodo, filterIssuables, type IssuableKind, readLabels, readMilestone, timeRoutes } from './issuables.js';

const STATES = ['opened', 'closed'] as const;

function visibleIssues(ctx: RequestContext, pick: (p: ProjectRecord) => boolean): IssueRecord[] {
  const out: IssueRecord[] = [];
  for (const i of ctx.state.issues.values()) {
    const project = ctx.state.projects.get(i.project_id);
    if (project && pick(project) && canReadIssue(ctx.state, ctx.user, project, i)) out.push(i);
  }
  return out;
}

const listAllIssues: Handler = (ctx) => {
  const items = visibleIssues(ctx, () => true);
  return paginate(ctx, filterIssuables(ctx, items, { defaultScope: 'created-by-me', states: STATES }), (i) =>
    presentIssueBasic(ctx, i),
  );
};

const listGroupIssues: Handler = (ctx) => {
  const group = findGroup(ctx);
  const items = visibleIssues(ctx, (p) => p.group_id === group.id);
  return paginate(ctx, filterIssuables(ctx, items, { defaultScope: 'all', states: STATES }), (i) =>
    presentIssueBasic(ctx, i),
  );
};

const listProjectIssues: Handler = (ctx) => {
  const project = findProject(ctx);
  const items = visibleIssues(ctx, (p) => p.id === project.id);
  return paginate(ctx, filterIssuables(ctx, items, { defaultScope: 'all', states: STATES }), (i) =>
    presentIssueBasic(ctx, i),
  );
};

const issueKind: IssuableKind<IssueRecord> = {
  type: 'Issue',
  find(ctx) {
    const project = findProject(ctx);
    return { project, item: findIssue(ctx, project) };
  },
  canUpdate: (ctx, project, issue) => canUpdateIssue(ctx.state, ctx.user, project, issue),
  present: presentIssue,
};

const getIssue: Handler = (ctx) => json(200, presentIssue(ctx, issueKind.find(ctx).item));

/** Only admins and project owners may set timestamps; for others GitLab drops the parameter. */
function ownerOrAdmin(ctx: RequestContext, project: ProjectRecord): boolean {
  return accessLevel(ctx.state, ctx.user, project) >= OWNER;
}

function readAssignees(ctx: RequestContext): number[] | undefined {
  const ids = intList(ctx.params, 'assignee_ids') ?? (has(ctx.params, 'assignee_id') ? [] : undefined);
  const single = int(ctx.params, 'assignee_id');
  const wanted = ids?.length ? ids : single !== undefined && single > 0 ? [single] : ids;
  return wanted?.filter((id) => ctx.state.users.has(id));
}

function notifyAssignees(ctx: RequestContext, project: ProjectRecord, issue: IssueRecord, ids: number[]): void {
  for (const id of ids) {
    if (id === ctx.user.id) continue;
    createTodo(ctx.state, {
      user_id: id,
      author_id: ctx.user.id,
      project_id: project.id,
      action_name: 'assigned',
      target_type: 'Issue',
      target_id: issue.id,
      at: ctx.now,
    });
    if (!issue.subscriber_ids.includes(id)) issue.subscriber_ids.push(id);
  }
}

function discussionToResolve(
  ctx: RequestContext,
  project: ProjectRecord,
): { title: string; description: string } | null {
  const mrIid = int(ctx.params, 'merge_request_to_resolve_discussions_of');
  if (mrIid === undefined) return null;
  const mr = [...ctx.state.mergeRequests.values()].find(
    (m) => m.project_id === project.id && m.iid === mrIid && !m.deleted,
  );
  if (!mr) throw notFound('Merge Request');
  const discussion = str(ctx.params, 'discussion_to_resolve');
  const notes = [...ctx.state.notes.values()].filter(
    (n) =>
      n.noteable_type === 'MergeRequest' && n.noteable_id === mr.id && (!discussion || String(n.id) === discussion),
  );
  const quoted = notes.map((n) => `> ${n.body.split('\n').join('\n> ')}`).join('\n\n');
  return {
    title: `Follow-up from "${mr.title}"`,
    description: `The following discussion from ${projectPath(ctx.state, project)}!${mr.iid} should be addressed:\n\n${quoted}`,
  };
}

const createIssue: Handler = (ctx) => {
  const project = findProject(ctx);
  const followUp = discussionToResolve(ctx, project);
  const title = str(ctx.params, 'title')?.trim() || followUp?.title;
  if (!title) throw paramError('title is missing');
  const privileged = ownerOrAdmin(ctx, project);
  const createdAt = privileged ? dateTime(ctx.params, 'created_at') : undefined;
  const at = createdAt === undefined ? ctx.now : new Date(createdAt);
  const assignees = readAssignees(ctx) ?? [];
  const issue: IssueRecord = {
    id: nextId(ctx.state, 'issues'),
    iid: project.next_issue_iid++,
    project_id: project.id,
    title,
    description: str(ctx.params, 'description') ?? followUp?.description ?? null,
    state: 'opened',
    created_at: at.toISOString(),
    updated_at: at.toISOString(),
    closed_at: null,
    labels: readLabels(ctx, project) ?? [],
    milestone_id: readMilestone(ctx, project) ?? null,
    author_id: ctx.user.id,
    assignee_ids: assignees,
    subscriber_ids: [ctx.user.id],
    confidential: bool(ctx.params, 'confidential') ?? false,
    due_date: date(ctx.params, 'due_date') ?? null,
    time_estimate: 0,
    total_time_spent: 0,
    user_agent: { user_agent: ctx.userAgent, ip_address: ctx.clientIp, akismet_submitted: false },
    moved_to_id: null,
    deleted: false,
  };
  ctx.state.issues.set(issue.id, issue);
  recordEvent(
    ctx.state,
    { project_id: project.id, author_id: ctx.user.id, action: 'created', target_type: 'Issue', target_id: issue.id },
    ctx.now,
  );
  notifyAssignees(ctx, project, issue, assignees);
  return json(201, presentIssue(ctx, issue));
};

const UPDATE_PARAMS = [
  'title',
  'description',
  'assignee_ids',
  'assignee_id',
  'milestone_id',
  'labels',
  'due_date',
  'confidential',
  'state_event',
];

function setState(ctx: RequestContext, project: ProjectRecord, issue: IssueRecord, event: string | undefined): void {
  if (event === undefined) return;
  if (event !== 'close' && event !== 'reopen') throw paramError('state_event does not have a valid value');
  const target = event === 'close' ? 'closed' : 'opened';
  if (issue.state === target) return;
  issue.state = target;
  issue.closed_at = target === 'closed' ? ctx.now.toISOString() : null;
  recordEvent(
    ctx.state,
    {
      project_id: project.id,
      author_id: ctx.user.id,
      action: target === 'closed' ? 'closed' : 'reopened',
      target_type: 'Issue',
      target_id: issue.id,
    },
    ctx.now,
  );
}

const updateIssue: Handler = (ctx) => {
  const { project, item: issue } = issueKind.find(ctx);
  if (!UPDATE_PARAMS.some((k) => has(ctx.params, k))) {
    throw paramError(`${UPDATE_PARAMS.join(', ')} are missing, at least one parameter must be provided`);
  }
  if (!canUpdateIssue(ctx.state, ctx.user, project, issue)) throw forbidden();
  const title = str(ctx.params, 'title');
  if (title !== undefined) {
    if (title.trim() === '') throw paramError('title is empty');
    issue.title = title;
  }
  const description = str(ctx.params, 'description');
  if (description !== undefined) issue.description = description;
  const assignees = readAssignees(ctx);
  if (assignees !== undefined) {
    const added = assignees.filter((id) => !issue.assignee_ids.includes(id));
    issue.assignee_ids = assignees;
    notifyAssignees(ctx, project, issue, added);
  }
  const milestone = readMilestone(ctx, project);
  if (milestone !== undefined) issue.milestone_id = milestone;
  const labels = readLabels(ctx, project);
  if (labels !== undefined) issue.labels = labels;
  if (has(ctx.params, 'due_date'))
    issue.due_date = str(ctx.params, 'due_date') === '' ? null : (date(ctx.params, 'due_date') ?? null);
  const confidential = bool(ctx.params, 'confidential');
  if (confidential !== undefined) issue.confidential = confidential;
  setState(ctx, project, issue, str(ctx.params, 'state_event'));
  const updatedAt = ownerOrAdmin(ctx, project) ? dateTime(ctx.params, 'updated_at') : undefined;
  issue.updated_at = new Date(updatedAt ?? ctx.now.getTime()).toISOString();
  return json(200, presentIssue(ctx, issue));
};

const deleteIssue: Handler = (ctx) => {
  const { project, item: issue } = issueKind.find(ctx);
  if (!ownerOrAdmin(ctx, project)) throw forbidden();
  issue.deleted = true;
  recordEvent(
    ctx.state,
    { project_id: project.id, author_id: ctx.user.id, action: 'destroyed', target_type: 'Issue', target_id: issue.id },
    ctx.now,
  );
  return empty(204);
};

const moveIssue: Handler = (ctx) => {
  const { project, item: issue } = issueKind.find(ctx);
  const targetId = requireInt(ctx.params, 'to_project_id');
  const target = ctx.state.projects.get(targetId);
  if (!target || !canReadProject(ctx.state, ctx.user, target)) throw notFound('Project');
  if (target.id === project.id) throw apiError(400, 'Cannot move issue to project it originates from!');
  if (
    issue.moved_to_id !== null ||
    accessLevel(ctx.state, ctx.user, project) < REPORTER ||
    accessLevel(ctx.state, ctx.user, target) < REPORTER
  ) {
    throw apiError(400, 'Cannot move issue due to insufficient permissions!');
  }
  const milestoneTitle = issue.milestone_id === null ? null : ctx.state.milestones.get(issue.milestone_id)?.title;
  const milestone = [...ctx.state.milestones.values()].find(
    (m) => m.project_id === target.id && m.title === milestoneTitle,
  );
  const moved: IssueRecord = {
    ...issue,
    id: nextId(ctx.state, 'issues'),
    iid: target.next_issue_iid++,
    project_id: target.id,
    created_at: ctx.now.toISOString(),
    updated_at: ctx.now.toISOString(),
    labels: issue.labels.filter((l) => target.labels.includes(l)),
    milestone_id: milestone?.id ?? null,
    subscriber_ids: [...issue.subscriber_ids],
    assignee_ids: [...issue.assignee_ids],
    user_agent: issue.user_agent ? { ...issue.user_agent } : null,
    moved_to_id: null,
    state: 'opened',
    closed_at: null,
  };
  ctx.state.issues.set(moved.id, moved);
  issue.moved_to_id = moved.id;
  setState(ctx, project, issue, 'close');
  issue.updated_at = ctx.now.toISOString();
  recordEvent(
    ctx.state,
    { project_id: target.id, author_id: ctx.user.id, action: 'created', target_type: 'Issue', target_id: moved.id },
    ctx.now,
  );
  return json(201, presentIssue(ctx, moved));
};

const closedBy: Handler = (ctx) => {
  const { project, item: issue } = issueKind.find(ctx);
  const mrs = [...ctx.state.mergeRequests.values()].filter(
    (m) => m.target_project_id === project.id && !m.deleted && closedIssueIids(ctx, m).includes(issue.iid),
  );
  return paginate(ctx, mrs, (m) => presentMergeRequestBasic(ctx, m));
};

const userAgentDetail: Handler = (ctx) => {
  const { item: issue } = issueKind.find(ctx);
  if (!ctx.user.admin) throw forbidden();
  if (!issue.user_agent) throw notFound('UserAgentDetail');
  return json(200, { ...issue.user_agent });
};

const ISSUE = '/projects/:id/issues/:issue_iid';

export const issueRoutes: Route[] = [
  ['GET', '/issues', listAllIssues],
  ['GET', '/groups/:id/issues', listGroupIssues],
  ['GET', '/projects/:id/issues', listProjectIssues],
  ['POST', '/projects/:id/issues', createIssue],
  ['GET', ISSUE, getIssue],
  ['PUT', ISSUE, updateIssue],
  ['DELETE', ISSUE, deleteIssue],
  ['POST', `${ISSUE}/move`, moveIssue],
  ['GET', `${ISSUE}/closed_by`, closedBy],
  ['GET', `${ISSUE}/user_agent_detail`, userAgentDetail],
  ...timeRoutes(ISSUE, issueKind),
];
