import { InvalidInputError } from '../errors.js';
import { ForbiddenError } from '../gitlab/errors.js';
import type { Page } from '../gitlab/paginate.js';
import type { ScheduleCreateOptions, ScheduleEditOptions } from '../gitlab/schedules.js';
import type { PipelineSchedule } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import type { ProjectKey } from './jobs.js';
import { projectLabel } from './projects.js';
import { about, projectSubject, readNeeding } from './subject.js';

export type ScheduleAction = 'take' | 'activate' | 'deactivate' | 'delete';

const label = (project: ProjectKey, id: number) => `Schedule #${id} in ${projectLabel(project)}`;

export function createScheduleOperations(o: { access: GitlabAccess }) {
  const forbidden = (project: ProjectKey, id: number, what: string) =>
    new InvalidInputError(
      `${label(project, id)}: you may not ${what} (403). Only maintainers, or the schedule's owner, can.`,
    );

  return {
    list(
      ctx: RequestContext,
      project: ProjectKey,
      options: { scope?: 'active' | 'inactive'; page?: number; per_page?: number },
    ) {
      return readNeeding(
        'Reporter',
        `the pipeline schedules of ${projectLabel(project)}`,
        about(
          projectSubject(project),
          o.access.withClient(ctx.actor, (c) => c.schedules.list(project, options)),
        ),
      ) as Promise<Page<PipelineSchedule>>;
    },

    get(ctx: RequestContext, project: ProjectKey, id: number): Promise<PipelineSchedule> {
      return readNeeding(
        'Reporter',
        `schedule #${id} in ${projectLabel(project)}`,
        about(
          label(project, id),
          o.access.withClient(ctx.actor, (c) => c.schedules.get(project, id)),
        ),
      );
    },

    create(ctx: RequestContext, project: ProjectKey, options: ScheduleCreateOptions): Promise<PipelineSchedule> {
      return about(
        `A new schedule in ${projectLabel(project)}`,
        o.access.withClient(ctx.actor, (c) => c.schedules.create(project, options)),
      );
    },

    async edit(
      ctx: RequestContext,
      project: ProjectKey,
      id: number,
      options: ScheduleEditOptions,
    ): Promise<PipelineSchedule> {
      try {
        return await about(
          label(project, id),
          o.access.withClient(ctx.actor, (c) => c.schedules.edit(project, id, options)),
        );
      } catch (err) {
        throw err instanceof ForbiddenError ? forbidden(project, id, 'change this schedule') : err;
      }
    },

    /** Take ownership, (de)activate or delete; delete answers the schedule as it was. */
    async act(
      ctx: RequestContext,
      project: ProjectKey,
      id: number,
      action: ScheduleAction,
    ): Promise<PipelineSchedule | null> {
      try {
        return await about(
          label(project, id),
          o.access.withClient(ctx.actor, (c) => {
            switch (action) {
              case 'take':
                return c.schedules.takeOwnership(project, id);
              case 'activate':
                return c.schedules.edit(project, id, { active: true });
              case 'deactivate':
                return c.schedules.edit(project, id, { active: false });
              case 'delete':
                return c.schedules.remove(project, id);
            }
          }),
        );
      } catch (err) {
        const what = {
          take: 'take ownership of it',
          activate: 'activate it',
          deactivate: 'deactivate it',
          delete: 'delete it',
        }[action];
        throw err instanceof ForbiddenError ? forbidden(project, id, what) : err;
      }
    },
  };
}

export type ScheduleOperations = ReturnType<typeof createScheduleOperations>;
