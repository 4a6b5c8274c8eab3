import type { Page } from '../gitlab/paginate.js';
import type { Project, Resource } from '../gitlab/project.js';
import type { ScheduleCreateOptions, ScheduleEditOptions } from '../gitlab/schedules.js';
import type { PipelineSchedule } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about, refusing } from './subject.js';

export type ScheduleAction = 'take' | 'activate' | 'deactivate' | 'delete';

const scheduleOf = (project: Project, id: number): Resource => ({ kind: 'schedule', project, id });

/** Reads of schedules need the Reporter role: a 403 says so. */
const READ = { 403: 'role:Reporter' } as const;

export function createScheduleOperations(deps: { access: GitlabAccess }) {
  return {
    list(
      ctx: RequestContext,
      project: Project,
      options: { scope?: 'active' | 'inactive'; page?: number; per_page?: number },
    ): Promise<Page<PipelineSchedule>> {
      return refusing(
        'list-schedules',
        { kind: 'project', project },
        READ,
        deps.access.withClient(ctx, (c) => c.schedules.list(project.key, options)),
      );
    },

    get(ctx: RequestContext, project: Project, id: number): Promise<PipelineSchedule> {
      return refusing(
        'read',
        scheduleOf(project, id),
        READ,
        deps.access.withClient(ctx, (c) => c.schedules.get(project.key, id)),
      );
    },

    create(ctx: RequestContext, project: Project, options: ScheduleCreateOptions): Promise<PipelineSchedule> {
      return about(
        { kind: 'project', project },
        deps.access.withClient(ctx, (c) => c.schedules.create(project.key, options)),
      );
    },

    edit(ctx: RequestContext, project: Project, id: number, options: ScheduleEditOptions): Promise<PipelineSchedule> {
      return refusing(
        'edit',
        scheduleOf(project, id),
        { 403: true },
        deps.access.withClient(ctx, (c) => c.schedules.edit(project.key, id, options)),
      );
    },

    /** Take ownership, (de)activate or delete; delete answers the schedule as it was (or nothing). */
    act(ctx: RequestContext, project: Project, id: number, action: ScheduleAction): Promise<PipelineSchedule | null> {
      return refusing(
        action,
        scheduleOf(project, id),
        { 403: true },
        deps.access.withClient(ctx, (c) => {
          switch (action) {
            case 'take':
              return c.schedules.takeOwnership(project.key, id);
            case 'activate':
              return c.schedules.edit(project.key, id, { active: true });
            case 'deactivate':
              return c.schedules.edit(project.key, id, { active: false });
            case 'delete':
              return c.schedules.remove(project.key, id);
          }
        }),
      );
    },
  };
}

export type ScheduleOperations = ReturnType<typeof createScheduleOperations>;
