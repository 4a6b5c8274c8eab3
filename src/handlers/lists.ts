import { StaleActionError } from '../errors.js';
import { parseCommand } from '../grammar/index.js';
import type { RequestContext } from '../operations/context.js';
import { projectLabel } from '../operations/projects.js';
import type { SlackMessage } from '../views/blocks.js';
import { type CardContext, LIST_ROWS, type ListContext, type Notice } from '../views/ci.js';
import { buildDeploymentList } from '../views/deployments.js';
import { buildJobList } from '../views/jobs.js';
import { buildPipelineList } from '../views/pipelines.js';
import { buildScheduleList } from '../views/schedules.js';
import type { ButtonHandlers, CommandContext, CommandOf, Reply, Services } from './types.js';

// A list message can redraw itself: its command text travels in its buttons, is parsed
// again on a click (so the filters stay what the person typed), and drawn at a page.

export type ListKey = 'job.list' | 'pipeline.list' | 'schedule.list' | 'deployment.list';
type ListCommand = CommandOf<ListKey>;

const LIST_KEYS = new Set<string>(['job.list', 'pipeline.list', 'schedule.list', 'deployment.list']);
/** Longer command texts are not carried in buttons (Slack limits a value to 2000 characters). */
const MAX_QUERY = 1200;

export function cardContext(ctx: RequestContext, s: Services, notice?: Notice, timeZone = 'UTC'): CardContext {
  return { serverUrl: s.serverUrl, now: ctx.now, timeZone, ...(notice ? { notice } : {}) };
}

/** The list context for buttons, or null when the text is too long to travel with them. */
export function listContext(text: string, page: number | undefined): ListContext | null {
  const query = text.replace(/\s+--page(?:=|\s+)\d+/gi, '').trim();
  return query.length > 0 && query.length <= MAX_QUERY ? { query, page: page ?? 1 } : null;
}

function describeFilters(flags: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(flags)) {
    if (v === undefined || k === 'page' || k === 'perPage') continue;
    const name = k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    parts.push(v === true ? `--${name}` : `--${name} ${Array.isArray(v) ? v.join(',') : String(v)}`);
  }
  return parts.length ? `Filters: ${parts.join(' ')}` : '';
}

export async function renderList(
  cmd: ListCommand,
  ctx: RequestContext,
  s: Services,
  list: ListContext | null,
  notice?: Notice,
): Promise<SlackMessage> {
  const page = cmd.flags.page;
  // A message shows LIST_ROWS rows: a longer page would hide its last rows from every page.
  const perPage = cmd.flags.perPage ? Math.min(cmd.flags.perPage, LIST_ROWS) : undefined;
  const paging = { ...(page ? { page } : {}), ...(perPage ? { per_page: perPage } : {}) };
  const c = cardContext(ctx, s, notice);
  const project = await s.resolveProject(ctx, cmd.target.project);
  switch (cmd.key) {
    case 'job.list': {
      const f = cmd.flags;
      const result = await s.jobs.list(ctx, project, {
        ...(f.scope ? { scope: f.scope } : {}),
        ...(f.pipeline ? { pipelineId: f.pipeline } : {}),
        ...(page ? { page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      const title = f.pipeline
        ? `Jobs of pipeline #${f.pipeline} in ${projectLabel(project)}`
        : `Jobs in ${projectLabel(project)}`;
      return buildJobList(result.items, project, result, {
        title,
        filters: describeFilters({ scope: f.scope }),
        list,
        ctx: c,
      });
    }
    case 'pipeline.list': {
      const f = cmd.flags;
      const result = await s.pipelines.list(ctx, project, {
        ...paging,
        ...(f.status ? { status: f.status as never } : {}),
        ...(f.scope ? { scope: f.scope } : {}),
        ...(f.ref ? { ref: f.ref } : {}),
        ...(f.yamlErrors ? { yaml_errors: true } : {}),
        ...(f.name ? { name: f.name } : {}),
        ...(f.username ? { username: f.username } : {}),
        ...(f.orderBy ? { order_by: f.orderBy } : {}),
        ...(f.sort ? { sort: f.sort } : {}),
      });
      const filters = describeFilters({ ...f });
      return buildPipelineList(result.items, project, result, {
        title: `Pipelines in ${projectLabel(project)}`,
        filters,
        list,
        ctx: c,
      });
    }
    case 'schedule.list': {
      const result = await s.schedules.list(ctx, project, {
        ...paging,
        ...(cmd.flags.scope ? { scope: cmd.flags.scope } : {}),
      });
      return buildScheduleList(result.items, project, result, {
        title: `Pipeline schedules in ${projectLabel(project)}`,
        filters: describeFilters({ scope: cmd.flags.scope }),
        list,
        ctx: c,
      });
    }
    case 'deployment.list': {
      const result = await s.deployments.list(ctx, project, paging);
      return buildDeploymentList(result.items, project, result, {
        title: `Deployments in ${projectLabel(project)}`,
        list,
        ctx: c,
      });
    }
  }
  throw new StaleActionError('not a list command');
}

/** Every list command answers alike: one page, drawn so that it can redraw itself. */
export async function listReply(cmd: ListCommand, ctx: CommandContext, s: Services): Promise<Reply> {
  const message = await renderList(cmd, ctx, s, listContext(ctx.text, cmd.flags.page));
  return { kind: 'message', message, inChannel: cmd.share };
}

/** Parses a list's command text again and draws page `n` of it (for Next page and after row actions). */
export async function redrawList(
  query: string,
  n: number,
  ctx: RequestContext,
  s: Services,
  notice?: Notice,
): Promise<SlackMessage> {
  const parsed = parseCommand(query, { serverUrl: s.serverUrl });
  if (!parsed.ok || !LIST_KEYS.has(parsed.command.key))
    throw new StaleActionError('the list this button belongs to cannot be read again');
  const cmd = parsed.command as ListCommand;
  const paged = { ...cmd, flags: { ...cmd.flags, page: n } } as ListCommand;
  return renderList(paged, ctx, s, { query, page: n }, notice);
}

export const listButtons: ButtonHandlers = {
  async 'list.page'(v, ctx, s) {
    return { kind: 'update', message: await redrawList(v.q, v.n, ctx, s) };
  },
  async 'noop.dismiss'() {
    return { kind: 'delete' };
  },
};
