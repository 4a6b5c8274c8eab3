import { JobButtons } from '../buttons/ci.js';
import { type Project, projectButtonKey, projectLabel } from '../gitlab/project.js';
import type { Deployment } from '../gitlab/schemas.js';
import { actions, type Block, button, context, fields, header, message, type SlackMessage, section } from './blocks.js';
import { type CardContext, when } from './common.js';
import { externalUrl } from './external-url.js';
import { jobUrl } from './jobs.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { code, linked, md } from './mrkdwn.js';
import { noticeBlocks } from './notice.js';
import { shortSha, statusEmoji } from './status.js';

/** The environment's name and its URL: a link only on the configured host (see external-url.ts). */
function environment(d: Deployment, serverUrl: string) {
  const url = d.environment.external_url;
  return url ? md`${d.environment.name} · ${externalUrl(serverUrl, url)}` : md`${d.environment.name}`;
}

export function buildDeploymentCard(d: Deployment, project: Project, c: CardContext): SlackMessage {
  const job = d.deployable;
  const jobText = job
    ? md`${statusEmoji(job.status)} ${linked(jobUrl(c.serverUrl, project, job), `#${job.id} ${job.name}`)} ${job.status}`
    : '—';
  const blocks: Block[] = [
    header(`:rocket: Deployment ${d.id} · ${d.environment.name}`),
    fields([
      md`*Environment*\n${environment(d, c.serverUrl)}`,
      md`*Ref*\n${code(d.ref)}`,
      md`*Commit*\n${code(shortSha(d.sha))}`,
      md`*Deployed by*\n${d.user ? md`${d.user.name} (@${d.user.username})` : '—'}`,
      md`*Job*\n${jobText}`,
      md`*When*\n${when(d.created_at, c)}`,
    ]),
    context([md`${projectLabel(project)} · #${d.iid} in this project`]),
    ...noticeBlocks(c.notice),
  ];
  if (job) {
    blocks.push(
      actions([button({ text: 'Job', def: JobButtons.show, value: { p: projectButtonKey(project), j: job.id } })]),
    );
  }
  return message(md`Deployment ${d.id} to ${d.environment.name}`, blocks);
}

export function buildDeploymentList(
  deployments: Deployment[],
  project: Project,
  page: PageInfo,
  options: { title: string; place: ListPlace | null; ctx: CardContext },
): SlackMessage {
  return buildList({
    title: options.title,
    notice: options.ctx.notice,
    empty: md`No deployments in ${projectLabel(project)}.`,
    items: deployments,
    row: (d, i) => {
      const job = d.deployable ? md` · ${statusEmoji(d.deployable.status)} job #${d.deployable.id}` : '';
      const by = d.user ? md` · @${d.user.username}` : '';
      const text = md`:rocket: *${d.id}* ${environment(d, options.ctx.serverUrl)} · ${code(d.ref)} · ${code(shortSha(d.sha))}${by}${job} · ${when(d.created_at, options.ctx)}`;
      const accessory = d.deployable
        ? button({
            text: 'Job',
            def: JobButtons.show,
            value: { p: projectButtonKey(project), j: d.deployable.id },
            slot: i,
          })
        : undefined;
      return section(text, accessory);
    },
    page,
    place: options.place,
  });
}
