// Why a job failed, read as cheaply as a card allows. The trace of a finished job never changes, so its excerpt
// is read once per job and kept (bounded: each excerpt is at most ten short lines); a huge trace is streamed and
// only its end kept. Whether a job is flaky or broken comes from the project's latest finished jobs: at most two
// pages of them per card, kept a few minutes per project so the cards of one pipeline share one read.

import { explainFailure, type FailureExcerpt } from '../failure/excerpt.js';
import { type JobRun, judgeRuns, RUNS_WEIGHED } from '../failure/history.js';
import type { FailureNote } from '../failure/note.js';
import type { GitlabClient } from '../gitlab/client.js';
import { type Project, projectOf } from '../gitlab/project.js';
import type { Job, Todo } from '../gitlab/schemas.js';
import { createTtlCache } from '../ttl-cache.js';

/** The end of a trace that is read: the runners' summaries and the failing command are in its last lines. */
export const TRACE_TAIL_BYTES = 64 * 1024;
/** A pipeline's card explains this many of its failed jobs; the rest are counted ("and 4 more"). */
export const EXPLAINED_PER_CARD = 3;
/** Pages of the project's finished jobs read for one card, at most (the "two extra calls" of a card). */
export const HISTORY_PAGES = 2;
const HISTORY_PER_PAGE = 100;
const HISTORY_TTL_MS = 3 * 60_000;
const EXCERPTS_KEPT = 2000;
const PROJECTS_KEPT = 500;

/** Runs `fn` with a client acting as whoever the card is for (the caller, a watch's creator, a follower). */
export type ReadAs = <T>(fn: (client: GitlabClient) => Promise<T>) => Promise<T>;

/** Whom a card is read for: their client, and their team (whose stored tokens a trace must not show). */
export interface Reading {
  read: ReadAs;
  teamId: string;
}

const projectKey = (project: Project) => String(project.path ?? project.key);

/** A failed job to explain: a run as the verdict needs it (an API job is one), and its address when known. */
export type FailedJob = JobRun & { web_url?: string | undefined };

/** A run as the verdict needs it: kept instead of the whole job, so a project's history stays small. */
const runOf = (job: JobRun): JobRun => ({
  id: job.id,
  name: job.name,
  ref: job.ref,
  status: job.status,
  commit: job.commit
    ? {
        id: job.commit.id,
        ...(job.commit.short_id ? { short_id: job.commit.short_id } : {}),
        ...(job.commit.title ? { title: job.commit.title } : {}),
      }
    : null,
});

export interface FailureReader {
  /** The excerpt and verdict of each failed job of `jobs`, the first EXPLAINED_PER_CARD of them; reads what is not kept. */
  explain(reading: Reading, project: Project, jobs: readonly FailedJob[], now: Date): Promise<FailureNote[]>;
  /** The excerpt of one finished job's trace, read once and kept (null: the trace says nothing). */
  excerpt(reading: Reading, project: Project, jobId: number, now: Date): Promise<TraceRead>;
  /** Forgets what was read of a job's trace: the one change a finished job's trace sees is being erased. */
  forget(project: Project, jobId: number): void;
  /**
   * Why a `build_failed` todo's build failed: its merge request's newest pipeline on the source branch, when it
   * failed, and its failed jobs explained (null: not such a todo, or nothing failed there now).
   */
  explainBuild(reading: Reading, todo: Todo, now: Date): Promise<BuildFailure | null>;
}

/** A failed build's explaining lines: its failed jobs' notes, and how many more failed than were explained. */
export interface BuildFailure {
  project: Project;
  notes: FailureNote[];
  more: number;
}

/** What one read of a trace found: its explaining lines, and whether it was empty. */
export interface TraceRead {
  excerpt: FailureExcerpt | null;
  empty: boolean;
}

