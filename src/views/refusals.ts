import type { Refusal, RefusalReason } from '../errors.js';
import { projectLabel, type Resource } from '../gitlab/project.js';
import { awardRefusal } from './awards.js';
import { digestRefusal } from './digests.js';
import { issueRefusal } from './issues.js';
import { jobRefusal } from './jobs.js';
import { keyRefusal } from './keys.js';
import { mergeRequestRefusal } from './merge-requests.js';
import { type Md, md } from './mrkdwn.js';
import { pipelineRefusal, refRefusal } from './pipelines.js';
import { scheduleRefusal } from './schedules.js';
import { todoRefusal } from './todos.js';
import { watchRefusal } from './watches.js';

/** The words for a refusal of an action on a resource; null when the status says it best. */
export type RefusalWords = (r: Refusal, label: string) => Md | null;

/** Each noun's view says why its actions are refused. */
const REFUSALS: Partial<Record<Resource['kind'], RefusalWords>> = {
  digest: digestRefusal,
  job: jobRefusal,
  pipeline: pipelineRefusal,
  ref: refRefusal,
  schedule: scheduleRefusal,
  todo: todoRefusal,
  key: keyRefusal,
  award: awardRefusal,
  issue: issueRefusal,
  merge_request: mergeRequestRefusal,
  watch: watchRefusal,
};

/** What a list read of a project reads, for "You may not see the pipeline schedules of demo/web". */
const READS: Record<string, string> = {
  'list-schedules': 'pipeline schedules',
  'list-deployments': 'deployments',
  'list-jobs': 'jobs',
};

function roleRefusal(r: Refusal, label: string): Md | null {
  if (!r.reason?.startsWith('role:')) return null;
  const what =
    r.subject.kind === 'project' && READS[r.action]
      ? `the ${READS[r.action]} of ${projectLabel(r.subject.project)}`
      : label.replace(/^[A-Z]/, (c) => c.toLowerCase());
  return md`You may not see ${what} (${r.status ?? '?'}): that needs at least the ${r.reason.slice(5)} role in the project.`;
}

function artifactsRefusal(r: Refusal, label: string): Md | null {
  return r.subject.kind === 'artifacts'
    ? md`${label} has no artifacts: there is no successful “${r.subject.job}” job on ${r.subject.ref}, or no access (404).`
    : r.action === 'keep'
      ? md`${label} has no artifacts to keep, or it was not found (404).`
      : md`${label} has no artifacts, or it was not found (404).`;
}

/** Words of the noun the refusal is about, for reasons several nouns give (each words its own). */
const bySubject: RefusalWords = (r, label) => REFUSALS[r.subject.kind]?.(r, label) ?? null;

/** A reason without what follows its colon: `role:Reporter` is `role`, `no_target:demo/x` is `no_target`. */
type ReasonName = RefusalReason extends infer R ? (R extends `${infer Name}:${string}` ? Name : R) : never;

const reasonName = (reason: RefusalReason) => reason.split(':')[0] as ReasonName;

/**
 * Who words each reason. Every reason is a key, so a new reason (or a typo of one) without words does not
 * compile. A reason's words may still say nothing for an action they do not know; the noun's words for the
 * status follow then.
 */
const REASON_WORDS: Record<ReasonName, RefusalWords> = {
  role: roleRefusal,
  no_artifacts: artifactsRefusal,
  not_manual: jobRefusal,
  no_ref: refRefusal,
  move: issueRefusal,
  time: issueRefusal,
  admin: issueRefusal,
  no_agent: issueRefusal,
  no_target: issueRefusal,
  merge_denied: mergeRequestRefusal,
  not_mergeable: mergeRequestRefusal,
  not_mergeable_now: mergeRequestRefusal,
  not_auto_merging: mergeRequestRefusal,
  not_open: mergeRequestRefusal,
  sha_moved: mergeRequestRefusal,
  owner_only: mergeRequestRefusal,
  // mr create answers it with the merge request that exists; anywhere else the status says it.
  exists: bySubject,
  not_yours: bySubject,
  not_pending: todoRefusal,
  admin_only: keyRefusal,
  no_key: keyRefusal,
  // Digests and watches each say who may change them and that one is gone.
  not_owner: bySubject,
  elsewhere: digestRefusal,
  gone: bySubject,
  unknown_emoji: awardRefusal,
  not_allowed: awardRefusal,
};

/** A refusal in words: its reason's, else its noun's for the status; null when the status says it best. */
export function refusalWords(r: Refusal, label: string): Md | null {
  const forReason = r.reason ? REASON_WORDS[reasonName(r.reason)](r, label) : null;
  return forReason ?? bySubject(r, label);
}
