// Commits the simulator makes up (merges, pushes, seeds): deterministic SHAs
// from their content, so a data set is the same on every start.

import { createHash } from 'node:crypto';
import type { CommitRecord, State, UserRecord } from '../model.js';
import { nextId } from '../model.js';

export function fakeSha(seed: string): string {
  return createHash('sha1').update(seed).digest('hex');
}

export interface CommitInput {
  message: string;
  author: Pick<UserRecord, 'name' | 'email'>;
  parents: string[];
  at: Date;
}

export function createCommit(state: State, input: CommitInput): CommitRecord {
  const n = nextId(state, 'commits');
  const id = fakeSha(`commit ${n} ${input.message} ${input.parents.join(' ')}`);
  const iso = input.at.toISOString();
  const commit: CommitRecord = {
    id,
    short_id: id.slice(0, 8),
    title: input.message.split('\n')[0] ?? '',
    message: input.message,
    author_name: input.author.name,
    author_email: input.author.email,
    authored_date: iso,
    committer_name: input.author.name,
    committer_email: input.author.email,
    committed_date: iso,
    created_at: iso,
    parent_ids: input.parents,
  };
  state.commits.set(id, commit);
  return commit;
}