export function createFailureReader(
  o: {
    /** Registers the team's stored tokens as secrets, so that redaction finds them in a trace. */
    registerTeamSecrets?: (teamId: string) => Promise<void>;
    historyPerPage?: number;
  } = {},
): FailureReader {
  const perPage = o.historyPerPage ?? HISTORY_PER_PAGE;
  // Only finished jobs' excerpts are kept, and those never change: the TTL only bounds how long an unused one stays.
  const excerpts = createTtlCache<TraceRead>({ ttlMs: 24 * 60 * 60_000, maxEntries: EXCERPTS_KEPT });
  const histories = createTtlCache<JobRun[]>({ ttlMs: HISTORY_TTL_MS, maxEntries: PROJECTS_KEPT });

  async function excerpt({ read, teamId }: Reading, project: Project, jobId: number, at: Date): Promise<TraceRead> {
    const key = `${projectKey(project)}#${jobId}`;
    const now = at.getTime();
    const kept = excerpts.get(key, now);
    if (kept !== undefined) return kept;
    const [tail] = await Promise.all([
      read((c) => c.jobs.traceTail(project.key, jobId, TRACE_TAIL_BYTES)),
      o.registerTeamSecrets?.(teamId),
    ]);
    const found = { excerpt: explainFailure(tail.text), empty: tail.text.trim() === '' };
    excerpts.set(key, found, now);
    return found;
  }

  /** The project's latest finished jobs: one page, a second when the first holds too few runs of `names`. */
  async function history(
    { read }: Reading,
    project: Project,
    names: ReadonlySet<string>,
    now: Date,
  ): Promise<JobRun[]> {
    const key = projectKey(project);
    const kept = histories.get(key, now.getTime());
    if (kept) return kept;
    const runs: JobRun[] = [];
    for (let page = 1; page <= HISTORY_PAGES; page++) {
      const answer = await read((c) =>
        c.jobs.list(project.key, { scope: ['failed', 'success'], per_page: perPage, page }),
      );
      runs.push(...answer.items.map((j: Job) => runOf(j)));
      const fewest = Math.min(...[...names].map((name) => runs.filter((r) => r.name === name).length));
      if (!answer.nextPage || fewest >= RUNS_WEIGHED) break;
    }
    histories.set(key, runs, now.getTime());
    return runs;
  }

  async function explain(reading: Reading, project: Project, jobs: readonly FailedJob[], now: Date) {
    const failed = jobs.filter((j) => j.status === 'failed').slice(0, EXPLAINED_PER_CARD);
    if (failed.length === 0) return [];
    const [excerptsRead, runs] = await Promise.all([
      Promise.all(failed.map((j) => excerpt(reading, project, j.id, now).catch(() => null))),
      history(reading, project, new Set(failed.map((j) => j.name)), now).catch(() => null),
    ]);
    return failed.map((job, i): FailureNote => {
      const trace = excerptsRead[i];
      return {
        job: { id: job.id, name: job.name, status: job.status, web_url: job.web_url },
        excerpt: trace?.excerpt ?? null,
        verdict: runs ? judgeRuns(runOf(job), runs) : null,
        trace: !trace ? 'unread' : trace.empty ? 'empty' : 'read',
      };
    });
  }

  return {
    excerpt,
    explain,
    async explainBuild(reading, todo, now) {
      if (todo.action_name !== 'build_failed' || todo.target_type !== 'MergeRequest') return null;
      const branch = todo.target.source_branch;
      if (!branch) return null;
      const project = projectOf(todo.project.path_with_namespace);
      const failed = await reading.read(async (c) => {
        const newest = (await c.pipelines.list(project.key, { ref: branch, per_page: 1 })).items[0];
        if (newest?.status !== 'failed') return [];
        return (await c.jobs.listForPipeline(project.key, newest.id, { scope: 'failed' })).items;
      });
      if (failed.length === 0) return null;
      const notes = await explain(reading, project, failed, now);
      return { project, notes, more: Math.max(0, failed.length - notes.length) };
    },
    forget(project, jobId) {
      excerpts.delete(`${projectKey(project)}#${jobId}`);
    },
  };
}
