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
