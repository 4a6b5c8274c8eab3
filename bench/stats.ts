// Small numeric helpers of the benches: quantiles, rounding, and the simulator's time per command.

export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? null;
}

export const median = (values: readonly number[]) => quantile(values, 0.5);

export function round(x: number | null, digits = 2): number | null {
  if (x === null || !Number.isFinite(x)) return null;
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export const MiB = (bytes: number) => round(bytes / 1024 / 1024, 1);

export interface Intervals {
  start: number[];
  end: number[];
}

/**
 * How long the simulator spent on each command: every request it served that started inside a command's window
 * (the command's start to its answer, on the shared monotonic clock) counts for that command. Windows must not
 * overlap (one command at a time). Returns ms per window and the number of requests per window.
 */
export function simTimePerWindow(windows: Intervals, sim: Intervals): { ms: number[]; calls: number[] } {
  const order = sim.start.map((_, i) => i).sort((a, b) => (sim.start[a] ?? 0) - (sim.start[b] ?? 0));
  const ms: number[] = [];
  const calls: number[] = [];
  let j = 0;
  for (let w = 0; w < windows.start.length; w++) {
    const from = windows.start[w] ?? 0;
    const to = windows.end[w] ?? 0;
    let total = 0;
    let count = 0;
    while (j < order.length && (sim.start[order[j] ?? 0] ?? 0) < from) j++;
    while (j < order.length && (sim.start[order[j] ?? 0] ?? 0) <= to) {
      const i = order[j] ?? 0;
      total += ((sim.end[i] ?? 0) - (sim.start[i] ?? 0)) / 1e6;
      count++;
      j++;
    }
    ms.push(total);
    calls.push(count);
  }
  return { ms, calls };
}

/** Sum of the durations, in ms. */
export function busyMs(sim: Intervals): number {
  let total = 0;
  for (let i = 0; i < sim.start.length; i++) total += ((sim.end[i] ?? 0) - (sim.start[i] ?? 0)) / 1e6;
  return total;
}
