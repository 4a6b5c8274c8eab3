import type { Refusal } from '../errors.js';
import type { Resource } from '../gitlab/project.js';
import { awardRefusal } from './awards.js';
import { digestRefusal } from './digests.js';
import { issueRefusal } from './issues.js';
import { jobRefusal } from './jobs.js';
import { keyRefusal } from './keys.js';
import { mergeRequestRefusal } from './merge-requests.js';
import type { Md } from './mrkdwn.js';
import { pipelineRefusal, refRefusal } from './pipelines.js';
import { scheduleRefusal } from './schedules.js';
import { todoRefusal } from './todos.js';
import { watchRefusal } from './watches.js';

/** The words for a refusal of an action on a resource; null when the status says it best. */
export type RefusalWords = (r: Refusal, label: string) => Md | null;

/** Each noun's view says why its actions are refused. */
export const REFUSALS: Partial<Record<Resource['kind'], RefusalWords>> = {
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
