// When a pipeline schedule runs. A schedule keeps `run_due_at`, the run the fake runner
// owes it: the first tick at or after that moment starts a pipeline and moves it on.
// What clients read as `next_run_at` is computed from the clock of the request instead,
// so it never lies in the past however long the simulator has run without a tick.

import { nextCronRun, parseCron } from '../cron.js';
import type { ScheduleRecord } from '../model.js';

/** The first run of `cron` in `zone` strictly after `at`, or null when it never fires. */
export function nextRunAfter(cron: string, zone: string, at: Date): Date | null {
  const spec = parseCron(cron);
  return spec ? nextCronRun(spec, zone, at) : null;
}

/** `next_run_at` as the server would show it at `now`. */
export function upcomingRun(s: ScheduleRecord, now: Date): string {
  return (nextRunAfter(s.cron, s.cron_timezone, now) ?? new Date(s.run_due_at)).toISOString();
}
