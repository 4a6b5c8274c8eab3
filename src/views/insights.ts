import { JobButtons } from '../buttons/ci.js';
import { type Project, projectButtonKey } from '../gitlab/project.js';
import { dayLabel } from '../insights/chart.js';
import type { JobStat } from '../insights/health.js';
import type { DeliveryKeys } from '../insights/keys.js';
import type { InsightsReport } from '../insights/report.js';
import {
  actions,
  type Block,
  button,
  context,
  divider,
  fields,
  header,
  message,
  type SlackMessage,
  section,
} from './blocks.js';
import { formatDuration } from './format.js';
import { code, joinMd, type Md, md } from './mrkdwn.js';

// The insights card: the four keys against the window before, how each is computed, the pipelines' health on the
// ref with the slowest and most-failing jobs (each a button to its `/gl job` card), and what was read to say so.

export interface InsightsCardOptions {
  /** `vs the 30 days before` on a command; `vs last week` in the weekly digest. */
  versus: string;
  /** Where the chart went: "below", "in your direct message with the bot"; null when there is none. */
  chart: string | null;
  /** The project as the command named it, for the job buttons' values. */
  project: Project;
}

const HOUR = 3_600_000;

/** 90 s → "1m 30s"; 26 h → "1d 2h": lead and restore times are hours to days. */
function span(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 2 * HOUR) return formatDuration(ms / 1000).replace(/ 0s$/, '');
  const hours = Math.round(ms / HOUR);
  return hours < 48 ? `${hours}h` : `${Math.floor(hours / 24)}d ${hours % 24}h`.replace(/ 0h$/, '');
}

const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const pct = (r: number | null) => (r === null ? '—' : `${Math.round(r * 100)}%`);
const perWeek = (n: number) => (n >= 10 ? String(Math.round(n)) : n.toFixed(1).replace(/\.0$/, ''));
const minutes = (s: number | null) => (s === null ? '—' : formatDuration(s));

/** `↑`/`↓` and whether that is better: the reader should not have to know which way is good for each key. */
function trend(now: number | null, before: number | null, higherIsBetter: boolean): string {
  if (now === null || before === null) return '';
  if (Math.abs(now - before) < 1e-9) return ' · same';
  const up = now > before;
  return ` · ${up ? '↑' : '↓'} ${up === higherIsBetter ? 'better' : 'worse'}`;
}

function keyFields(k: { now: DeliveryKeys; before: DeliveryKeys }, days: number, versus: string): Md[] {
  const { now, before } = k;
  const was = (text: string) => md`_${versus}: ${text}_`;
  return [
    md`*Deployment frequency*\n${perWeek(now.perWeek)} a week (${now.deployments} in ${days} day${days === 1 ? '' : 's'}${now.failed ? `, ${now.failed} failed` : ''})${trend(now.perWeek, before.perWeek, true)}\n${was(`${perWeek(before.perWeek)} a week`)}`,
    md`*Lead time for changes*\nmedian ${span(now.leadTime.medianMs)} · p90 ${span(now.leadTime.p90Ms)} (${now.leadTime.changes} change${now.leadTime.changes === 1 ? '' : 's'})${trend(now.leadTime.medianMs, before.leadTime.medianMs, false)}\n${was(`median ${span(before.leadTime.medianMs)}`)}`,
    md`*Change failure rate*\n${pct(now.changeFailureRate)} (${now.failed} of ${now.deployments})${trend(now.changeFailureRate, before.changeFailureRate, false)}\n${was(pct(before.changeFailureRate))}`,
    md`*Time to restore*\nmedian ${span(now.restore.medianMs)} (${now.restore.restored} restored${now.restore.open ? `, ${now.restore.open} not yet` : ''})${trend(now.restore.medianMs, before.restore.medianMs, false)}\n${was(`median ${span(before.restore.medianMs)}`)}`,
  ];
}

/** How each key is computed, in the card's words (the long form is `/gl help insights`). */
export const HOW_COMPUTED = [
  'Frequency: every deployment to the environment, whatever its outcome.',
  'Lead time: from a merge request’s merge (merged_at, else its last update) to the first successful deployment of its target branch after it.',
  'Failure rate: deployments whose job failed, or that the next deployment rolled back (an older commit put back), of those that finished.',
  'Restore: from the first failed deployment of a run to the next successful one.',
] as const;

function jobButtons(stats: readonly JobStat[], project: Project, prefix: string) {
  return stats.map((s, i) =>
    button({
      text: `${s.name} #${s.jobId}`,
      def: JobButtons.show,
      value: { p: projectButtonKey(project), j: s.jobId },
      slot: `${prefix}${i}`,
    }),
  );
}

