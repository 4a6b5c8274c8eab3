// What the metrics cost a command, measured apart from everything else (issue 45): the records one `/gl jobs
// demo/web` makes with metrics on (its command count, its ack and answer times, its GitLab call by route template)
// and a scrape, in a loop, as CPU microseconds per command. Next to the bot's CPU per command from
// `BENCH_AB_A_ENV=METRICS=off npx tsx bench/ab-builds.ts` (the same build with and without metrics, in one run)
// it says what share of a command the metrics are, which a loaded machine's noise between two processes cannot.
//
//   npx tsx bench/metrics-cost.ts        Knobs: BENCH_COMMANDS (200000)

import { createMetrics, recordGitlabAttempts } from '../src/index.js';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200_000);

function perCommandMicros(metrics: ReturnType<typeof createMetrics>): number {
  const attempt = recordGitlabAttempts(metrics, { projectLabel: false });
  const run = (n: number) => {
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      metrics.acked('command', (performance.now() - started) / 1000);
      attempt?.({ method: 'GET', path: '/projects/demo%2Fweb/jobs', status: 200, ms: 3 });
      metrics.answered('command', (performance.now() - started) / 1000);
      metrics.command('job', 'list', 'ok');
    }
  };
  run(COMMANDS / 10); // V8 optimises the loop first
  const before = process.cpuUsage();
  run(COMMANDS);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / COMMANDS;
}

const on = perCommandMicros(createMetrics());
const off = perCommandMicros(createMetrics({ enabled: false }));
const metrics = createMetrics();
const scrapeStarted = process.cpuUsage();
for (let i = 0; i < 100; i++) await metrics.registry?.metrics();
const scrape = process.cpuUsage(scrapeStarted);
const result = {
  metrics_cost: {
    commands: COMMANDS,
    cpu_us_per_command_metrics_on: Math.round(on * 100) / 100,
    cpu_us_per_command_metrics_off: Math.round(off * 100) / 100,
    cpu_ms_per_scrape: Math.round((scrape.user + scrape.system) / 100) / 1000,
  },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
