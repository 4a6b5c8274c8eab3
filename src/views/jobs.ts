import type { Button } from '@slack/types';
import { JobButtons } from '../buttons/ci.js';
import type { Refusal } from '../errors.js';
import type { FailureNote } from '../failure/note.js';
import { onServer, type Project, projectButtonKey, projectLabel, projectPageUrl } from '../gitlab/project.js';
import type { Job } from '../gitlab/schemas.js';
import { encodeButtonValue } from '../ids.js';
import {
  actions,
  type Block,
  type Confirmation,
  context,
  encodedButton,
  fields,
  header,
  message,
  type SlackMessage,
  section,
} from './blocks.js';
import { type CardContext, openButton, when } from './common.js';
import { failureBlocks } from './failure.js';
import { formatBytes, formatDuration } from './format.js';
import { LIMITS, truncate } from './limits.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { bold, code, codeText, escapeText, linked, linkUrl, Md, md, type Text } from './mrkdwn.js';
import { noticeBlocks } from './notice.js';
import { CANCELABLE, FINISHED, shortSha, statusBadge, statusEmoji } from './status.js';

export function jobUrl(serverUrl: string, project: Project, job: Pick<Job, 'id' | 'web_url'>): string | null {
  return onServer(serverUrl, job.web_url) ?? projectPageUrl(serverUrl, project, `-/jobs/${job.id}`);
}

export type JobAction = 'retry' | 'cancel' | 'play' | 'erase' | 'keep' | 'trace';

/** What the API does not say about a job but the bot may know (after an action, or from a look at its trace). */
export interface JobFacts {
  /** Its trace and artifacts are gone. */
  erased?: boolean;
  /** Its artifacts no longer expire. */
  kept?: boolean;
}

/** The actions a job's state allows, in the order they appear on the card. */
export function jobActionsFor(
  job: Pick<Job, 'status' | 'artifacts_file' | 'artifacts_expire_at' | 'started_at'>,
  facts: JobFacts = {},
) {
  const out: JobAction[] = [];
  if (FINISHED.has(job.status)) out.push('retry');
  if (CANCELABLE.has(job.status)) out.push('cancel');
  if (job.status === 'manual') out.push('play');
  // A job canceled before it started has neither trace nor artifacts: there is nothing to erase.
  if (FINISHED.has(job.status) && !facts.erased && !neverRan(job)) out.push('erase');
  // 9.5 does not send artifacts_expire_at: absent means "not told"; null means they are kept already.
  if (job.artifacts_file && !facts.erased && !facts.kept && job.artifacts_expire_at !== null) out.push('keep');
  if (!facts.erased) out.push('trace');
  return out;
}

/** A row's one action: the first of retry, cancel and play that `jobActionsFor` offers (their states never overlap). */
function primaryAction(job: Pick<Job, 'status'>): 'retry' | 'cancel' | 'play' | undefined {
  if (FINISHED.has(job.status)) return 'retry';
  if (CANCELABLE.has(job.status)) return 'cancel';
  return job.status === 'manual' ? 'play' : undefined;
}

/** A finished job that never started (canceled while it waited). */
export function neverRan(job: Pick<Job, 'status' | 'started_at' | 'artifacts_file'>): boolean {
  return FINISHED.has(job.status) && !job.started_at && !job.artifacts_file;
}

const jobName = (job: { id: number; name?: string }) => (job.name ? `job #${job.id} (${job.name})` : `job #${job.id}`);

/** The one text of each confirmation, for card dialogs and typed prompts alike. */
export function jobConfirmation(action: 'cancel' | 'erase', job: { id: number; name?: string }, project: Project) {
  const at = `${jobName(job)} in ${projectLabel(project)}`;
  const c: Confirmation =
    action === 'erase'
      ? {
          title: 'Erase this job?',
          question: md`Erase ${at}? Its trace and artifacts are deleted for good.`,
          confirm: 'Erase',
          yes: `Yes, erase job #${job.id}`,
        }
      : {
          title: 'Cancel this job?',
          question: md`Cancel ${at}? It stops where it is.`,
          confirm: 'Cancel job',
          deny: 'Keep running',
          yes: `Yes, cancel job #${job.id}`,
        };
  return c;
}

/** What a job's buttons carry, encoded: `{ p, j, q, n }` for its actions and `{ p, j }` for Details and Trace. */
interface JobButtonValues {
  withPlace(id: number): string;
  bare(id: number): string;
}

