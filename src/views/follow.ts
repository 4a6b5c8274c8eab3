import { JobButtons } from '../buttons/ci.js';
import type { FailureNote } from '../failure/note.js';
import { type Project, projectButtonKey, projectLabel } from '../gitlab/project.js';
import type { Job, Pipeline } from '../gitlab/schemas.js';
import { actions, type Block, button, context, message, type SlackMessage, section } from './blocks.js';
import { noteBlocks } from './failure.js';
import { formatDuration } from './format.js';
import { jobUrl } from './jobs.js';
import { code, linked, type Md, md } from './mrkdwn.js';
import { pipelineUrl } from './pipelines.js';
import { statusEmoji } from './status.js';

// What following adds to a card (a line saying it keeps itself up to date) and the DM its person gets at the end:
// the result and duration with a link to the configured server only; for a failed pipeline its failed jobs with Retry
// buttons, for a failed job Retry for it, and under each failed job (up to three) why it failed, with its Trace.

/** A failed pipeline's DM lists at most this many failed jobs (each a section with its Retry). */
const MAX_FAILED_JOBS = 20;

/** How the last line of a followed card reads. */
export type FollowLine =
  | { kind: 'following'; shared: boolean }
  | { kind: 'done' }
  /** Asked to follow something that had already finished. */
  | { kind: 'finished'; status: string }
  | { kind: 'expired' }
  | { kind: 'stopped'; why: string };

export function followLineText(l: FollowLine): Md {
  switch (l.kind) {
    case 'following':
      return l.shared
        ? md`:eyes: Kept up to date until it finishes (for up to an hour).`
        : md`:eyes: Kept up to date at each stage until it finishes; the result comes by DM.`;
    case 'done':
      return md`:checkered_flag: Finished; no longer followed.`;
    case 'finished':
      return md`:checkered_flag: Already finished (${l.status}): there is nothing to follow.`;
    case 'expired':
      return md`:hourglass: No longer followed: an hour has passed.`;
    case 'stopped':
      return md`:double_vertical_bar: No longer followed: ${l.why}.`;
  }
}

/** The card with its follow line last (before its buttons, when it ends with them). */
export function withFollowLine(card: SlackMessage, line: FollowLine): SlackMessage {
  const blocks = [...(card.blocks ?? [])];
  const last = blocks[blocks.length - 1];
  const at = last && last.type === 'actions' ? blocks.length - 1 : blocks.length;
  blocks.splice(at, 0, context([followLineText(line)]));
  return { ...card, blocks };
}

/** What is followed, as the DM names it. */
export type Followed =
  | { kind: 'pipeline'; project: Project; pipeline: Pipeline; jobs: Job[] }
  | { kind: 'job'; project: Project; job: Job };

const VERB: Record<string, string> = {
  success: 'passed',
  failed: 'failed',
  canceled: 'was canceled',
  skipped: 'was skipped',
};

function secondsBetween(from: string | null | undefined, to: string | null | undefined): number | null {
  if (!from || !to) return null;
  const s = (Date.parse(to) - Date.parse(from)) / 1000;
  return Number.isFinite(s) && s >= 0 ? s : null;
}

function subjectOf(
  f: Followed,
  serverUrl: string,
): { title: Md; url: string | null; status: string; secs: number | null } {
  if (f.kind === 'pipeline') {
    const p = f.pipeline;
    return {
      title: md`Pipeline #${String(p.id)} on ${code(p.ref)}`,
      url: pipelineUrl(serverUrl, f.project, p),
      status: p.status,
      secs: typeof p.duration === 'number' ? p.duration : secondsBetween(p.started_at, p.finished_at),
    };
  }
  const j = f.job;
  return {
    title: md`Job #${String(j.id)} ${code(j.name)} on ${code(j.ref)}`,
    url: jobUrl(serverUrl, f.project, j),
    status: j.status,
    secs: typeof j.duration === 'number' ? j.duration : secondsBetween(j.started_at, j.finished_at),
  };
}

/** Why what was followed failed: notes on its failed jobs (the first few), and how many more failed. */
export interface FollowFailures {
  notes: readonly FailureNote[];
  more: number;
}

