// What the insights read from the server, reduced to plain facts (times in epoch milliseconds), and what they
// compute from them. Nothing here knows the wire format or Slack.

/** One deployment to an environment, with the outcome of its deployment job. */
export interface DeploymentFact {
  id: number;
  environment: string;
  ref: string;
  sha: string;
  createdAt: number;
  /** `success` or `failed` once the deployment job finished; anything else is still going (or was canceled). */
  status: 'success' | 'failed' | 'other';
}

/** A merged merge request: a change, from its merge. */
export interface ChangeFact {
  iid: number;
  targetBranch: string;
  mergedAt: number;
}

/** One job run, with what it says of its pipeline. */
export interface JobFact {
  id: number;
  name: string;
  status: string;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  pipelineId: number;
  pipelineRef: string;
  pipelineStatus: string;
}

/** A span of time [start, end). */
export interface Window {
  start: number;
  end: number;
}

/** One key for the window and the window before it. */
export interface Compared<T> {
  now: T;
  before: T;
}
