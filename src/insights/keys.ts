import { median, percentile } from './stats.js';
import type { ChangeFact, DeploymentFact, Window } from './types.js';

// The four keys of delivery performance over one window, computed from deployments to one environment and the
// merge requests merged before them. The rules here are the ones the card and `/gl help insights` state.

export interface DeliveryKeys {
  /** Deployments to the environment created in the window, whatever their outcome. */
  deployments: number;
  /** Of those, the ones that count as failed (FAILURE_RULE). */
  failed: number;
  /** Deployments per week over the window. */
  perWeek: number;
  /** From a merge request's merge to the first successful deployment of its target branch at or after it. */
  leadTime: { medianMs: number | null; p90Ms: number | null; changes: number };
  /** failed ÷ deployments that finished (succeeded or failed); null when none finished. */
  changeFailureRate: number | null;
  /** From the first failed deployment of a run of failures to the next successful one; `open`: not restored yet. */
  restore: { medianMs: number | null; restored: number; open: number };
}

const WEEK = 7 * 24 * 3_600_000;

const inWindow = (t: number, w: Window) => t >= w.start && t < w.end;

/**
 * Which deployments count as failed: the deployment job failed, or the next deployment to the same environment put
 * back a sha deployed there before this one (a rollback of it). `ordered` is one environment's, oldest first.
 */
export function failedDeployments(ordered: readonly DeploymentFact[]): Set<number> {
  const failed = new Set<number>();
  const seen = new Set<string>();
  ordered.forEach((d, i) => {
    if (d.status === 'failed') failed.add(d.id);
    const next = ordered[i + 1];
    if (next && next.sha !== d.sha && seen.has(next.sha)) failed.add(d.id);
    seen.add(d.sha);
  });
  return failed;
}

/** One environment's deployments, oldest first (ties by id, the order the server made them in). */
export function deploymentsTo(deployments: readonly DeploymentFact[], environment: string): DeploymentFact[] {
  return deployments
    .filter((d) => d.environment === environment)
    .sort((a, b) => a.createdAt - b.createdAt || a.id - b.id);
}

function restoreTimes(ordered: readonly DeploymentFact[], failed: Set<number>, w: Window) {
  const times: number[] = [];
  let open = 0;
  let brokenAt: number | null = null;
  for (const d of ordered) {
    const bad = failed.has(d.id);
    if (bad && brokenAt === null) brokenAt = d.createdAt;
    if (!bad && d.status === 'success' && brokenAt !== null) {
      if (inWindow(brokenAt, w)) times.push(d.createdAt - brokenAt);
      brokenAt = null;
    }
  }
  if (brokenAt !== null && inWindow(brokenAt, w)) open += 1;
  return { times, open };
}

function leadTimes(ordered: readonly DeploymentFact[], changes: readonly ChangeFact[], w: Window): number[] {
  const succeeded = ordered.filter((d) => d.status === 'success');
  const times: number[] = [];
  for (const change of changes) {
    const shipped = succeeded.find((d) => d.ref === change.targetBranch && d.createdAt >= change.mergedAt);
    if (shipped && inWindow(shipped.createdAt, w)) times.push(shipped.createdAt - change.mergedAt);
  }
  return times;
}

/** The four keys for `environment` over `w`, from every deployment and change read (earlier ones give context). */
export function computeKeys(input: {
  deployments: readonly DeploymentFact[];
  changes: readonly ChangeFact[];
  environment: string;
  window: Window;
}): DeliveryKeys {
  const w = input.window;
  const ordered = deploymentsTo(input.deployments, input.environment);
  const failed = failedDeployments(ordered);
  const within = ordered.filter((d) => inWindow(d.createdAt, w));
  const finished = within.filter((d) => d.status === 'success' || d.status === 'failed' || failed.has(d.id));
  const failedWithin = within.filter((d) => failed.has(d.id)).length;
  const lead = leadTimes(ordered, input.changes, w);
  const restore = restoreTimes(ordered, failed, w);
  return {
    deployments: within.length,
    failed: failedWithin,
    perWeek: (within.length * WEEK) / (w.end - w.start),
    leadTime: { medianMs: median(lead), p90Ms: percentile(lead, 90), changes: lead.length },
    changeFailureRate: finished.length === 0 ? null : failedWithin / finished.length,
    restore: { medianMs: median(restore.times), restored: restore.times.length, open: restore.open },
  };
}

/**
 * The environment the keys are about when none is named: `production` or one named like it (`prod`, `prd`,
 * `production-eu`), else the one deployed to most. null when there are no deployments.
 */
export function productionLike(deployments: readonly DeploymentFact[]): string | null {
  const counts = new Map<string, number>();
  for (const d of deployments) counts.set(d.environment, (counts.get(d.environment) ?? 0) + 1);
  const names = [...counts.keys()].sort();
  const exact = names.find((n) => n.toLowerCase() === 'production');
  if (exact) return exact;
  const like = names.find((n) => /(^|[^a-z])(prod|production|prd)([^a-z]|$)/i.test(n));
  if (like) return like;
  let best: string | null = null;
  for (const n of names) if (best === null || (counts.get(n) ?? 0) > (counts.get(best) ?? 0)) best = n;
  return best;
}
