// The data sets the simulator can start with.

import type { State } from '../model.js';
import { SeedBuilder } from './builder.js';
import { buildDemoState } from './demo.js';
import type { HistorySize } from './history.js';
import { seedUsers } from './users.js';

export type SeedName = 'demo' | 'empty';

export const SEED_NAMES: readonly SeedName[] = ['demo', 'empty'];

/** `empty`: the four users and their tokens, nothing else. */
export function buildEmptyState(now: Date): State {
  const b = new SeedBuilder(now);
  seedUsers(b);
  b.runner('shared-runner-02');
  return b.state;
}

/**
 * `history`: the demo with four weeks of delivery before its recent activity (seed/history.ts); a size instead makes
 * it as many pipelines and about as many deployments over the last 30 days (benchmarks).
 */
export function buildSeed(name: SeedName, now: Date, o: { history?: boolean | HistorySize } = {}): State {
  return name === 'demo' ? buildDemoState(now, o) : buildEmptyState(now);
}
