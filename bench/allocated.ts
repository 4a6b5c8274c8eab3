// Bytes this process allocates on the JavaScript heap (what each collection freed, plus what is in use), counted as
// bench/probe.mjs counts them: a figure the machine's load does not change, unlike CPU time.

import v8 from 'node:v8';

/** Starts counting; the function it returns gives the bytes allocated since. */
export function countAllocations(): () => number {
  let freed = 0;
  let profiler = new v8.GCProfiler();
  profiler.start();
  const start = v8.getHeapStatistics().used_heap_size;
  return () => {
    for (const s of profiler.stop().statistics)
      freed += s.beforeGC.heapStatistics.usedHeapSize - s.afterGC.heapStatistics.usedHeapSize;
    profiler = new v8.GCProfiler();
    profiler.start();
    return freed + v8.getHeapStatistics().used_heap_size - start;
  };
}