/**
 * The values exactly as `encodeButtonValue` writes them. Only the job's id changes from row to row, so the text
 * around it is made once per list instead of an object and its JSON per button.
 */
export function jobButtonValues(project: Project, place: ListPlace | null): JobButtonValues {
  const p = projectButtonKey(project);
  const head = `{"p":${JSON.stringify(p)},"j":`;
  const tail = place ? `,"q":${JSON.stringify(place.query)},"n":${JSON.stringify(place.page)}}` : '}';
  // Anything the text could get wrong (an id that is not a plain integer, a value too long) is encoded the long way.
  const plain = (id: number, end: string) =>
    Number.isSafeInteger(id) && head.length + end.length + 17 <= LIMITS.buttonValue ? `${head}${id}${end}` : null;
  return {
    withPlace: (id) =>
      plain(id, tail) ??
      encodeButtonValue(JobButtons.show, { p, j: id, ...(place ? { q: place.query, n: place.page } : {}) }),
    bare: (id) => plain(id, '}') ?? encodeButtonValue(JobButtons.show, { p, j: id }),
  };
}

function jobButton(
  action: JobAction,
  job: Job,
  {
    project,
    place,
    slot,
    values = jobButtonValues(project, place),
  }: { project: Project; place: ListPlace | null; slot?: number | string; values?: JobButtonValues },
) {
  const value = values.withPlace(job.id);
  switch (action) {
    case 'retry':
      return encodedButton({ text: 'Retry', def: JobButtons.retry, style: 'primary', slot }, value);
    case 'cancel':
      return encodedButton(
        { text: 'Cancel', def: JobButtons.cancel, slot, confirm: jobConfirmation('cancel', job, project) },
        value,
      );
    case 'play':
      return encodedButton({ text: 'Play', def: JobButtons.play, style: 'primary', slot }, value);
    case 'erase':
      return encodedButton(
        {
          text: 'Erase',
          def: JobButtons.erase,
          style: 'danger',
          slot,
          confirm: jobConfirmation('erase', job, project),
        },
        value,
      );
    case 'keep':
      return encodedButton({ text: 'Keep artifacts', def: JobButtons.keep, slot }, value);
    case 'trace':
      return encodedButton({ text: 'Trace', def: JobButtons.trace, slot }, values.bare(job.id));
  }
}

/** The detail of a "Retried by" line. */
export function retriedDetail(oldId: number, newJob: Pick<Job, 'id'>): Md {
  return newJob.id !== oldId ? md`new job #${newJob.id} replaces #${oldId}` : md`job #${oldId}`;
}

/** What is true now when a job's card was out of date. */
export function jobStaleText(
  what: 'retried' | 'not-manual' | 'not-running' | 'erased' | 'not-finished' | 'never-ran',
  o: { by?: string | null; newJob?: Pick<Job, 'id'> } = {},
): Md {
  const by = o.by ? md` by @${o.by}` : '';
  switch (what) {
    case 'retried':
      return md`Already retried${by}${o.newJob ? md`: job #${o.newJob.id} replaces it` : ''}.`;
    case 'not-manual':
      return md`No longer manual: it was started${by}.`;
    case 'not-running':
      return md`Not running any more, so there is nothing to cancel.`;
    case 'erased':
      return md`Already erased: its trace and artifacts are gone.`;
    case 'not-finished':
      return md`Not finished yet, so it cannot be retried or erased.`;
    case 'never-ran':
      return md`It never ran, so it has no trace or artifacts to erase.`;
  }
}

