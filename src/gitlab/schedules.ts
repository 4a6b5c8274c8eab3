import { createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { encodeProject, encodeSegment, type ProjectRef } from './paths.js';
import { type PipelineSchedule, PipelineScheduleSchema } from './schemas.js';

export interface ScheduleListOptions extends PageOptions {
  scope?: 'active' | 'inactive';
}

export interface ScheduleCreateOptions {
  description: string;
  ref: string;
  cron: string;
  cron_timezone?: string;
  active?: boolean;
}

export type ScheduleEditOptions = Partial<ScheduleCreateOptions>;

export interface SchedulesApi {
  list(project: ProjectRef, options?: ScheduleListOptions): Promise<Page<PipelineSchedule>>;
  get(project: ProjectRef, scheduleId: number): Promise<PipelineSchedule>;
  create(project: ProjectRef, options: ScheduleCreateOptions): Promise<PipelineSchedule>;
  /** PUT; activate/deactivate is an edit of `active`. */
  edit(project: ProjectRef, scheduleId: number, options: ScheduleEditOptions): Promise<PipelineSchedule>;
  takeOwnership(project: ProjectRef, scheduleId: number): Promise<PipelineSchedule>;
  /** 9.5 answers 202 with the deleted schedule; a server that answers with no body gives null. */
  remove(project: ProjectRef, scheduleId: number): Promise<PipelineSchedule | null>;
}

export function createSchedulesApi(transport: Transport, token: string): SchedulesApi {
  const call = createCaller(transport, token);
  const base = (project: ProjectRef) => `projects/${encodeProject(project)}/pipeline_schedules`;
  const schedule = (project: ProjectRef, scheduleId: number) => `${base(project)}/${encodeSegment(scheduleId)}`;

  return {
    list: (project, options = {}) => call.list(base(project), PipelineScheduleSchema, { ...options }),
    get: (project, scheduleId) => call.get(schedule(project, scheduleId), PipelineScheduleSchema),
    create: (project, options) => call.send('POST', base(project), PipelineScheduleSchema, { ...options }),
    edit: (project, scheduleId, options) =>
      call.send('PUT', schedule(project, scheduleId), PipelineScheduleSchema, { ...options }),
    takeOwnership: (project, scheduleId) =>
      call.send('POST', `${schedule(project, scheduleId)}/take_ownership`, PipelineScheduleSchema),
    remove: async (project, scheduleId) =>
      (await call.send('DELETE', schedule(project, scheduleId), PipelineScheduleSchema.optional())) ?? null,
  };
}
