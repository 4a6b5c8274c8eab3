import { account } from './account.js';
import { deployments } from './deployments.js';
import { digests } from './digests.js';
import { jobs } from './jobs.js';
import { pipelines } from './pipelines.js';
import { schedules } from './schedules.js';
import type { Noun } from './types.js';

/** Every noun the bot carries out. Adding a noun is its own files and one line here. */
export const NOUNS: readonly Noun[] = [account, jobs, pipelines, schedules, deployments, digests];