export function buildJobCard(
  job: Job,
  project: Project,
  c: CardContext & { facts?: JobFacts; failure?: FailureNote | null },
): SlackMessage {
  const url = jobUrl(c.serverUrl, project, job);
  const facts: JobFacts = {
    ...c.facts,
    ...(c.notice?.kind === 'done' && c.notice.action === 'erase' ? { erased: true } : {}),
    ...(c.notice?.kind === 'done' && c.notice.action === 'keep' ? { kept: true } : {}),
  };
  const pipelineUrl = job.pipeline
    ? (onServer(c.serverUrl, job.pipeline.web_url) ??
      projectPageUrl(c.serverUrl, project, `pipelines/${job.pipeline.id}`))
    : null;
  const seconds = jobSeconds(job);
  const duration =
    seconds !== null ? jobDuration(seconds) : job.started_at ? md`running since ${when(job.started_at, c)}` : '—';
  const commit = job.commit
    ? md`${code(shortSha(job.commit.id))} ${truncate(job.commit.title, 120)} — ${job.commit.author_name}`
    : '—';
  const who = job.user ? md`${job.user.name} (@${job.user.username})` : '—';
  const blocks: Block[] = [
    header(`${statusEmoji(job.status)} Job #${job.id} · ${job.name}`),
    fields([
      md`*Status*\n${statusBadge(job.status)}`,
      md`*Stage*\n${job.stage}`,
      md`*Ref*\n${code(job.ref)}${job.tag ? ' (tag)' : ''}`,
      md`*Pipeline*\n${job.pipeline ? linked(pipelineUrl, `#${job.pipeline.id}`) : '—'}`,
      md`*Triggered by*\n${who}`,
      md`*Duration*\n${duration}`,
    ]),
    section(md`*Commit* ${commit}`),
  ];
  // The card's own Trace button stands beside the excerpt's lines.
  if (c.failure)
    blocks.push(...failureBlocks([c.failure], { project, serverUrl: c.serverUrl, named: false, traceButtons: false }));
  const extra: Text[] = [md`${projectLabel(project)} · created ${when(job.created_at, c)}`];
  if (job.artifacts_file && !facts.erased) {
    const expiry = job.artifacts_expire_at
      ? md`, expire ${when(job.artifacts_expire_at, c)}`
      : job.artifacts_expire_at === null || facts.kept
        ? ', kept'
        : '';
    extra.push(md`:package: ${job.artifacts_file.filename} (${formatBytes(job.artifacts_file.size)})${expiry}`);
  }
  if (facts.erased) extra.push('trace and artifacts erased');
  // The card's own button opens it in GitLab: no second link here.
  blocks.push(context(extra));
  blocks.push(...noticeBlocks(c.notice));
  blocks.push(
    actions([...jobActionsFor(job, facts).map((a) => jobButton(a, job, { project, place: null })), ...openButton(url)]),
  );
  return message(md`Job #${job.id} ${job.name}: ${job.status}`, blocks);
}