/** The DM when what was followed finished: "Pipeline #57 on `main` passed in 4m 12s". */
export function buildFollowDoneDm(f: Followed, serverUrl: string, why: FollowFailures | null = null): SlackMessage {
  const s = subjectOf(f, serverUrl);
  const verb = VERB[s.status] ?? `ended ${s.status}`;
  const took =
    s.secs === null ? '' : s.status === 'success' || s.status === 'failed' ? ` in ${formatDuration(s.secs)}` : '';
  const line = md`${statusEmoji(s.status)} ${linked(s.url, s.title)} ${verb}${took}.`;
  const blocks: Block[] = [section(line), context([md`${projectLabel(f.project)}`])];
  const key = projectButtonKey(f.project);
  const noteOf = (id: number) => why?.notes.find((n) => n.job.id === id);
  if (f.kind === 'pipeline' && f.pipeline.status === 'failed') {
    const failed = latestJobs(f.jobs).filter((j) => j.status === 'failed');
    for (const [i, j] of failed.slice(0, MAX_FAILED_JOBS).entries()) {
      const label = md`:x: ${linked(jobUrl(serverUrl, f.project, j), j.name)} (${j.stage})`;
      blocks.push(
        section(label, button({ text: 'Retry', def: JobButtons.retry, value: { p: key, j: j.id }, slot: i })),
      );
      const note = noteOf(j.id);
      if (note) blocks.push(...noteBlocks(note, { project: f.project, title: null, traceButton: `t${i}` }));
    }
    if (failed.length > MAX_FAILED_JOBS)
      blocks.push(context([md`…and ${String(failed.length - MAX_FAILED_JOBS)} more failed jobs.`]));
  }
  if (f.kind === 'job' && f.job.status === 'failed') {
    const note = noteOf(f.job.id);
    if (note) blocks.push(...noteBlocks(note, { project: f.project, title: md`*Why it failed*`, traceButton: 't0' }));
    blocks.push(
      actions([button({ text: 'Retry', def: JobButtons.retry, value: { p: key, j: f.job.id }, style: 'primary' })]),
    );
  }
  return message(md`${s.title} ${verb}${took}.`, blocks);
}

/**
 * The DM when following stopped before the end: an hour passed, the server refused the token (`token`: perhaps its
 * own trouble, so the person is not asked to connect; the bot asks the server again by itself), the person has no
 * token that works at all (`no_token`: they must connect), it can no longer be read.
 */
export function buildFollowStoppedDm(
  what: { kind: 'pipeline' | 'job'; id: number; ref: string | null; project: Project; url: string | null },
  why: 'expired' | 'token' | 'no_token' | 'gone',
  slashCommand: string,
): SlackMessage {
  const name = md`${what.kind === 'pipeline' ? 'Pipeline' : 'Job'} #${String(what.id)}${what.ref ? md` on ${code(what.ref)}` : ''}`;
  const title = linked(what.url, name);
  const reason =
    why === 'expired'
      ? md`an hour has passed and it is still not finished`
      : why === 'token'
        ? md`the server refused your token (401). Your digests, alerts and watches are paused until the server accepts it again, which the bot asks by itself; open the card again then`
        : why === 'no_token'
          ? md`you have no token that works; connect again with ${code(`${slashCommand} connect`)}`
          : md`it can no longer be read`;
  const line = md`:double_vertical_bar: Stopped following ${title}: ${reason}.`;
  return message(md`Stopped following ${name}: ${reason}.`, [
    section(line),
    context([md`${projectLabel(what.project)}`]),
  ]);
}

/**
 * The DM when the server refused the follower's token: following waits until the server accepts it again (asked
 * about every minute), then goes on, within its hour; nothing is asked of the person.
 */
export function buildFollowPausedDm(what: {
  kind: 'pipeline' | 'job';
  id: number;
  ref: string | null;
  project: Project;
  url: string | null;
}): SlackMessage {
  const name = md`${what.kind === 'pipeline' ? 'Pipeline' : 'Job'} #${String(what.id)}${what.ref ? md` on ${code(what.ref)}` : ''}`;
  const reason = md`the server refused your token (401), so following is paused until the server accepts your token again; the bot asks it again by itself (after 1, 2, 4… minutes) and goes on when it does, within the hour`;
  return message(md`Following ${name} is paused: ${reason}.`, [
    section(md`:pause_button: Following ${linked(what.url, name)} is paused: ${reason}.`),
    context([md`${projectLabel(what.project)}`]),
  ]);
}

/** A 9.5 server lists a retried job and its retry: the newest of each name stands. */
function latestJobs(jobs: readonly Job[]): Job[] {
  const byName = new Map<string, Job>();
  for (const j of [...jobs].sort((a, b) => a.id - b.id)) byName.set(`${j.stage}\u0000${j.name}`, j);
  return [...byName.values()];
}
