// The simulator's public API, for in-process use by tests, the demo console
// and benchmarks. `npm run sim` is src/sim/main.ts.

export type { SeedName } from './seed/index.js';
export type { Faults, PushRequest, RunningSimulator, SimRequestLogEntry, SimulatorOptions } from './server.js';
export { startSimulator } from './server.js';
