import { RefusedError } from '../errors.js';
import { BadRequestError, ForbiddenError } from '../gitlab/errors.js';
import type { Page } from '../gitlab/paginate.js';
import type { PipelineListOptions } from '../gitlab/pipelines.js';
import type { Project, Resource } from '../gitlab/project.js';
import type { Job, Pipeline, PipelineBasic } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about, refusing } from './subject.js';

const pipelineOf = (project: Project, id: number): Resource => ({ kind: 'pipeline', project, id });

export function createPipelineOperations(deps: { access: GitlabAccess }) {
  const get = (ctx: RequestContext, project: Project, id: number) =>
    about(
      pipelineOf(project, id),
      deps.access.withClient(ctx, (c) => c.pipelines.get(project.key, id)),
    );
  return {
    list(ctx: RequestContext, project: Project, filters: PipelineListOptions): Promise<Page<PipelineBasic>> {
      return about(
        { kind: 'project', project },
        deps.access.withClient(ctx, (c) => c.pipelines.list(project.key, filters)),
      );
    },

    get,

    /** The pipeline and its jobs (one page of up to 100), for the card's stages. */
    async withJobs(ctx: RequestContext, project: Project, id: number): Promise<{ pipeline: Pipeline; jobs: Job[] }> {
      const pipeline = await get(ctx, project, id);
      const jobs = await about(
        pipelineOf(project, id),
        deps.access.withClient(ctx, (c) => c.jobs.listForPipeline(project.key, id, { per_page: 100 })),
      );
      return { pipeline, jobs: jobs.items };
    },

    /** Starts a pipeline on a branch or tag; a ref the project does not have is refused with its name. */
    async run(ctx: RequestContext, project: Project, ref: string): Promise<Pipeline> {
      try {
        return await about(
          { kind: 'project', project },
          deps.access.withClient(ctx, (c) => c.pipelines.create(project.key, { ref })),
        );
      } catch (err) {
        // Refused for the person's role (or a protected branch): said in words, about the ref they named.
        if (err instanceof ForbiddenError) {
          throw new RefusedError({ action: 'run', subject: { kind: 'ref', project, ref }, status: 403 }, err);
        }
        // GitLab words it `{"message":{"base":["Reference not found"]}}`.
        if (!(err instanceof BadRequestError) || !/reference not found/i.test(err.serverMessage ?? '')) throw err;
        throw new RefusedError(
          { action: 'run', subject: { kind: 'ref', project, ref }, status: 400, reason: 'no_ref' },
          err,
        );
      }
    },

    act(ctx: RequestContext, project: Project, id: number, action: 'retry' | 'cancel'): Promise<Pipeline> {
      return refusing(
        action,
        pipelineOf(project, id),
        { 403: true },
        deps.access.withClient(ctx, (c) =>
          action === 'retry' ? c.pipelines.retry(project.key, id) : c.pipelines.cancel(project.key, id),
        ),
      );
    },
  };
}

export type PipelineOperations = ReturnType<typeof createPipelineOperations>;