/** A job as one list row: what it is and how it went, with its most useful action as the row's button. */
/** How long a finished job ran: the server's `duration`, else finished − started (a 9.5 server sends none). */
function jobSeconds(job: Pick<Job, 'duration' | 'started_at' | 'finished_at'>): number | null {
  if (typeof job.duration === 'number') return job.duration;
  if (!job.started_at || !job.finished_at) return null;
  const seconds = (Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000;
  return Number.isFinite(seconds) ? seconds : null;
}

/** A job that ran under a second reads "<1s", not "0s" (which looks like it never ran). */
function jobDuration(seconds: number): string {
  return seconds >= 0 && seconds < 1 ? '<1s' : formatDuration(seconds);
}

export function jobRow(
  job: Job,
  {
    project,
    place,
    slot,
    serverUrl,
    values = jobButtonValues(project, place),
  }: { project: Project; place: ListPlace | null; slot: number | string; serverUrl: string; values?: JobButtonValues },
) {
  const url = jobUrl(serverUrl, project, job);
  const seconds = jobSeconds(job);
  // One template for the whole row: a string node per part and an `Md` per piece, built for each of a list's rows
  // and then copied once more when the answer is serialised, were most of what a list allocated. The same text as
  // md`${emoji} ${bold(linked(url, `#id`))} ${name} · ${stage} · ${code(ref)} · ${status}${duration}${by}${commit}`,
  // every server text escaped here as those helpers escape it.
  const text = Md.trusted(
    `${escapeText(statusEmoji(job.status))} *${url ? `<${linkUrl(url)}|#${job.id}>` : `#${job.id}`}* ${escapeText(job.name)} · ${escapeText(job.stage)} · \`${codeText(job.ref)}\` · ${escapeText(job.status)}${seconds !== null ? escapeText(` · ${jobDuration(seconds)}`) : ''}${job.user ? ` · ${escapeText(job.user.username)}` : ''}${job.commit ? `\n_${escapeText(truncate(job.commit.title, 100))}_` : ''}`,
  );
  const primary = primaryAction(job);
  const accessory: Button = primary
    ? jobButton(primary, job, { project, place, slot, values })
    : encodedButton({ text: 'Details', def: JobButtons.show, slot }, values.bare(job.id));
  return section(text, accessory);
}

export function buildJobList(
  jobs: Job[],
  project: Project,
  page: PageInfo,
  options: { title: string; filters: string; place: ListPlace | null; ctx: CardContext },
): SlackMessage {
  const values = jobButtonValues(project, options.place);
  return buildList({
    title: options.title,
    filters: options.filters,
    notice: options.ctx.notice,
    empty: md`No jobs in ${projectLabel(project)} match${options.filters ? md` (${options.filters})` : ''}.`,
    items: jobs,
    key: (job) => job.id,
    row: (job, i) => jobRow(job, { project, place: options.place, slot: i, serverUrl: options.ctx.serverUrl, values }),
    page,
    place: options.place,
  });
}

/** The last lines of a trace as a code block that fits one section. */
export function buildTrace({
  jobId,
  project,
  trace,
  lines,
  slashCommand,
}: {
  jobId: number;
  project: Project;
  trace: string;
  lines: number;
  slashCommand: string;
}) {
  // Runners colour their output; Slack would show the escape codes as garbage.
  const clean = trace.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r(?!\n)/g, '\n');
  const all = clean.replace(/\n+$/, '').split('\n');
  const budget = LIMITS.sectionText - 10;
  const shown: string[] = [];
  let size = 0;
  // Counted as sent: escaping turns each <, > and & into several characters.
  for (let i = all.length - 1; i >= 0 && shown.length < lines; i--) {
    const raw = (all[i] as string).replace(/```/g, "'''");
    let line = escapeText(raw);
    // A last line longer than the whole block keeps both ends: its start says what failed (`ERROR: …`), its
    // end the last words; the middle is left out.
    if (shown.length === 0 && line.length + 1 > budget) line = bothEndsThatFit(raw, budget - 2);
    if (size + line.length + 1 > budget) break;
    shown.unshift(line);
    size += line.length + 1;
  }
  const title = `Trace of job #${jobId} in ${projectLabel(project)}`;
  if (!clean.trim())
    return message(`${title}: empty`, [section(`${title} is empty (the job has not written any output).`)]);
  const full = `${slashCommand} job trace ${projectLabel(project)} ${jobId} --full`;
  const countLines = (k: number) => `${k} line${k === 1 ? '' : 's'}`;
  return message(`${title}: last ${countLines(shown.length)}`, [
    section(md`${bold(title)} · last ${shown.length} of ${countLines(all.length)}`),
    section(Md.trusted(`\`\`\`${shown.join('\n')}\`\`\``)),
    context([md`The whole trace as a file: ${code(full)}`]),
  ]);
}

/** The start and the end of `raw`, escaped, joined by `…`, in at most `max` characters (about half each). */
function bothEndsThatFit(raw: string, max: number): string {
  const half = Math.floor((max - 1) / 2);
  let head = Math.min(raw.length, half);
  while (head > 0 && escapeText(raw.slice(0, head)).length > half) head = Math.floor(head * 0.9);
  const start = escapeText(raw.slice(0, head));
  const room = max - 1 - start.length;
  let tail = Math.min(raw.length - head, room);
  while (tail > 0 && escapeText(raw.slice(raw.length - tail)).length > room) tail = Math.floor(tail * 0.9);
  return `${start}…${escapeText(raw.slice(raw.length - tail))}`;
}

export function buildArtifacts(o: {
  title: string;
  fileName: string | null;
  size: number | null;
  downloadUrl: string | null;
}): SlackMessage {
  const what = md`${o.fileName ? code(o.fileName) : 'artifacts archive'}${o.size !== null ? ` · ${formatBytes(o.size)}` : ''}`;
  const blocks: Block[] = [section(md`:package: ${bold(o.title)}\n${what}`)];
  if (o.downloadUrl) {
    blocks.push(context([md`Download from the web interface: ${linked(o.downloadUrl, 'download')}`]));
    blocks.push(actions(openButton(o.downloadUrl, 'Download')));
  }
  return message(`${o.title}: ${o.fileName ?? 'artifacts'}`, blocks);
}

const JOB_FORBIDDEN: Record<string, string> = {
  retry: 'cannot be retried: only finished jobs can, and only by developers of the project',
  cancel: 'cannot be canceled: it is not running, or you may not run jobs in this project',
  play: 'cannot be played: it is not a manual job, or you may not run jobs in this project',
  erase: 'cannot be erased: only finished jobs can, by developers of the project',
  keep: 'cannot keep its artifacts: you may not change jobs in this project',
};

export function jobRefusal(r: Refusal, label: string): Md | null {
  if (r.reason === 'not_manual') return md`${label} cannot be played: only manual jobs can be played.`;
  if (r.status === 403 && JOB_FORBIDDEN[r.action]) return md`${label} ${JOB_FORBIDDEN[r.action]} (403).`;
  return null;
}
