// The fake CI: pipeline status as GitLab 9.5 derives it from its jobs, stage by
// stage processing, the job and pipeline actions, and the runner that moves
// jobs on one step per tick.

import { mergeMergeRequest } from '../domain/merging.js';
import type { JobRecord, JobStatus, PipelineRecord, PipelineStatus, ProjectRecord, State } from '../model.js';
import { leavesArtifacts, nextId } from '../model.js';
import { projectPath } from '../present.js';
import { artifactsRecordFor } from './artifacts.js';
import { finishedTrace, runningTrace } from './trace.js';

export const ACTIVE: readonly JobStatus[] = ['created', 'pending', 'running'];
export const COMPLETED: readonly JobStatus[] = ['success', 'failed', 'canceled', 'skipped'];
export const ZERO_SHA = '0000000000000000000000000000000000000000';
const ARTIFACTS_LIFETIME_MS = 7 * 86_400_000;

export function pipelineJobs(state: State, pipelineId: number): JobRecord[] {
  const out: JobRecord[] = [];
  for (const j of state.jobs.values()) if (j.pipeline_id === pipelineId) out.push(j);
  return out;
}

export function latestJobs(state: State, pipelineId: number): JobRecord[] {
  return pipelineJobs(state, pipelineId).filter((j) => !j.retried);
}

/** HasStatus.status_sql of 9.5, over the jobs that are not ignored (allowed failures, optional manual actions). */
export function compositeStatus(jobs: readonly JobRecord[]): PipelineStatus {
  const relevant = jobs.filter(
    (j) => !j.allow_failure || !(j.status === 'failed' || j.status === 'canceled' || j.status === 'manual'),
  );
  const count = (s: JobStatus) => relevant.filter((j) => j.status === s).length;
  const n = relevant.length;
  const [success, created, skipped, canceled, pending, running, manual] = [
    count('success'),
    count('created'),
    count('skipped'),
    count('canceled'),
    count('pending'),
    count('running'),
    count('manual'),
  ];
  if (n === success) return 'success';
  if (n === created) return 'created';
  if (n === skipped) return 'skipped';
  if (n === success + skipped) return 'success';
  if (n === success + skipped + canceled) return 'canceled';
  if (n === created + skipped + pending) return 'pending';
  if (running + pending > 0) return 'running';
  if (manual > 0) return 'manual';
  if (created > 0) return 'running';
  return 'failed';
}

function stageDone(jobs: readonly JobRecord[]): boolean {
  return jobs.every((j) => COMPLETED.includes(j.status) || (j.status === 'manual' && j.allow_failure));
}

/** Moves created jobs of the next reachable stage on: pending (or manual), or skipped after a failure. */
export function processPipeline(state: State, pipeline: PipelineRecord): void {
  const jobs = latestJobs(state, pipeline.id);
  const stages = [...new Set(jobs.map((j) => j.stage_idx))].sort((a, b) => a - b);
  for (const stage of stages) {
    const before = jobs.filter((j) => j.stage_idx < stage);
    if (!stageDone(before)) return;
    const prior = compositeStatus(before);
    const failed = prior === 'failed' || prior === 'canceled';
    for (const j of jobs) {
      if (j.stage_idx !== stage || j.status !== 'created') continue;
      if (failed) j.status = 'skipped';
      else j.status = j.manual ? 'manual' : 'pending';
    }
  }
}

