import { type RunningSimulator, startSimulator } from '../../src/sim/index.js';

export type { RunningSimulator };

/** The simulator with the demo data set on a free port, for one test file. */
export function startSim(): Promise<RunningSimulator> {
  return startSimulator({ port: 0, seed: 'demo' });
}

export const TOKENS = {
  root: 'sim-root-token',
  alice: 'sim-alice-token',
  bob: 'sim-bob-token',
  eve: 'sim-eve-token',
} as const;
