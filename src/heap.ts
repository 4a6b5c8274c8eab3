import v8 from 'node:v8';

// V8 lets the old generation grow to about four times what survived the last full collection before it collects
// again. Under a burst (200 commands in flight) the bot's live heap is ~30 MiB, yet the heap grew to ~150 MiB and
// the process to ~250 MiB, twice a bare Bolt app's. Growing by half instead keeps it near 85 MiB (RSS ~165 MiB) for
// a few more full collections: measured with `npm run bench` (README → Benchmarks), about 5 % more CPU per command.

/** How much the old generation may grow past its live size before the next full collection, in percent. */
export const HEAP_GROWING_PERCENT = 50;

const FLAG = '--heap-growing-percent';

/** The V8 flag to set at start, or null when the operator chose their own on the command line. */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  return execArgv.some((arg) => arg === FLAG || arg.startsWith(`${FLAG}=`)) ? null : `${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/** Applies the bot's heap growth unless `node --heap-growing-percent=N` said otherwise. */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): void {
  const flag = heapGrowthFlag(execArgv);
  if (flag) v8.setFlagsFromString(flag);
}
