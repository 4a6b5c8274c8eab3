import type { PipelineHealth } from './health.js';
import type { DeliveryKeys } from './keys.js';
import type { Compared, Window } from './types.js';

// What `/gl insights` and the insights digest answer with: the keys, the health, and what was read to say so.

export interface InsightsReport {
  project: { path: string; webUrl: string | null };
  days: number;
  window: Window;
  before: Window;
  /** The environment the keys are about; null when the project deployed nowhere in either window. */
  environment: string | null;
  /** Whether the environment was named (`--env`) or picked as the production-like one. */
  environmentNamed: boolean;
  environments: string[];
  ref: string;
  keys: Compared<DeliveryKeys> | null;
  health: PipelineHealth;
  /** The weeks the chart draws: the health's own, or more of them when a longer trend was asked for. */
  trendWeeks: PipelineHealth['weeks'];
  read: {
    calls: number;
    /** Pipelines (any ref) and deployments (any environment) created in the window. */
    pipelines: number;
    deployments: number;
    jobs: number;
    changes: number;
    /** Lists whose cap was reached before they went back far enough, with the oldest moment they reach. */
    capped: { list: 'jobs' | 'deployments' | 'merge requests'; reachesBack: number }[];
  };
  /** When the answer was read (a cached answer says so). */
  readAt: number;
}

const DAY = 86_400_000;

/**
 * The windows a report is about, ending at `end`: the last `days` days, the same number of days before them, and
 * the span the chart's weeks cover (`trendDays` back, never less than the window).
 */
export function windowsOf(end: number, days: number, trendDays = 0): { window: Window; before: Window; trend: Window } {
  const window = { start: end - days * DAY, end };
  return {
    window,
    before: { start: window.start - days * DAY, end: window.start },
    trend: { start: Math.min(window.start, end - trendDays * DAY), end },
  };
}
