// Jobs: lists with `scope[]`, one job, its trace and artifacts, and the job
// actions with 9.5's statuses (cancel/retry/erase 201, keep/play 200).

import { DEVELOPER } from '../access.js';
import { artifactsArchive } from '../ci/artifacts.js';
import { cancelJob, isRetryable, refreshPipeline, retryJob } from '../ci/engine.js';
import { type Handler, json, type RequestContext } from '../http/context.js';
import { apiError, badRequest, forbidden, notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { list, requireStr } from '../http/params.js';
import type { Route } from '../http/router.js';
import { findJob, findPipeline, findProject, requireAccess } from '../lookup.js';
import type { JobRecord, JobStatus, ProjectRecord } from '../model.js';
import { presentJob } from '../present.js';

const STATUSES: readonly JobStatus[] = [
  'created',
  'pending',
  'running',
  'success',
  'failed',
  'canceled',
  'skipped',
  'manual',
];

function scoped(ctx: RequestContext, jobs: JobRecord[]): JobRecord[] {
  const scope = list(ctx.params, 'scope');
  if (!scope || scope.length === 0) return jobs;
  if (scope.some((s) => !(STATUSES as readonly string[]).includes(s))) {
    throw apiError(400, 'Scope contains invalid value(s)');
  }
  return jobs.filter((j) => scope.includes(j.status));
}

const listProjectJobs: Handler = (ctx) => {
  const project = findProject(ctx);
  const jobs: JobRecord[] = [];
  for (const j of ctx.state.jobs.values()) if (j.project_id === project.id) jobs.push(j);
  jobs.reverse();
  return paginate(ctx, scoped(ctx, jobs), (j) => presentJob(ctx, j));
};

const listPipelineJobs: Handler = (ctx) => {
  const project = findProject(ctx);
  const pipeline = findPipeline(ctx, project);
  const jobs: JobRecord[] = [];
  for (const j of ctx.state.jobs.values()) if (j.pipeline_id === pipeline.id) jobs.push(j);
  return paginate(ctx, scoped(ctx, jobs), (j) => presentJob(ctx, j));
};

const getJob: Handler = (ctx) => {
  const project = findProject(ctx);
  return json(200, presentJob(ctx, findJob(ctx, project)));
};

const getTrace: Handler = (ctx) => {
  const project = findProject(ctx);
  const job = findJob(ctx, project);
  return {
    status: 200,
    raw: job.trace ?? '',
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Disposition': `infile; filename="${job.id}.log"`,
    },
  };
};

function sendArtifacts(ctx: RequestContext, job: JobRecord) {
  if (!job.artifacts) throw notFound();
  const body = artifactsArchive(job, ctx.state.commits.get(job.sha));
  return {
    status: 200,
    raw: body,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${job.artifacts.filename}"`,
    },
  };
}

const getArtifacts: Handler = (ctx) => {
  const project = findProject(ctx);
  return sendArtifacts(ctx, findJob(ctx, project));
};

/** The named job of the latest successful pipeline on the ref. */
const downloadArtifactsByRef: Handler = (ctx) => {
  const project = findProject(ctx);
  const name = requireStr(ctx.params, 'job');
  const ref = ctx.route.ref_name ?? '';
  let latest: number | null = null;
  for (const p of ctx.state.pipelines.values()) {
    if (p.project_id === project.id && p.ref === ref && p.status === 'success' && (latest === null || p.id > latest)) {
      latest = p.id;
    }
  }
  let job: JobRecord | undefined;
  for (const j of ctx.state.jobs.values()) {
    if (j.pipeline_id === latest && j.name === name && !j.retried && j.status === 'success') job = j;
  }
  if (!job) throw notFound();
  return sendArtifacts(ctx, job);
};

function jobAction(action: (ctx: RequestContext, project: ProjectRecord, job: JobRecord) => JobRecord, status: number) {
  const handler: Handler = (ctx) => {
    const project = findProject(ctx);
    const job = findJob(ctx, project);
    requireAccess(ctx, project, DEVELOPER);
    const result = action(ctx, project, job);
    const pipeline = ctx.state.pipelines.get(result.pipeline_id);
    if (pipeline) refreshPipeline(ctx.state, pipeline, ctx.now);
    return json(status, presentJob(ctx, result));
  };
  return handler;
}

const cancel = jobAction((ctx, _project, job) => {
  cancelJob(ctx.state, job, ctx.now);
  return job;
}, 201);

const retry = jobAction((ctx, _project, job) => {
  if (!isRetryable(job) || job.retried) throw forbidden('Job is not retryable');
  return retryJob(ctx.state, job, { userId: ctx.user.id, at: ctx.now });
}, 201);

const erase = jobAction((ctx, _project, job) => {
  const finished =
    job.status === 'success' || job.status === 'failed' || job.status === 'canceled' || job.status === 'skipped';
  if (!finished || (!job.artifacts && !job.trace)) throw forbidden('Job is not erasable!');
  job.artifacts = null;
  job.trace = null;
  job.erased_at = ctx.now.toISOString();
  return job;
}, 201);

const keep = jobAction((_ctx, _project, job) => {
  if (!job.artifacts) throw notFound();
  job.artifacts.expire_at = null;
  job.artifacts_kept = true;
  return job;
}, 200);

const play = jobAction((ctx, _project, job) => {
  if (job.status !== 'manual') throw badRequest('Unplayable Job');
  job.status = 'pending';
  job.user_id = ctx.user.id;
  return job;
}, 200);

export const jobRoutes: Route[] = [
  ['GET', '/projects/:id/jobs', listProjectJobs],
  ['GET', '/projects/:id/pipelines/:pipeline_id/jobs', listPipelineJobs],
  ['GET', '/projects/:id/jobs/artifacts/:ref_name/download', downloadArtifactsByRef],
  ['GET', '/projects/:id/jobs/:job_id', getJob],
  ['GET', '/projects/:id/jobs/:job_id/trace', getTrace],
  ['GET', '/projects/:id/jobs/:job_id/artifacts', getArtifacts],
  ['POST', '/projects/:id/jobs/:job_id/cancel', cancel],
  ['POST', '/projects/:id/jobs/:job_id/retry', retry],
  ['POST', '/projects/:id/jobs/:job_id/erase', erase],
  ['POST', '/projects/:id/jobs/:job_id/artifacts/keep', keep],
  ['POST', '/projects/:id/jobs/:job_id/play', play],
];
