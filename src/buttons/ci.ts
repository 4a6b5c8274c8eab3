import { z } from 'zod';
import { defineButtons, Id, ListPlace, ProjectKeySchema } from '../ids.js';

// The buttons of CI cards and lists. Row buttons also carry their list's place (q, n), so the list
// can be redrawn after the action. Short keys keep values far below Slack's 2000 characters.

const JobValue = z.object({ p: ProjectKeySchema, j: Id, ...ListPlace }).strict();
const PipelineValue = z.object({ p: ProjectKeySchema, i: Id, ...ListPlace }).strict();
const ScheduleValue = z.object({ p: ProjectKeySchema, s: Id, ...ListPlace }).strict();

export const JobButtons = defineButtons('job', {
  show: JobValue,
  retry: JobValue,
  cancel: JobValue,
  play: JobValue,
  erase: JobValue,
  keep: JobValue,
  trace: JobValue,
});

export const PipelineButtons = defineButtons('pipeline', {
  show: PipelineValue,
  retry: PipelineValue,
  cancel: PipelineValue,
  jobs: PipelineValue,
});

export const ScheduleButtons = defineButtons('schedule', {
  show: ScheduleValue,
  take: ScheduleValue,
  activate: ScheduleValue,
  deactivate: ScheduleValue,
  delete: ScheduleValue,
});