function healthBlocks(r: InsightsReport, project: Project): Block[] {
  const h = r.health;
  if (h.pipelines === 0)
    return [section(md`*Pipelines on ${code(h.ref)}*\nNo pipelines on ${code(h.ref)} in the last ${r.days} days.`)];
  const weeks = h.weeks.map((w) =>
    w.pipelines === 0
      ? md`${dayLabel(w.start)}: none`
      : md`${dayLabel(w.start)}: ${pct(w.successRate)} of ${w.pipelines} · ${minutes(w.medianS)} / ${minutes(w.p90S)}`,
  );
  const blocks: Block[] = [
    section(
      md`*Pipelines on ${code(h.ref)}*: ${pct(h.successRate)} passed of ${h.pipelines} · median ${minutes(h.medianS)} · p90 ${minutes(h.p90S)}\n*Per week* (passed · median / p90): ${joinMd(weeks, ' | ')}`,
    ),
  ];
  if (h.slowest.length) {
    blocks.push(
      section(
        md`*Slowest jobs* (median): ${joinMd(
          h.slowest.map((s) => md`${code(s.name)} ${minutes(s.medianS)}`),
          ', ',
        )}`,
      ),
    );
  }
  if (h.mostFailing.length) {
    blocks.push(
      section(
        md`*Most-failing jobs*: ${joinMd(
          h.mostFailing.map((s) => md`${code(s.name)} failed ${s.failures} of ${s.runs}`),
          ', ',
        )}`,
      ),
    );
  }
  const buttons = [...jobButtons(h.slowest, project, 's'), ...jobButtons(h.mostFailing, project, 'f')];
  if (buttons.length) blocks.push(actions(buttons));
  return blocks;
}

function readLine(r: InsightsReport): Md[] {
  const lines = [
    md`From ${count(r.read.pipelines, 'pipeline')} and ${count(r.read.deployments, 'deployment')} in the window (${count(r.read.jobs, 'job')}, ${count(r.read.changes, 'merged merge request')} and the deployments before it, read in ${count(r.read.calls, 'call')}) · ${dayLabel(r.window.start)} – ${dayLabel(r.window.end)}, weeks in UTC.`,
  ];
  for (const c of r.read.capped) {
    lines.push(
      md`:scissors: Only the newest ${c.list} were read (the page cap), back to ${Number.isFinite(c.reachesBack) ? dayLabel(c.reachesBack) : 'the start'}: older ones are not counted.`,
    );
  }
  return lines;
}

export function buildInsightsCard(r: InsightsReport, o: InsightsCardOptions): SlackMessage {
  const title = `:bar_chart: Insights · ${r.project.path} · last ${r.days} day${r.days === 1 ? '' : 's'}`;
  const blocks: Block[] = [header(title)];
  if (r.keys && r.environment) {
    const picked = r.environmentNamed
      ? md`Keys for the environment ${code(r.environment)}`
      : md`Keys for ${code(r.environment)}, the production-like environment (\`--env\` picks another${
          r.environments.length > 1
            ? md`: ${joinMd(
                r.environments.filter((e) => e !== r.environment).map((e) => code(e)),
                ', ',
              )}`
            : ''
        })`;
    blocks.push(context([md`${picked} · ${o.versus}`]));
    blocks.push(fields(keyFields(r.keys, r.days, o.versus)));
    blocks.push(context(HOW_COMPUTED.map((line) => md`${line}`)));
  } else {
    blocks.push(
      section(
        md`:information_source: ${r.project.path} has no deployments in the last ${r.days * 2} days, so there are no keys of delivery to show. Its pipelines:`,
      ),
    );
  }
  blocks.push(divider(), ...healthBlocks(r, o.project));
  if (o.chart) blocks.push(context([md`:chart_with_upwards_trend: The chart of these weeks is ${o.chart}.`]));
  blocks.push(context(readLine(r)));
  const k = r.keys?.now;
  const text = k
    ? md`Insights for ${r.project.path}, last ${r.days} days: ${k.deployments} deployments to ${r.environment ?? ''}, change failure rate ${pct(k.changeFailureRate)}, pipelines on ${r.health.ref} ${pct(r.health.successRate)} passed.`
    : md`Insights for ${r.project.path}, last ${r.days} days: no deployments; pipelines on ${r.health.ref} ${pct(r.health.successRate)} passed.`;
  return message(text, blocks);
}

/**
 * The weekly insights digest: the card with "vs last week" and, when the chart was uploaded, the chart as an image of
 * the message itself (a file the bot uploaded without sharing it), so that one post carries both and is posted once.
 */
export function buildInsightsDigest(
  r: InsightsReport,
  o: { project: Project; chart: { fileId: string; altText: string } | null },
): SlackMessage {
  const card = buildInsightsCard(r, { versus: 'vs last week', chart: null, project: o.project });
  if (!o.chart) return card;
  const image: Block = {
    type: 'image',
    slack_file: { id: o.chart.fileId },
    alt_text: o.chart.altText.slice(0, 2000),
    title: { type: 'plain_text', text: `${r.project.path}: the last ${r.trendWeeks.length} weeks` },
  };
  const blocks = [...(card.blocks ?? [])];
  blocks.splice(blocks.length - 1, 0, image);
  return { ...card, blocks };
}

/** The note shown while a long read goes on; the answer replaces it. */
export function buildInsightsProgress(project: string, days: number): SlackMessage {
  return message(
    md`:hourglass_flowing_sand: Reading ${project}’s deployments, jobs and merge requests of the last ${days * 2} days…`,
  );
}
