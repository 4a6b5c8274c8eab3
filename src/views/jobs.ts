import type { Button } from '@slack/types';
import type { Job } from '../gitlab/schemas.js';
import { actions, type Block, button, context, fields, header, message, type SlackMessage, section } from './blocks.js';
import {
  type CardContext,
  LIST_ROWS,
  type ListContext,
  linked,
  noticeBlock,
  openButton,
  type ProjectKey,
  pagingBlocks,
  projectLabel,
  webUrl,
  when,
} from './ci.js';
import { formatBytes, formatDuration } from './format.js';
import { LIMITS, truncate } from './limits.js';
import { code, esc } from './mrkdwn.js';
import { CANCELABLE, FINISHED, shortSha, statusBadge, statusEmoji } from './status.js';

export function jobUrl(serverUrl: string, project: ProjectKey, job: Pick<Job, 'id' | 'web_url'>): string | null {
  return job.web_url ?? webUrl(serverUrl, project, `-/jobs/${job.id}`);
}

export function jobLabel(job: Pick<Job, 'id' | 'name'>): string {
  return `job #${job.id} (${job.name})`;
}

type JobAction = 'retry' | 'cancel' | 'play' | 'erase' | 'keep' | 'trace';

/**
 * The actions a job's state allows, in the order they appear on the card. The API does not say
 * whether a job was erased, so a card redrawn right after an erase passes `erased`.
 */
export function jobActionsFor(job: Pick<Job, 'status' | 'artifacts_file'>, erased = false): JobAction[] {
  const out: JobAction[] = [];
  if (FINISHED.has(job.status)) out.push('retry');
  if (CANCELABLE.has(job.status)) out.push('cancel');
  if (job.status === 'manual') out.push('play');
  if (FINISHED.has(job.status) && !erased) out.push('erase');
  if (job.artifacts_file && !erased) out.push('keep');
  out.push('trace');
  return out;
}

function jobButton(
  action: JobAction,
  job: Job,
  project: ProjectKey,
  list: ListContext | null,
  slot?: number | string,
): Button {
  const value = { p: project, j: job.id, ...(list ? { q: list.query, n: list.page } : {}) };
  const at = `job #${job.id} (${job.name}) in ${projectLabel(project)}`;
  const s = slot;
  switch (action) {
    case 'retry':
      return button({ text: 'Retry', name: 'job.retry', value, style: 'primary', slot: s });
    case 'cancel':
      return button({
        text: 'Cancel',
        name: 'job.cancel',
        value,
        slot: s,
        confirm: {
          title: 'Cancel this job?',
          text: `Cancel ${at}? It stops where it is.`,
          confirm: 'Cancel job',
          deny: 'Keep running',
        },
      });
    case 'play':
      return button({ text: 'Play', name: 'job.play', value, style: 'primary', slot: s });
    case 'erase':
      return button({
        text: 'Erase',
        name: 'job.erase',
        value,
        style: 'danger',
        slot: s,
        confirm: {
          title: 'Erase this job?',
          text: `Erase ${at}? Its trace and artifacts are deleted for good.`,
          confirm: 'Erase',
        },
      });
    case 'keep':
      return button({ text: 'Keep artifacts', name: 'job.keep', value, slot: s });
    case 'trace':
      return button({ text: 'Trace', name: 'job.trace', value: { p: project, j: job.id }, slot: s });
  }
}