/** Recomputes a pipeline's status and times from its jobs; merges what waited for it to succeed. */
export function refreshPipeline(state: State, pipeline: PipelineRecord, at: Date): void {
  if (pipeline.yaml_errors) return;
  const jobs = latestJobs(state, pipeline.id);
  const status = compositeStatus(jobs);
  const iso = at.toISOString();
  const failedNow = status === 'failed' && pipeline.status !== 'failed';
  if (status !== pipeline.status) pipeline.updated_at = iso;
  pipeline.status = status;
  if (failedNow) buildFailedTodos(state, pipeline, iso);
  const started = jobs.map((j) => j.started_at).filter((t): t is string => t !== null);
  if (started.length && !pipeline.started_at) pipeline.started_at = started.sort()[0] ?? null;
  const coverages = jobs.map((j) => j.coverage).filter((c): c is number => c !== null);
  pipeline.coverage = coverages.length
    ? (coverages.reduce((a, b) => a + b, 0) / coverages.length).toFixed(2)
    : pipeline.coverage;
  if (COMPLETED.includes(status) || status === 'manual') {
    if (!pipeline.finished_at) pipeline.finished_at = iso;
    if (pipeline.started_at) {
      pipeline.duration = Math.round((Date.parse(pipeline.finished_at) - Date.parse(pipeline.started_at)) / 1000);
    }
  } else {
    pipeline.finished_at = null;
    pipeline.duration = null;
  }
  if (status === 'success') {
    for (const mr of state.mergeRequests.values()) {
      if (mr.head_pipeline_id !== pipeline.id || mr.state !== 'opened' || !mr.merge_when_pipeline_succeeds) continue;
      mergeMergeRequest(state, mr, { userId: mr.merge_user_id ?? mr.author_id, at });
    }
  }
}

/** As GitLab does: a merge request's head pipeline that fails gives its author a `build_failed` todo. */
function buildFailedTodos(state: State, pipeline: PipelineRecord, iso: string): void {
  for (const mr of state.mergeRequests.values()) {
    if (mr.head_pipeline_id !== pipeline.id || mr.state !== 'opened') continue;
    const id = nextId(state, 'todos');
    state.todos.set(id, {
      id,
      user_id: mr.author_id,
      project_id: mr.project_id,
      author_id: pipeline.user_id,
      action_name: 'build_failed',
      target_type: 'MergeRequest',
      target_id: mr.id,
      note_id: null,
      state: 'pending',
      created_at: iso,
    });
  }
}

function traceInput(state: State, job: JobRecord) {
  const project = state.projects.get(job.project_id) as ProjectRecord;
  return {
    job,
    projectPath: projectPath(state, project),
    projectId: project.id,
    commit: state.commits.get(job.sha),
    runner: job.runner_id === null ? undefined : state.runners.get(job.runner_id),
  };
}

/** Ends a running (or pending) job the way the runner would, trace and artifacts included. */
export function finishJob(state: State, job: JobRecord, status: 'success' | 'failed' | 'canceled', at: Date): void {
  job.status = status;
  job.finished_at = at.toISOString();
  if (status === 'success' && job.name.includes('test')) job.coverage = 84.21;
  if (job.started_at) job.trace = finishedTrace(traceInput(state, job));
  if (status === 'success' && job.makes_artifacts) {
    job.artifacts = artifactsRecordFor(
      job,
      state.commits.get(job.sha),
      new Date(at.getTime() + ARTIFACTS_LIFETIME_MS).toISOString(),
    );
  }
}

export function startJob(state: State, job: JobRecord, at: Date): void {
  job.status = 'running';
  job.started_at = at.toISOString();
  job.runner_id = [...state.runners.keys()][0] ?? null;
  job.trace = runningTrace(traceInput(state, job));
}

export interface NewPipeline {
  ref: string;
  sha: string;
  tag: boolean;
  user_id: number;
  before_sha?: string;
}

