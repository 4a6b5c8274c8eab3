import { InvalidInputError } from '../errors.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../gitlab/errors.js';
import type { JobScope } from '../gitlab/jobs.js';
import type { Page } from '../gitlab/paginate.js';
import type { Job } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { type ProjectKey, projectLabel } from './projects.js';

export type { ProjectKey };

import { about, projectSubject } from './subject.js';

export type JobAction = 'retry' | 'cancel' | 'play' | 'erase' | 'keep';

export interface JobListQuery {
  scope?: readonly JobScope[];
  pipelineId?: number;
  page?: number;
  perPage?: number;
}

export interface Artifact {
  job: Job | null;
  fileName: string | null;
  size: number | null;
}

const jobLabel = (project: ProjectKey, id: number) => `Job #${id} in ${projectLabel(project)}`;

// What the server's refusals mean for each action, in words a person can act on.
function explainRefusal(action: JobAction, label: string, err: unknown): Error | null {
  if (action === 'play' && err instanceof BadRequestError) {
    return new InvalidInputError(`${label} cannot be played: only manual jobs can be played.`);
  }
  if (err instanceof ForbiddenError) {
    const why: Record<JobAction, string> = {
      retry: 'cannot be retried: only finished jobs can, and only by developers of the project',
      cancel: 'cannot be canceled: it is not running, or you may not run jobs in this project',
      play: 'cannot be played: it is not a manual job, or you may not run jobs in this project',
      erase: 'cannot be erased: only finished jobs can, by developers of the project',
      keep: 'cannot keep its artifacts: you may not change jobs in this project',
    };
    return new InvalidInputError(`${label} ${why[action]} (403).`);
  }
  if (action === 'keep' && err instanceof NotFoundError) {
    return new InvalidInputError(`${label} has no artifacts to keep, or it was not found (404).`);
  }
  return null;
}

export function createJobOperations(o: { access: GitlabAccess }) {
  return {
    async list(ctx: RequestContext, project: ProjectKey, q: JobListQuery): Promise<Page<Job>> {
      const options = {
        ...(q.scope && q.scope.length > 0 ? { scope: q.scope } : {}),
        ...(q.page ? { page: q.page } : {}),
        ...(q.perPage ? { per_page: q.perPage } : {}),
      };
      const label = q.pipelineId ? `Pipeline #${q.pipelineId} in ${projectLabel(project)}` : projectSubject(project);
      return about(
        label,
        o.access.withClient(ctx.actor, (c) =>
          q.pipelineId ? c.jobs.listForPipeline(project, q.pipelineId, options) : c.jobs.list(project, options),
        ),
      );
    },

    get(ctx: RequestContext, project: ProjectKey, id: number): Promise<Job> {
      return about(
        jobLabel(project, id),
        o.access.withClient(ctx.actor, (c) => c.jobs.get(project, id)),
      );
    },

    /** Runs an action; retry answers the new job that replaces the old one. */
    async act(ctx: RequestContext, project: ProjectKey, id: number, action: JobAction): Promise<Job> {
      const label = jobLabel(project, id);
      try {
        return await about(
          label,
          o.access.withClient(ctx.actor, (c) => {
            switch (action) {
              case 'retry':
                return c.jobs.retry(project, id);
              case 'cancel':
                return c.jobs.cancel(project, id);
              case 'play':
                return c.jobs.play(project, id);
              case 'erase':
                return c.jobs.erase(project, id);
              case 'keep':
                return c.jobs.keepArtifacts(project, id);
            }
          }),
        );
      } catch (err) {
        throw explainRefusal(action, label, err) ?? err;
      }
    },

    trace(ctx: RequestContext, project: ProjectKey, id: number): Promise<string> {
      return about(
        jobLabel(project, id),
        o.access.withClient(ctx.actor, (c) => c.jobs.trace(project, id)),
      );
    },

    /** Name and size of a job's artifacts archive; the download itself is left to the web interface. */
    async artifacts(ctx: RequestContext, project: ProjectKey, id: number): Promise<Artifact> {
      const label = jobLabel(project, id);
      try {
        const a = await about(
          label,
          o.access.withClient(ctx.actor, (c) => c.jobs.artifacts(project, id)),
        );
        a.stream.destroy();
        return { job: null, fileName: a.fileName, size: a.size };
      } catch (err) {
        if (err instanceof NotFoundError)
          throw new InvalidInputError(`${label} has no artifacts, or it was not found (404).`);
        throw err;
      }
    },

    async artifactsByRef(ctx: RequestContext, project: ProjectKey, ref: string, jobName: string): Promise<Artifact> {
      const label = `The latest successful “${jobName}” job on ${ref} in ${projectLabel(project)}`;
      try {
        const a = await about(
          label,
          o.access.withClient(ctx.actor, (c) => c.jobs.artifactsByRef(project, ref, jobName)),
        );
        a.stream.destroy();
        return { job: null, fileName: a.fileName, size: a.size };
      } catch (err) {
        if (err instanceof NotFoundError) {
          throw new InvalidInputError(
            `${label} has no artifacts: there is no successful “${jobName}” job on ${ref}, or no access (404).`,
          );
        }
        throw err;
      }
    },
  };
}

export type JobOperations = ReturnType<typeof createJobOperations>;
