import { median, percentile } from './stats.js';
import type { DeploymentFact, JobFact, Window } from './types.js';

// The pipelines' health on one ref, from the jobs read: a pipeline is known by its jobs (its time is its first job's
// creation, its duration from its first job's start to its last job's end), so pipelines without jobs are not seen.

export interface PipelineRun {
  id: number;
  status: string;
  createdAt: number;
  /** Seconds from its first job's start to its last job's end, when it finished. */
  durationS: number | null;
}

export interface WeekHealth {
  start: number;
  end: number;
  pipelines: number;
  /** success ÷ (success + failed); canceled and unfinished pipelines are left out. null when none finished. */
  successRate: number | null;
  medianS: number | null;
  p90S: number | null;
  /** Deployments to the keys' environment created this week, and how many of them failed. */
  deployments: number;
  failedDeployments: number;
}

export interface JobStat {
  name: string;
  runs: number;
  failures: number;
  medianS: number | null;
  /** The run to open: the latest failed one for most-failing jobs, the latest one otherwise. */
  jobId: number;
}

export interface PipelineHealth {
  ref: string;
  pipelines: number;
  successRate: number | null;
  medianS: number | null;
  p90S: number | null;
  weeks: WeekHealth[];
  slowest: JobStat[];
  mostFailing: JobStat[];
}

const WEEK = 7 * 24 * 3_600_000;
const FINISHED = new Set(['success', 'failed', 'canceled']);

/** The pipelines of `ref` that the jobs belong to, each once, oldest first. */
export function pipelinesOf(jobs: readonly JobFact[], ref: string): PipelineRun[] {
  const byId = new Map<number, JobFact[]>();
  for (const j of jobs) {
    if (j.pipelineRef !== ref) continue;
    const list = byId.get(j.pipelineId);
    if (list) list.push(j);
    else byId.set(j.pipelineId, [j]);
  }
  const runs: PipelineRun[] = [];
  for (const [id, list] of byId) {
    const status = (list[0] as JobFact).pipelineStatus;
    const created = Math.min(...list.map((j) => j.createdAt));
    const starts = list.flatMap((j) => (j.startedAt === null ? [] : [j.startedAt]));
    const ends = list.flatMap((j) => (j.finishedAt === null ? [] : [j.finishedAt]));
    const durationS =
      FINISHED.has(status) && starts.length > 0 && ends.length > 0
        ? Math.max(0, Math.round((Math.max(...ends) - Math.min(...starts)) / 1000))
        : null;
    runs.push({ id, status, createdAt: created, durationS });
  }
  return runs.sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
}

function summarize(runs: readonly PipelineRun[]) {
  const passed = runs.filter((p) => p.status === 'success').length;
  const decided = passed + runs.filter((p) => p.status === 'failed').length;
  const durations = runs.flatMap((p) => (p.durationS === null ? [] : [p.durationS]));
  return {
    pipelines: runs.length,
    successRate: decided === 0 ? null : passed / decided,
    medianS: median(durations),
    p90S: percentile(durations, 90),
  };
}

/** Weeks that end where the window ends, newest last; the oldest is shorter when the window is not whole weeks. */
export function weeksOf(w: Window): Window[] {
  const weeks: Window[] = [];
  for (let end = w.end; end > w.start; end -= WEEK) weeks.unshift({ start: Math.max(w.start, end - WEEK), end });
  return weeks;
}

function jobStats(jobs: readonly JobFact[]): { slowest: JobStat[]; mostFailing: JobStat[] } {
  const byName = new Map<string, JobFact[]>();
  for (const j of jobs) {
    const list = byName.get(j.name);
    if (list) list.push(j);
    else byName.set(j.name, [j]);
  }
  const stats: JobStat[] = [];
  for (const [name, list] of byName) {
    const newest = [...list].sort((a, b) => b.id - a.id);
    const failedRuns = newest.filter((j) => j.status === 'failed');
    const durations = list.flatMap((j) =>
      j.startedAt !== null && j.finishedAt !== null ? [Math.round((j.finishedAt - j.startedAt) / 1000)] : [],
    );
    const open = failedRuns[0] ?? newest[0];
    stats.push({
      name,
      runs: list.filter((j) => FINISHED.has(j.status)).length,
      failures: failedRuns.length,
      medianS: median(durations),
      jobId: (open as JobFact).id,
    });
  }
  const slowest = stats
    .filter((s) => s.medianS !== null)
    .sort((a, b) => (b.medianS as number) - (a.medianS as number) || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((s) => ({ ...s, jobId: latestOf(byName.get(s.name) ?? []) ?? s.jobId }));
  const mostFailing = stats
    .filter((s) => s.failures > 0)
    .sort(
      (a, b) => b.failures - a.failures || b.failures / b.runs - a.failures / a.runs || a.name.localeCompare(b.name),
    )
    .slice(0, 3);
  return { slowest, mostFailing };
}

const latestOf = (list: readonly JobFact[]) => (list.length === 0 ? null : Math.max(...list.map((j) => j.id)));

/**
 * The health of `ref` over `w`: success rate and duration over the window and per week, the slowest jobs (by median
 * duration) and the most-failing ones (by failed runs), from the jobs of the ref's pipelines created in the window.
 * Deployments (already narrowed to one environment, with the set that failed) are counted per week for the chart.
 */
export function computeHealth(input: {
  jobs: readonly JobFact[];
  ref: string;
  window: Window;
  deployments?: readonly DeploymentFact[];
  failedDeployments?: ReadonlySet<number>;
}): PipelineHealth {
  const w = input.window;
  const runs = pipelinesOf(input.jobs, input.ref).filter((p) => p.createdAt >= w.start && p.createdAt < w.end);
  const inRuns = new Set(runs.map((p) => p.id));
  const jobs = input.jobs.filter((j) => inRuns.has(j.pipelineId));
  const failed = input.failedDeployments ?? new Set<number>();
  const weeks = weeksOf(w).map((week) => {
    const these = runs.filter((p) => p.createdAt >= week.start && p.createdAt < week.end);
    const deployed = (input.deployments ?? []).filter((d) => d.createdAt >= week.start && d.createdAt < week.end);
    return {
      ...week,
      ...summarize(these),
      deployments: deployed.length,
      failedDeployments: deployed.filter((d) => failed.has(d.id)).length,
    };
  });
  return { ref: input.ref, ...summarize(runs), weeks, ...jobStats(jobs) };
}
