import { type RunningSimulator, startSimulator } from '../../src/sim/index.js';
import type { FakeClock } from './clock.js';

export type { RunningSimulator };

/**
 * The simulator with the demo data set on a free port, for one test file, on the test's
 * clock (give the bot the same one, so both sides agree on what time it is). `history`: with the four weeks of
 * delivery in demo/web that insights chart (the demo's data set has them).
 */
export function startSim(clock: FakeClock, o: { history?: boolean } = {}): Promise<RunningSimulator> {
  return startSimulator({ port: 0, seed: 'demo', now: clock.now, ...o });
}

export const TOKENS = {
  root: 'sim-root-token',
  alice: 'sim-alice-token',
  bob: 'sim-bob-token',
  eve: 'sim-eve-token',
} as const;
