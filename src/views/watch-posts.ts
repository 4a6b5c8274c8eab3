import { JobButtons, PipelineButtons } from '../buttons/ci.js';
import type { FailureNote } from '../failure/note.js';
import { type Project, projectOf, projectPageUrl } from '../gitlab/project.js';
import type { PipelineBasic } from '../gitlab/schemas.js';
import type { CardJob, Watch } from '../store/watch-store.js';
import { actions, type Block, button, context, header, message, type SlackMessage, section } from './blocks.js';
import { openButton } from './common.js';
import { noteBlocks } from './failure.js';
import { bold, code, joinMd, linked, md } from './mrkdwn.js';
import { pipelineUrl } from './pipelines.js';
import { shortSha, statusEmoji } from './status.js';
import { watchSubject } from './watches.js';

// What a watch posts in its channel: the card of a pipeline that finished (its failed jobs, each with Retry and the
// first few with the lines that explain them and Trace, and Retry for the pipeline: they run with the token of whoever
// clicks), the same card redrawn once a later pipeline
// of its ref succeeded, and the reply in its thread that says so.

/** Failed jobs a card lists, each a section with its Retry (inside Slack's 50 blocks). */
export const CARD_JOBS = 10;

const projectOfWatch = (w: Watch): Project => projectOf(w.project.path);

const jobUrlOf = (serverUrl: string, project: Project, id: number) =>
  projectPageUrl(serverUrl, project, `-/jobs/${id}`);

function verb(status: string): string {
  switch (status) {
    case 'success':
      return 'passed';
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'was canceled';
    default:
      return status;
  }
}

/** "2 h later", "5 min later", "moments later". */
export function laterText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'moments later';
  if (minutes < 60) return `${minutes} min later`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h later`;
  return `${Math.round(hours / 24)} d later`;
}

export function buildWatchPipelineCard(
  watch: Watch,
  pipeline: Pick<PipelineBasic, 'id' | 'ref' | 'sha' | 'status' | 'web_url'>,
  failed: {
    jobs: readonly CardJob[];
    /** Why they failed (the first few): each job's lines under it, with its Trace. */
    why?: readonly FailureNote[];
  },
  serverUrl: string,
): SlackMessage {
  const { jobs, why = [] } = failed;
  const project = projectOfWatch(watch);
  const url = pipelineUrl(serverUrl, project, pipeline);
  const key = watch.project.path;
  const blocks: Block[] = [
    header(`${statusEmoji(pipeline.status)} Pipeline #${pipeline.id} ${verb(pipeline.status)} · ${pipeline.ref}`),
    section(
      md`${bold(linked(url, `#${pipeline.id}`))} in ${watch.project.path} · ${code(pipeline.ref)} · ${code(shortSha(pipeline.sha))}`,
    ),
  ];
  const shown = jobs.slice(0, CARD_JOBS);
  if (shown.length > 0) blocks.push(section(md`*Failed jobs*`));
  shown.forEach((j, i) => {
    const text = md`${statusEmoji('failed')} ${linked(jobUrlOf(serverUrl, project, j.id), j.name)} (${j.stage})`;
    blocks.push(
      section(text, button({ text: 'Retry', def: JobButtons.retry, value: { p: key, j: j.id }, slot: `job${i}` })),
    );
    const note = why.find((n) => n.job.id === j.id);
    if (note) blocks.push(...noteBlocks(note, { project, title: null, traceButton: `trace${i}` }));
  });
  if (jobs.length > shown.length) blocks.push(context([`${jobs.length - shown.length} more failed jobs not shown`]));
  const buttons = [];
  if (pipeline.status === 'failed' || pipeline.status === 'canceled') {
    buttons.push(
      button({
        text: 'Retry pipeline',
        def: PipelineButtons.retry,
        value: { p: key, i: pipeline.id },
        style: 'primary',
      }),
    );
  }
  buttons.push(
    button({ text: 'Jobs', def: PipelineButtons.jobs, value: { p: key, i: pipeline.id } }),
    ...openButton(url),
  );
  blocks.push(actions(buttons));
  blocks.push(context([md`Watch #${watch.id} · ${watchSubject(watch)}`]));
  return message(
    md`Pipeline #${pipeline.id} on ${pipeline.ref} ${verb(pipeline.status)} in ${watch.project.path}`,
    blocks,
  );
}

export interface FixedCard {
  pipelineId: number;
  ref: string;
  jobs: readonly CardJob[];
  failedAt: Date;
  fixedBy: number;
  fixedAt: Date;
}

/** The failure's card once a later pipeline of its ref succeeded: no more Retry, and who fixed it. */
export function buildWatchFixedCard(w: Watch, c: FixedCard, serverUrl: string): SlackMessage {
  const project = projectOfWatch(w);
  const url = projectPageUrl(serverUrl, project, `pipelines/${c.pipelineId}`);
  const fixUrl = projectPageUrl(serverUrl, project, `pipelines/${c.fixedBy}`);
  const later = laterText(c.fixedAt.getTime() - c.failedAt.getTime());
  const fixed = md`Fixed by ${linked(fixUrl, `#${c.fixedBy}`)} · ${later}`;
  const blocks: Block[] = [
    header(`${statusEmoji('success')} Pipeline #${c.pipelineId} failed · ${c.ref} · fixed`),
    section(md`:white_check_mark: ${fixed}`),
    section(md`${bold(linked(url, `#${c.pipelineId}`))} in ${w.project.path} · ${code(c.ref)}`),
  ];
  const shown = c.jobs.slice(0, CARD_JOBS);
  if (shown.length > 0) {
    blocks.push(
      section(
        md`*Failed then*  ${joinMd(
          shown.map((j) => linked(jobUrlOf(serverUrl, project, j.id), j.name)),
          '  ·  ',
        )}`,
      ),
    );
  }
  blocks.push(actions(openButton(url)));
  blocks.push(context([md`Watch #${w.id} · ${watchSubject(w)}`]));
  return message(md`Pipeline #${c.pipelineId} on ${c.ref} failed; fixed by #${c.fixedBy} · ${later}`, blocks);
}

/** The reply in the failure card's thread. */
export function buildWatchFixedReply(w: Watch, c: FixedCard, serverUrl: string): SlackMessage {
  const fixUrl = projectPageUrl(serverUrl, projectOfWatch(w), `pipelines/${c.fixedBy}`);
  const later = laterText(c.fixedAt.getTime() - c.failedAt.getTime());
  const text = md`Fixed by ${linked(fixUrl, `#${c.fixedBy}`)} · ${later}: pipeline #${c.fixedBy} on ${code(c.ref)} passed.`;
  return message(text, [section(md`:white_check_mark: ${text}`)]);
}
