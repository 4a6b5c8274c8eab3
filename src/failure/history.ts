// Flaky or broken? Judged from the recent runs of the same job (its name) on the same ref, newest first, as the
// project's job list gives them. Pure: the runs in, a verdict out.

/** What a run of a job must say for the judgement (a subset of the API's job). */
export interface JobRun {
  id: number;
  name: string;
  ref: string;
  status: string;
  commit: { id: string; short_id?: string; title?: string } | null;
}

/** How many of the latest runs are weighed. */
export const RUNS_WEIGHED = 10;

export type FailureVerdict =
  /** It passed and failed on one commit, or keeps changing: "flaky? failed 3 of the last 10 runs". */
  | { kind: 'flaky'; failed: number; runs: number; name: string; ref: string; sameCommit: boolean }
  /** Every run since this commit failed (the run before it passed). */
  | { kind: 'broken'; since: { sha: string; title: string }; failedRuns: number; name: string; ref: string };

const FINISHED = new Set(['success', 'failed']);

/**
 * The verdict on `job` from `runs` (any jobs of its project; `job` may be among them, and so may its later retries,
 * whose passing on the same commit is the surest sign of a flaky job): null when the
 * runs say neither (a first failure with nothing before it, or too few runs).
 */
export function judgeRuns(job: JobRun, runs: readonly JobRun[]): FailureVerdict | null {
  const same = runs.filter((r) => r.name === job.name && r.ref === job.ref && FINISHED.has(r.status));
  if (FINISHED.has(job.status) && !same.some((r) => r.id === job.id)) same.unshift(job);
  same.sort((a, b) => b.id - a.id);
  const weighed = same.slice(0, RUNS_WEIGHED);
  if (weighed.length < 2) return null;
  const failed = weighed.filter((r) => r.status === 'failed').length;
  const { name, ref } = job;

  const outcomes = new Map<string, Set<string>>();
  for (const r of weighed) {
    if (!r.commit) continue;
    const seen = outcomes.get(r.commit.id) ?? new Set<string>();
    seen.add(r.status);
    outcomes.set(r.commit.id, seen);
  }
  const sameCommit = [...outcomes.values()].some((s) => s.size > 1);
  // Oldest to newest, a change of outcome each time it flips: a break and its fix are two, a flaky job makes more.
  let changes = 0;
  for (let i = 1; i < weighed.length; i++) if (weighed[i]?.status !== weighed[i - 1]?.status) changes++;
  if (failed > 0 && (sameCommit || changes >= 3))
    return { kind: 'flaky', failed, runs: weighed.length, name, ref, sameCommit };

  if (weighed[0]?.status !== 'failed') return null;
  const streak = weighed.findIndex((r) => r.status !== 'failed');
  if (streak === -1) return null; // failed in every run weighed: when it broke is further back than we read
  const first = weighed[streak - 1];
  if (!first?.commit) return null;
  return {
    kind: 'broken',
    since: { sha: first.commit.id, title: first.commit.title ?? '' },
    failedRuns: streak,
    name,
    ref,
  };
}
