import { InvalidInputError } from '../errors.js';
import { ForbiddenError } from '../gitlab/errors.js';
import type { Page } from '../gitlab/paginate.js';
import type { PipelineListOptions } from '../gitlab/pipelines.js';
import type { Job, Pipeline, PipelineBasic } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import type { ProjectKey } from './jobs.js';
import { projectLabel } from './projects.js';
import { about, projectSubject } from './subject.js';

const label = (project: ProjectKey, id: number) => `Pipeline #${id} in ${projectLabel(project)}`;

export function createPipelineOperations(o: { access: GitlabAccess }) {
  return {
    list(ctx: RequestContext, project: ProjectKey, filters: PipelineListOptions): Promise<Page<PipelineBasic>> {
      return about(
        projectSubject(project),
        o.access.withClient(ctx.actor, (c) => c.pipelines.list(project, filters)),
      );
    },

    /** The pipeline and its jobs (one page of up to 100), for the card's stages. */
    async get(ctx: RequestContext, project: ProjectKey, id: number): Promise<{ pipeline: Pipeline; jobs: Job[] }> {
      return about(
        label(project, id),
        o.access.withClient(ctx.actor, async (c) => {
          const pipeline = await c.pipelines.get(project, id);
          const jobs = await c.jobs.listForPipeline(project, id, { per_page: 100 });
          return { pipeline, jobs: jobs.items };
        }),
      );
    },

    run(ctx: RequestContext, project: ProjectKey, ref: string): Promise<Pipeline> {
      return about(
        `A pipeline for ${ref} in ${projectLabel(project)}`,
        o.access.withClient(ctx.actor, (c) => c.pipelines.create(project, { ref })),
      );
    },

    async act(ctx: RequestContext, project: ProjectKey, id: number, action: 'retry' | 'cancel'): Promise<Pipeline> {
      try {
        return await about(
          label(project, id),
          o.access.withClient(ctx.actor, (c) =>
            action === 'retry' ? c.pipelines.retry(project, id) : c.pipelines.cancel(project, id),
          ),
        );
      } catch (err) {
        if (err instanceof ForbiddenError) {
          throw new InvalidInputError(
            `${label(project, id)} cannot be ${action === 'retry' ? 'retried' : 'canceled'}: you may not run pipelines in this project, or its state does not allow it (403).`,
          );
        }
        throw err;
      }
    },
  };
}

export type PipelineOperations = ReturnType<typeof createPipelineOperations>;
