import type { Refusal } from '../errors.js';
import type { Resource } from '../gitlab/project.js';
import { digestRefusal } from './digests.js';
import { jobRefusal } from './jobs.js';
import type { Md } from './mrkdwn.js';
import { pipelineRefusal } from './pipelines.js';
import { scheduleRefusal } from './schedules.js';

/** The words for a refusal of an action on a resource; null when the status says it best. */
export type RefusalWords = (r: Refusal, label: string) => Md | null;

/** Each noun's view says why its actions are refused. */
export const REFUSALS: Partial<Record<Resource['kind'], RefusalWords>> = {
  digest: digestRefusal,
  job: jobRefusal,
  pipeline: pipelineRefusal,
  schedule: scheduleRefusal,
};
