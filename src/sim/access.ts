// The permission model, GitLab-like:
//
// - admin (root): may do everything everywhere.
// - member levels, highest of project and group membership: owner 50 > master 40
//   > developer 30 > reporter 20 > guest 10.
// - a public project is readable by every authenticated user; a non-member
//   there acts like a guest: reads issues, merge requests, jobs, pipelines and
//   events, opens issues, comments, awards emoji, subscribes, adds todos.
// - a private project does not exist for non-members: 404 everywhere.
// - reporter+: deployments, pipeline schedules, confidential issues, editing
//   and moving any issue, time tracking.
// - developer+: job and pipeline actions (403 otherwise), creating schedules and
//   merge requests, editing any merge request, merging (401 otherwise).
// - schedule edit / take ownership / delete: master+ or the schedule's owner.
// - issue and merge request authors (and issue assignees) may edit theirs.
// - owner or admin: deleting issues and merge requests, setting
//   created_at/updated_at on issues (silently ignored for others).
// - admin only: GET /keys/:id, issue user_agent_detail.
// - an award emoji is removed by its author or an admin (401 otherwise).

import type { IssueRecord, MergeRequestRecord, ProjectRecord, State, UserRecord } from './model.js';

export const GUEST = 10;
export const REPORTER = 20;
export const DEVELOPER = 30;
export const MASTER = 40;
export const OWNER = 50;

/** The caller's access level in a project (admins count as owners). */
export function accessLevel(state: State, user: UserRecord, project: ProjectRecord): number {
  if (user.admin) return OWNER;
  let level = 0;
  for (const m of project.members) if (m.user_id === user.id && m.access_level > level) level = m.access_level;
  const group = state.groups.get(project.group_id);
  if (group) for (const m of group.members) if (m.user_id === user.id && m.access_level > level) level = m.access_level;
  return level;
}

export function canReadProject(state: State, user: UserRecord, project: ProjectRecord): boolean {
  return project.visibility !== 'private' || accessLevel(state, user, project) >= GUEST;
}

export function canReadIssue(state: State, user: UserRecord, project: ProjectRecord, issue: IssueRecord): boolean {
  if (issue.deleted || !canReadProject(state, user, project)) return false;
  if (!issue.confidential) return true;
  return (
    accessLevel(state, user, project) >= REPORTER || issue.author_id === user.id || issue.assignee_ids.includes(user.id)
  );
}

export function canUpdateIssue(state: State, user: UserRecord, project: ProjectRecord, issue: IssueRecord): boolean {
  return (
    accessLevel(state, user, project) >= REPORTER || issue.author_id === user.id || issue.assignee_ids.includes(user.id)
  );
}

export function canUpdateMergeRequest(
  state: State,
  user: UserRecord,
  project: ProjectRecord,
  mr: MergeRequestRecord,
): boolean {
  return accessLevel(state, user, project) >= DEVELOPER || mr.author_id === user.id;
}
