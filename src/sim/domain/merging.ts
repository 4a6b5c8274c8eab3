// Merging a merge request: the merge commit, the branch moves, the issues its
// description closes get closed, and the activity feed hears of it.

import type { MergeRequestRecord, State } from '../model.js';
import { closedIssueIids, projectPath } from '../present.js';
import { recordEvent } from './activity.js';
import { createCommit } from './commits.js';

export interface MergeOptions {
  /** Who merges (a user id). */
  userId: number;
  at: Date;
  commitMessage?: string;
  removeSourceBranch?: boolean;
}

export function mergeMergeRequest(state: State, mr: MergeRequestRecord, options: MergeOptions): void {
  const { userId, at } = options;
  const project = state.projects.get(mr.target_project_id);
  const user = state.users.get(userId);
  if (!project || !user) return;
  const targetHead = project.branches[mr.target_branch];
  const path = projectPath(state, project);
  const message =
    options.commitMessage ??
    `Merge branch '${mr.source_branch}' into '${mr.target_branch}'\n\n${mr.title}\n\nSee merge request ${path}!${mr.iid}`;
  const commit = createCommit(state, {
    message,
    author: user,
    parents: targetHead ? [targetHead, mr.sha] : [mr.sha],
    at,
  });
  project.branches[mr.target_branch] = commit.id;
  mr.state = 'merged';
  mr.merge_commit_sha = commit.id;
  mr.merge_when_pipeline_succeeds = false;
  mr.updated_at = at.toISOString();
  if (options.removeSourceBranch !== undefined) mr.should_remove_source_branch = options.removeSourceBranch;
  if ((mr.should_remove_source_branch || mr.force_remove_source_branch) && mr.source_project_id === project.id) {
    delete project.branches[mr.source_branch];
  }
  recordEvent(
    state,
    { project_id: project.id, author_id: userId, action: 'merged', target_type: 'MergeRequest', target_id: mr.id },
    at,
  );
  if (mr.target_branch === project.default_branch) {
    const iids = new Set(closedIssueIids({ state }, mr));
    for (const issue of state.issues.values()) {
      if (issue.project_id !== project.id || !iids.has(issue.iid) || issue.state !== 'opened' || issue.deleted)
        continue;
      issue.state = 'closed';
      issue.closed_at = at.toISOString();
      issue.updated_at = at.toISOString();
      recordEvent(
        state,
        { project_id: project.id, author_id: userId, action: 'closed', target_type: 'Issue', target_id: issue.id },
        at,
      );
    }
  }
  for (const todo of state.todos.values()) {
    if (todo.target_type === 'MergeRequest' && todo.target_id === mr.id && todo.user_id === userId) todo.state = 'done';
  }
}
