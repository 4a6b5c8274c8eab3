// `npm run sim`: the Delivery Service simulator on SIM_PORT (default 4000) with
// the SIM_SEED data set (default demo), on 127.0.0.1 unless SIM_HOST says otherwise:
// its /__sim/* controls (reset, revoke, add tokens) ask for no credentials, so only this
// machine reaches them unless someone chooses `SIM_HOST=0.0.0.0` (or `::`).

import { SEED_NAMES, type SeedName } from './seed/index.js';
import { type RunningSimulator, startSimulator } from './server.js';

function fail(message: string): never {
  process.stderr.write(`simulator: ${message}\n`);
  process.exit(1);
}

const portText = process.env.SIM_PORT ?? '4000';
if (!/^\d+$/.test(portText) || Number(portText) > 65_535) fail(`SIM_PORT must be a port number, got "${portText}"`);
const seedText = process.env.SIM_SEED || 'demo';
if (!(SEED_NAMES as readonly string[]).includes(seedText))
  fail(`SIM_SEED must be one of ${SEED_NAMES.join(', ')}, got "${seedText}"`);
const seed = seedText as SeedName;
const port = Number(portText);
const wantedHost = process.env.SIM_HOST;
// SIM_EVENT_IDS=1: events carry their `id`, as servers after 9.5 send them (9.5, the default, sends none).
const eventIds = process.env.SIM_EVENT_IDS === '1' || process.env.SIM_EVENT_IDS === 'true';

// SIM_HISTORY=1: demo/web with four weeks of delivery history (what insights chart; `npm run demo` has it);
// SIM_HISTORY=5000:500: that many pipelines and about that many deployments over the last 30 days (benchmarks).
const historyText = process.env.SIM_HISTORY ?? '';
const sized = /^(\d+):(\d+)$/.exec(historyText);
const history = sized
  ? { pipelines: Number(sized[1]), deployments: Number(sized[2]) }
  : historyText === '1' || historyText === 'true';

function start(): Promise<RunningSimulator> {
  return startSimulator({ port, host: wantedHost || '127.0.0.1', seed, eventIds, history });
}

// Signals are handled before the "listening" line goes out: whoever waits for that line may
// stop the simulator the moment it reads it.
let sim: RunningSimulator | null = null;
let closing = false;
const stop = (signal: string) => {
  if (closing) return;
  closing = true;
  (sim ? sim.close() : Promise.resolve()).then(
    () => process.exit(0),
    (err: unknown) => fail(`could not stop cleanly after ${signal}: ${String(err)}`),
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

try {
  sim = await start();
  process.stdout.write(`simulator listening on ${sim.url} (seed ${seed})\n`);
} catch (err) {
  fail(`cannot listen on port ${port}: ${(err as Error).message}`);
}