export function buildJobCard(job: Job, project: ProjectKey, c: CardContext): SlackMessage {
  const url = jobUrl(c.serverUrl, project, job);
  const pipelineUrl = job.pipeline
    ? (job.pipeline.web_url ?? webUrl(c.serverUrl, project, `pipelines/${job.pipeline.id}`))
    : null;
  const duration =
    typeof job.duration === 'number'
      ? formatDuration(job.duration)
      : job.started_at && job.finished_at
        ? formatDuration((Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000)
        : job.started_at
          ? `running since ${when(job.started_at, c.now)}`
          : '—';
  const commit = job.commit
    ? `${code(shortSha(job.commit.id))} ${esc(truncate(job.commit.title, 120))} — ${esc(job.commit.author_name)}`
    : '—';
  const who = job.user ? `${esc(job.user.name)} (@${esc(job.user.username)})` : '—';
  const blocks: Block[] = [
    header(`${statusEmoji(job.status)} Job #${job.id} · ${job.name}`),
    fields([
      `*Status*\n${statusBadge(job.status)}`,
      `*Stage*\n${esc(job.stage)}`,
      `*Ref*\n${code(job.ref)}${job.tag ? ' (tag)' : ''}`,
      `*Pipeline*\n${job.pipeline ? linked(pipelineUrl, `#${job.pipeline.id}`) : '—'}`,
      `*Triggered by*\n${who}`,
      `*Duration*\n${duration}`,
    ]),
    section(`*Commit* ${commit}`),
  ];
  const erased = c.notice?.action === 'erase';
  const extra: string[] = [`${esc(projectLabel(project))} · created ${when(job.created_at, c.now)}`];
  if (job.artifacts_file && !erased) {
    // 9.5 leaves artifacts_expire_at out: absent means "not told", only null means "never expire".
    const expiry = job.artifacts_expire_at
      ? `, expire ${when(job.artifacts_expire_at, c.now)}`
      : job.artifacts_expire_at === null || c.notice?.action === 'keep'
        ? ', kept'
        : '';
    extra.push(`:package: ${esc(job.artifacts_file.filename)} (${formatBytes(job.artifacts_file.size)})${expiry}`);
  }
  if (url) extra.push(linked(url, 'Open in GitLab'));
  blocks.push(context(extra));
  blocks.push(...noticeBlock(c.notice));
  blocks.push(
    actions([...jobActionsFor(job, erased).map((a) => jobButton(a, job, project, null)), ...openButton(url)]),
  );
  return message(`Job #${job.id} ${job.name}: ${job.status}`, blocks);
}

/** A job as one list row: what it is and how it went, with its most useful action as the row's button. */
function jobRow(
  job: Job,
  project: ProjectKey,
  list: ListContext | null,
  slot: number | 'now',
  serverUrl: string,
): Block {
  const url = jobUrl(serverUrl, project, job);
  const duration = typeof job.duration === 'number' ? ` · ${formatDuration(job.duration)}` : '';
  const by = job.user ? ` · ${esc(job.user.username)}` : '';
  const commit = job.commit ? `\n_${esc(truncate(job.commit.title, 100))}_` : '';
  const text = `${statusEmoji(job.status)} *${linked(url, `#${job.id}`)}* ${esc(job.name)} · ${esc(job.stage)} · ${code(job.ref)} · ${job.status}${duration}${by}${commit}`;
  const primary = jobActionsFor(job).find((a) => a === 'retry' || a === 'play' || a === 'cancel');
  const s = slot === 'now' ? 'now' : slot;
  const accessory = primary
    ? jobButton(primary, job, project, list, s)
    : button({ text: 'Details', name: 'job.show', value: { p: project, j: job.id }, slot: s });
  return section(truncate(text, LIMITS.sectionText), accessory);
}

/** One row per job, its most useful action as the row's button, and a Next page button. */
export function buildJobList(
  jobs: Job[],
  project: ProjectKey,
  page: { page: number | null; nextPage: number | null; total: number | null },
  o: { title: string; filters: string; list: ListContext | null; ctx: CardContext },
): SlackMessage {
  const blocks: Block[] = [header(o.title)];
  if (o.filters) blocks.push(context([o.filters]));
  blocks.push(...noticeBlock(o.ctx.notice));
  if (jobs.length === 0) {
    blocks.push(section(`No jobs in ${esc(projectLabel(project))} match${o.filters ? ` (${esc(o.filters)})` : ''}.`));
  }
  const subject = o.ctx.notice?.subject;
  if (subject?.kind === 'job') blocks.push(jobRow(subject.job, project, o.list, 'now', o.ctx.serverUrl));
  // Each row is one section: 40 rows at most keeps the message inside Slack's 50 blocks.
  jobs.slice(0, LIST_ROWS).forEach((job, i) => {
    blocks.push(jobRow(job, project, o.list, i, o.ctx.serverUrl));
  });
  blocks.push(...pagingBlocks(o.list, { ...page, shown: Math.min(jobs.length, LIST_ROWS) }));
  return message(`${o.title}: ${jobs.length} shown`, blocks);
}

/** The last lines of a trace as a code block that fits one section. */
export function buildTrace(
  job: Job | null,
  jobId: number,
  project: ProjectKey,
  trace: string,
  lines: number,
): SlackMessage {
  // Runners colour their output; Slack would show the escape codes as garbage.
  const clean = trace.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r(?!\n)/g, '\n');
  const all = clean.replace(/\n+$/, '').split('\n');
  const budget = LIMITS.sectionText - 10;
  const shown: string[] = [];
  let size = 0;
  // Counted as sent: escaping turns each <, > and & into several characters.
  for (let i = all.length - 1; i >= 0 && shown.length < lines; i--) {
    const line = esc((all[i] as string).replace(/```/g, "'''"));
    if (size + line.length + 1 > budget) break;
    shown.unshift(line);
    size += line.length + 1;
  }
  const name = job ? `#${job.id} (${job.name})` : `#${jobId}`;
  const title = `Trace of job ${name} in ${projectLabel(project)}`;
  if (!clean.trim())
    return message(`${title}: empty`, [section(`${title} is empty (the job has not written any output).`)]);
  return message(`${title}: last ${shown.length} lines`, [
    section(`*${esc(title)}* · last ${shown.length} of ${all.length} lines`),
    section(`\`\`\`${shown.join('\n')}\`\`\``),
    context([`The whole trace as a file: ${code(`/gl job trace ${projectLabel(project)} ${jobId} --full`)}`]),
  ]);
}

export function buildArtifacts(o: {
  title: string;
  fileName: string | null;
  size: number | null;
  downloadUrl: string | null;
}): SlackMessage {
  const what = `${o.fileName ? code(o.fileName) : 'artifacts archive'}${o.size !== null ? ` · ${formatBytes(o.size)}` : ''}`;
  const blocks: Block[] = [section(`:package: *${esc(o.title)}*\n${what}`)];
  if (o.downloadUrl) {
    blocks.push(context([`Download from the web interface: ${linked(o.downloadUrl, 'download')}`]));
    blocks.push(actions(openButton(o.downloadUrl, 'Download')));
  }
  return message(`${o.title}: ${o.fileName ?? 'artifacts'}`, blocks);
}