/** A pipeline with the project's CI jobs for the ref, first stage pending. */
export function createPipeline(state: State, project: ProjectRecord, input: NewPipeline, at: Date): PipelineRecord {
  const iso = at.toISOString();
  const commit = state.commits.get(input.sha);
  const pipeline: PipelineRecord = {
    id: nextId(state, 'pipelines'),
    project_id: project.id,
    ref: input.ref,
    sha: input.sha,
    before_sha: input.before_sha ?? ZERO_SHA,
    tag: input.tag,
    yaml_errors: null,
    user_id: input.user_id,
    status: 'pending',
    created_at: iso,
    updated_at: iso,
    started_at: null,
    finished_at: null,
    committed_at: commit?.committed_date ?? null,
    duration: null,
    coverage: null,
  };
  state.pipelines.set(pipeline.id, pipeline);
  const onDefault = input.ref === project.default_branch && !input.tag;
  for (const t of project.ci_jobs) {
    if ((t.only === 'default_branch' && !onDefault) || (t.only === 'tags' && !input.tag)) continue;
    const job: JobRecord = {
      id: nextId(state, 'jobs'),
      project_id: project.id,
      pipeline_id: pipeline.id,
      name: t.name,
      stage: t.stage,
      stage_idx: Math.max(0, project.stages.indexOf(t.stage)),
      status: 'created',
      ref: input.ref,
      tag: input.tag,
      sha: input.sha,
      coverage: null,
      created_at: iso,
      started_at: null,
      finished_at: null,
      erased_at: null,
      user_id: input.user_id,
      runner_id: null,
      manual: t.manual,
      allow_failure: t.allow_failure,
      outcome: t.outcome,
      makes_artifacts: leavesArtifacts(t, { ref: input.ref, tag: input.tag, defaultBranch: project.default_branch }),
      artifacts: null,
      artifacts_kept: false,
      trace: null,
      retried: false,
    };
    state.jobs.set(job.id, job);
  }
  // As GitLab does, a pipeline for the head of an open merge request's source branch becomes its head pipeline, so
  // "merge when the pipeline succeeds" waits for it.
  if (!input.tag) {
    for (const mr of state.mergeRequests.values()) {
      if (mr.state !== 'opened' || mr.source_project_id !== project.id) continue;
      if (mr.source_branch === input.ref && mr.sha === input.sha) mr.head_pipeline_id = pipeline.id;
    }
  }
  processPipeline(state, pipeline);
  refreshPipeline(state, pipeline, at);
  return pipeline;
}

export function isRetryable(job: JobRecord): boolean {
  return job.status === 'success' || job.status === 'failed' || job.status === 'canceled';
}

/** Ci::Build.retry: a new job in the old one's place, pending, with no times, runner or artifacts. */
export function retryJob(
  state: State,
  job: JobRecord,
  { userId, at, status = 'pending' }: { userId: number; at: Date; status?: JobStatus },
): JobRecord {
  job.retried = true;
  const fresh: JobRecord = {
    ...job,
    id: nextId(state, 'jobs'),
    status,
    coverage: null,
    created_at: at.toISOString(),
    started_at: null,
    finished_at: null,
    erased_at: null,
    user_id: userId,
    runner_id: null,
    artifacts: null,
    artifacts_kept: false,
    trace: null,
    retried: false,
  };
  state.jobs.set(fresh.id, fresh);
  return fresh;
}

export function cancelJob(state: State, job: JobRecord, at: Date): void {
  if (!ACTIVE.includes(job.status)) return;
  finishJob(state, job, 'canceled', at);
}

/** Retries the failed and canceled jobs and re-opens the stages they skipped. */
export function retryPipeline(state: State, pipeline: PipelineRecord, userId: number, at: Date): void {
  for (const job of latestJobs(state, pipeline.id)) {
    if (job.status === 'failed' || job.status === 'canceled') retryJob(state, job, { userId, at, status: 'created' });
    else if (job.status === 'skipped') job.status = 'created';
  }
  pipeline.finished_at = null;
  processPipeline(state, pipeline);
  refreshPipeline(state, pipeline, at);
}

export function cancelPipeline(state: State, pipeline: PipelineRecord, at: Date): void {
  for (const job of latestJobs(state, pipeline.id)) cancelJob(state, job, at);
  refreshPipeline(state, pipeline, at);
}

/**
 * One step of the fake runner over every active pipeline: running jobs finish
 * (as their CI config says they would), pending jobs start, and the next
 * stage's created jobs become pending. Returns the pipelines it touched.
 */
export function runnerStep(state: State, at: Date): PipelineRecord[] {
  const touched = new Map<number, PipelineRecord>();
  const jobs = [...state.jobs.values()].filter((j) => !j.retried && (j.status === 'running' || j.status === 'pending'));
  for (const job of jobs) {
    if (job.status === 'running') finishJob(state, job, job.outcome, at);
    else startJob(state, job, at);
    const p = state.pipelines.get(job.pipeline_id);
    if (p) touched.set(p.id, p);
  }
  for (const p of state.pipelines.values()) if (p.status === 'created' || p.status === 'pending') touched.set(p.id, p);
  for (const p of touched.values()) {
    processPipeline(state, p);
    refreshPipeline(state, p, at);
  }
  return [...touched.values()];
}
