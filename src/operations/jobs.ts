import type { RefusalReason } from '../errors.js';
import type { JobScope } from '../gitlab/jobs.js';
import type { Page } from '../gitlab/paginate.js';
import type { Project, Resource } from '../gitlab/project.js';
import type { Job } from '../gitlab/schemas.js';
import { redactTrace } from '../redact.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { about, refusing } from './subject.js';

export type JobAction = 'retry' | 'cancel' | 'play' | 'erase' | 'keep';

export interface JobListQuery {
  scope?: readonly JobScope[];
  pipelineId?: number;
  page?: number;
  perPage?: number;
}

export interface Artifact {
  fileName: string | null;
  size: number | null;
}

const jobOf = (project: Project, id: number): Resource => ({ kind: 'job', project, id });

/** What each status means when the server refuses a job action (the view says it in words). */
const REFUSALS: Record<JobAction, Partial<Record<number, RefusalReason | true>>> = {
  retry: { 403: true },
  cancel: { 403: true },
  play: { 400: 'not_manual', 403: true },
  erase: { 403: true },
  keep: { 403: true, 404: 'no_artifacts' },
};

export function createJobOperations(deps: { access: GitlabAccess }) {
  return {
    list(ctx: RequestContext, project: Project, q: JobListQuery): Promise<Page<Job>> {
      const options = {
        ...(q.scope && q.scope.length > 0 ? { scope: q.scope } : {}),
        ...(q.page ? { page: q.page } : {}),
        ...(q.perPage ? { per_page: q.perPage } : {}),
      };
      const subject: Resource = q.pipelineId
        ? { kind: 'pipeline', project, id: q.pipelineId }
        : { kind: 'project', project };
      return about(
        subject,
        deps.access.withClient(ctx, (c) =>
          q.pipelineId ? c.jobs.listForPipeline(project.key, q.pipelineId, options) : c.jobs.list(project.key, options),
        ),
      );
    },

    get(ctx: RequestContext, project: Project, id: number): Promise<Job> {
      return about(
        jobOf(project, id),
        deps.access.withClient(ctx, (c) => c.jobs.get(project.key, id)),
      );
    },

    /** The newest job of the same name in the same pipeline, when it is newer than `job` (it replaced it). */
    async replacement(ctx: RequestContext, project: Project, job: Job): Promise<Job | null> {
      if (!job.pipeline) return null;
      const pipelineId = job.pipeline.id;
      const jobs = await about(
        jobOf(project, job.id),
        deps.access.withClient(ctx, (c) => c.jobs.listForPipeline(project.key, pipelineId, { per_page: 100 })),
      );
      const newer = jobs.items.filter((j) => j.name === job.name && j.id > job.id);
      return newer.sort((a, b) => b.id - a.id)[0] ?? null;
    },

    /** Whether the job still has a trace: reads only until the first bytes arrive. */
    hasTrace(ctx: RequestContext, project: Project, id: number): Promise<boolean> {
      return about(
        jobOf(project, id),
        deps.access.withClient(ctx, (c) => c.jobs.hasTrace(project.key, id)),
      );
    },

    /** Runs an action; retry answers the new job that replaces the old one. */
    act(ctx: RequestContext, project: Project, id: number, action: JobAction): Promise<Job> {
      return refusing(
        action,
        jobOf(project, id),
        REFUSALS[action],
        deps.access.withClient(ctx, (c) => {
          switch (action) {
            case 'retry':
              return c.jobs.retry(project.key, id);
            case 'cancel':
              return c.jobs.cancel(project.key, id);
            case 'play':
              return c.jobs.play(project.key, id);
            case 'erase':
              return c.jobs.erase(project.key, id);
            case 'keep':
              return c.jobs.keepArtifacts(project.key, id);
          }
        }),
      );
    },

    /**
     * The job's trace as the bot may send it: the bot's own secrets, everyone's stored tokens and anything shaped
     * like a token, key or password replaced by `[redacted]` (a trace prints whatever the job's environment held).
     */
    async trace(ctx: RequestContext, project: Project, id: number): Promise<string> {
      const [trace] = await Promise.all([
        about(
          jobOf(project, id),
          deps.access.withClient(ctx, (c) => c.jobs.trace(project.key, id)),
        ),
        deps.access.registerStoredTokens(ctx.actor.teamId),
      ]);
      return redactTrace(trace);
    },

    /** Name and size of a job's artifacts archive; the download itself is left to the web interface. */
    async artifacts(ctx: RequestContext, project: Project, id: number): Promise<Artifact> {
      const a = await refusing(
        'artifacts',
        jobOf(project, id),
        { 404: 'no_artifacts' },
        deps.access.withClient(ctx, (c) => c.jobs.artifacts(project.key, id)),
      );
      a.stream.destroy();
      return { fileName: a.fileName, size: a.size };
    },

    async artifactsByRef(
      ctx: RequestContext,
      project: Project,
      { ref, jobName }: { ref: string; jobName: string },
    ): Promise<Artifact> {
      const a = await refusing(
        'artifacts',
        { kind: 'artifacts', project, ref, job: jobName },
        { 404: 'no_artifacts' },
        deps.access.withClient(ctx, (c) => c.jobs.artifactsByRef(project.key, ref, jobName)),
      );
      a.stream.destroy();
      return { fileName: a.fileName, size: a.size };
    },
  };
}

export type JobOperations = ReturnType<typeof createJobOperations>;
