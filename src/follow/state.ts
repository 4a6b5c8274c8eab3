import type { Job, Pipeline } from '../gitlab/schemas.js';

// What a followed card shows, reduced to what decides whether it is drawn again: `full` changes with any job's
// status (a shared card is redrawn then), `milestone` only at the changes that matter to an ephemeral card, whose
// response_url allows few uses: started, each stage done, finished.

/** Statuses after which nothing more happens by itself. */
export const DONE_STATUSES = new Set(['success', 'failed', 'canceled', 'skipped']);

const JOB_DONE = new Set(['success', 'failed', 'canceled', 'skipped']);

export interface Drawn {
  full: string;
  milestone: string;
}

function phase(status: string): string {
  if (status === 'created' || status === 'pending') return 'waiting';
  return status;
}

/** Stages in the order they run, each with the newest job of every name (a retry replaces what it retried). */
function stagesOf(jobs: readonly Job[]): [string, Job[]][] {
  const stages = new Map<string, Map<string, Job>>();
  for (const job of [...jobs].sort((a, b) => a.id - b.id)) {
    const byName = stages.get(job.stage) ?? new Map<string, Job>();
    byName.set(job.name, job);
    stages.set(job.stage, byName);
  }
  return [...stages].map(([stage, byName]) => [stage, [...byName.values()]]);
}

export function pipelineDrawn(p: Pick<Pipeline, 'status'>, jobs: readonly Job[]): Drawn {
  const stages = stagesOf(jobs);
  const full = JSON.stringify([p.status, stages.map(([s, js]) => [s, js.map((j) => [j.name, j.status])])]);
  // A stage counts as done once all its jobs are; counted from the first stage on, as stages run in order.
  let done = 0;
  for (const [, js] of stages) {
    if (!js.every((j) => JOB_DONE.has(j.status))) break;
    done += 1;
  }
  return { full, milestone: JSON.stringify([phase(p.status), DONE_STATUSES.has(p.status) ? stages.length : done]) };
}

export function jobDrawn(j: Pick<Job, 'status'>): Drawn {
  return { full: JSON.stringify([j.status]), milestone: JSON.stringify([phase(j.status)]) };
}

export function encodeDrawn(d: Drawn): string {
  return JSON.stringify(d);
}

export function decodeDrawn(text: string | null): Drawn | null {
  if (!text) return null;
  try {
    const d = JSON.parse(text) as Partial<Drawn>;
    return typeof d.full === 'string' && typeof d.milestone === 'string'
      ? { full: d.full, milestone: d.milestone }
      : null;
  } catch {
    return null;
  }
}
