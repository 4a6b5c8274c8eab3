import type { Deployment } from '../gitlab/schemas.js';
import { actions, type Block, button, context, fields, header, message, type SlackMessage, section } from './blocks.js';
import {
  type CardContext,
  LIST_ROWS,
  type ListContext,
  linked,
  noticeBlock,
  type ProjectKey,
  pagingBlocks,
  projectLabel,
  when,
} from './ci.js';
import { jobUrl } from './jobs.js';
import { code, esc, link } from './mrkdwn.js';
import { shortSha, statusEmoji } from './status.js';

function environment(d: Deployment): string {
  const url = d.environment.external_url;
  return url && /^https?:\/\//.test(url) ? `${esc(d.environment.name)} · ${link(url, url)}` : esc(d.environment.name);
}

export function buildDeploymentCard(d: Deployment, project: ProjectKey, c: CardContext): SlackMessage {
  const job = d.deployable;
  const jobText = job
    ? `${statusEmoji(job.status)} ${linked(jobUrl(c.serverUrl, project, job), `#${job.id} ${job.name}`)} ${job.status}`
    : '—';
  const blocks: Block[] = [
    header(`:rocket: Deployment ${d.id} · ${d.environment.name}`),
    fields([
      `*Environment*\n${environment(d)}`,
      `*Ref*\n${code(d.ref)}`,
      `*Commit*\n${code(shortSha(d.sha))}`,
      `*Deployed by*\n${d.user ? `${esc(d.user.name)} (@${esc(d.user.username)})` : '—'}`,
      `*Job*\n${jobText}`,
      `*When*\n${when(d.created_at, c.now)}`,
    ]),
    context([`${esc(projectLabel(project))} · #${d.iid} in this project`]),
    ...noticeBlock(c.notice),
  ];
  if (job) blocks.push(actions([button({ text: 'Job', name: 'job.show', value: { p: project, j: job.id } })]));
  return message(`Deployment ${d.id} to ${d.environment.name}`, blocks);
}

export function buildDeploymentList(
  deployments: Deployment[],
  project: ProjectKey,
  page: { page: number | null; nextPage: number | null; total: number | null },
  o: { title: string; list: ListContext | null; ctx: CardContext },
): SlackMessage {
  const blocks: Block[] = [header(o.title)];
  if (deployments.length === 0) blocks.push(section(`No deployments in ${esc(projectLabel(project))}.`));
  deployments.slice(0, LIST_ROWS).forEach((d, i) => {
    const job = d.deployable ? ` · ${statusEmoji(d.deployable.status)} job #${d.deployable.id}` : '';
    const by = d.user ? ` · @${esc(d.user.username)}` : '';
    const text = `:rocket: *${d.id}* ${environment(d)} · ${code(d.ref)} · ${code(shortSha(d.sha))}${by}${job} · ${when(d.created_at, o.ctx.now)}`;
    const accessory = d.deployable
      ? button({ text: 'Job', name: 'job.show', value: { p: project, j: d.deployable.id }, slot: i })
      : undefined;
    blocks.push(section(text, accessory));
  });
  blocks.push(...pagingBlocks(o.list, { ...page, shown: Math.min(deployments.length, LIST_ROWS) }));
  return message(`${o.title}: ${deployments.length} shown`, blocks);
}
