// Preloaded next to bench/probe.mjs by bench/ab-builds.ts (through NODE_OPTIONS), active only in the process whose
// main script ends with BENCH_PROBE_MAIN: counts each collection by kind (v8.GCProfiler: its cost, what a scavenge
// promoted to the old generation and left in the young one) and, on SIGUSR2, writes the totals since start and the
// event loop's utilisation to BENCH_GC_METER_DIR/<pid>.json. Nothing runs between signals but V8's own callback.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';

const main = process.env.BENCH_PROBE_MAIN;
const dir = process.env.BENCH_GC_METER_DIR;
if (dir && main && process.argv[1]?.endsWith(main)) {
  const gc = { scavengeUs: 0, majorUs: 0, otherUs: 0, scavenges: 0, majors: 0, promoted: 0, survived: 0 };
  const used = (stats, name) => stats.heapSpaceStatistics.find((s) => s.spaceName === name)?.spaceUsedSize ?? 0;
  let profiler = new v8.GCProfiler();
  profiler.start();
  process.on('SIGUSR2', () => {
    const report = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    for (const e of report?.statistics ?? []) {
      if (e.gcType === 'Scavenge' || e.gcType === 'MinorMarkCompact') {
        gc.scavenges++;
        gc.scavengeUs += e.cost;
        gc.promoted += used(e.afterGC, 'old_space') - used(e.beforeGC, 'old_space');
        gc.survived += used(e.afterGC, 'new_space');
      } else if (e.gcType === 'MarkSweepCompact') {
        gc.majors++;
        gc.majorUs += e.cost;
      } else gc.otherUs += e.cost;
    }
    const elu = performance.eventLoopUtilization();
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ gc, elu }));
  });
}
