// A push to a branch, as `git push` would make it: a new commit on the branch, the push event, and
// what it means for open merge requests. A merge request whose source branch moved gets the new head
// and a new diff version (a merge pinned to the old head is then refused with 409); one whose target
// branch now changes a file it also changes is marked as conflicting (a merge is refused with 405).

import type { CommitRecord, DiffRecord, ProjectRecord, State, UserRecord } from '../model.js';
import { nextId } from '../model.js';
import { recordEvent } from './activity.js';
import { createCommit } from './commits.js';

export interface PushInput {
  branch: string;
  author: UserRecord;
  /** The commit message; by default it names the files. */
  message?: string;
  /** The files the commit changes (default: CHANGELOG.md). */
  files?: readonly string[];
  /** Lines the commit adds to each file (default 1). */
  lines?: number;
}

function fileDiff(path: string, title: string, lines: number): DiffRecord {
  const added = Array.from({ length: lines }, (_, i) => `+${title} (${i + 1})`);
  return {
    old_path: path,
    new_path: path,
    a_mode: '100644',
    b_mode: '100644',
    diff: `--- a/${path}\n+++ b/${path}\n@@ -1,0 +1,${lines} @@\n${added.join('\n')}\n`,
    new_file: false,
    renamed_file: false,
    deleted_file: false,
  };
}

/** Pushes one commit onto an existing branch; the caller checks that the branch exists. */
export function pushToBranch(state: State, project: ProjectRecord, input: PushInput, at: Date): CommitRecord {
  const files = input.files && input.files.length > 0 ? input.files : ['CHANGELOG.md'];
  const lines = input.lines ?? 1;
  const before = project.branches[input.branch] ?? null;
  const message = input.message ?? `Update ${files.length === 1 ? files[0] : `${files.length} files`}`;
  const commit = createCommit(state, {
    message,
    author: input.author,
    parents: before ? [before] : [],
    at,
  });
  project.branches[input.branch] = commit.id;
  recordEvent(
    state,
    {
      project_id: project.id,
      author_id: input.author.id,
      action: 'pushed',
      target_type: null,
      target_id: null,
      push_data: {
        commit_count: 1,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: before,
        commit_to: commit.id,
        ref: input.branch,
        commit_title: commit.title,
      },
    },
    at,
  );

  const pushed = files.map((path) => fileDiff(path, commit.title, lines));
  const touched = new Set(files);
  const iso = at.toISOString();
  for (const mr of state.mergeRequests.values()) {
    if (mr.deleted || mr.state !== 'opened' || mr.target_project_id !== project.id) continue;
    if (mr.source_branch === input.branch && mr.source_project_id === project.id) {
      mr.sha = commit.id;
      mr.commit_shas = [commit.id, ...mr.commit_shas];
      mr.diffs = [...mr.diffs.filter((d) => !touched.has(d.new_path)), ...pushed];
      // The new head has no pipeline yet.
      mr.head_pipeline_id = null;
      mr.updated_at = iso;
      const previous = [...state.versions.values()]
        .filter((v) => v.merge_request_id === mr.id)
        .sort((a, b) => b.id - a.id)[0];
      const base = previous?.base_commit_sha ?? project.branches[mr.target_branch] ?? commit.id;
      const id = nextId(state, 'versions');
      state.versions.set(id, {
        id,
        merge_request_id: mr.id,
        head_commit_sha: commit.id,
        base_commit_sha: base,
        start_commit_sha: previous?.start_commit_sha ?? base,
        created_at: iso,
        state: 'collected',
        commit_shas: [...mr.commit_shas],
        diffs: mr.diffs.map((d) => ({ ...d })),
      });
    } else if (mr.target_branch === input.branch && mr.diffs.some((d) => touched.has(d.new_path))) {
      mr.merge_status = 'cannot_be_merged';
      mr.updated_at = iso;
    }
  }
  return commit;
}
