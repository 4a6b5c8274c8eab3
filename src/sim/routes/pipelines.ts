// Pipelines (list filters of 9.5, create on a ref, retry, cancel), pipeline
// schedules and deployments.

import { accessLevel, DEVELOPER, MASTER, REPORTER } from '../access.js';
import { cancelPipeline, createPipeline, retryPipeline } from '../ci/engine.js';
import { isValidTimeZone, nextCronRun, parseCron } from '../cron.js';
import { type Handler, json, type RequestContext } from '../http/context.js';
import { forbidden, invalidRecord, notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { bool, has, oneOf, requireStr, str } from '../http/params.js';
import type { Route } from '../http/router.js';
import { findPipeline, findProject, requireAccess } from '../lookup.js';
import type { DeploymentRecord, PipelineRecord, PipelineStatus, ProjectRecord, ScheduleRecord } from '../model.js';
import { nextId } from '../model.js';
import { presentDeployment, presentPipeline, presentPipelineBasic, presentSchedule } from '../present.js';

const PIPELINE_STATUSES: readonly PipelineStatus[] = [
  'running',
  'pending',
  'success',
  'failed',
  'canceled',
  'skipped',
  'created',
  'manual',
];

/** The newest pipeline of each ref that passes `pick`. */
function latestPerRef(pipelines: PipelineRecord[], pick: (p: PipelineRecord) => boolean): Set<number> {
  const best = new Map<string, number>();
  for (const p of pipelines) if (pick(p) && p.id > (best.get(p.ref) ?? 0)) best.set(p.ref, p.id);
  return new Set(best.values());
}

const listPipelines: Handler = (ctx) => {
  const project = findProject(ctx);
  const scope = oneOf(ctx.params, 'scope', ['running', 'pending', 'finished', 'branches', 'tags'] as const);
  const status = oneOf(ctx.params, 'status', PIPELINE_STATUSES);
  const ref = str(ctx.params, 'ref');
  const yamlErrors = bool(ctx.params, 'yaml_errors');
  const name = str(ctx.params, 'name');
  const username = str(ctx.params, 'username');
  const orderBy = oneOf(ctx.params, 'order_by', ['id', 'status', 'ref', 'user_id'] as const) ?? 'id';
  const sort = oneOf(ctx.params, 'sort', ['asc', 'desc'] as const) ?? 'desc';
  let items = [...ctx.state.pipelines.values()].filter((p) => p.project_id === project.id);
  if (scope === 'running' || scope === 'pending') items = items.filter((p) => p.status === scope);
  else if (scope === 'finished')
    items = items.filter((p) => ['success', 'failed', 'canceled', 'skipped'].includes(p.status));
  else if (scope === 'branches' || scope === 'tags') {
    const ids = latestPerRef(items, (p) => (scope === 'tags' ? p.tag : !p.tag && p.ref in project.branches));
    items = items.filter((p) => ids.has(p.id));
  }
  if (status) items = items.filter((p) => p.status === status);
  if (ref !== undefined) items = items.filter((p) => p.ref === ref);
  if (yamlErrors !== undefined) items = items.filter((p) => (p.yaml_errors !== null) === yamlErrors);
  if (name !== undefined) items = items.filter((p) => ctx.state.users.get(p.user_id)?.name === name);
  if (username !== undefined) items = items.filter((p) => ctx.state.users.get(p.user_id)?.username === username);
  const key = (p: PipelineRecord): string | number =>
    orderBy === 'id' ? p.id : orderBy === 'user_id' ? p.user_id : p[orderBy];
  items.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    return sort === 'asc' ? c : -c;
  });
  return paginate(ctx, items, presentPipelineBasic);
};

const getPipeline: Handler = (ctx) => {
  const project = findProject(ctx);
  return json(200, presentPipeline(ctx, findPipeline(ctx, project)));
};

const createPipelineRoute: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, DEVELOPER);
  const ref = requireStr(ctx.params, 'ref');
  const branchSha = project.branches[ref];
  const tagSha = project.tags[ref];
  const sha = branchSha ?? tagSha;
  if (!sha) throw invalidRecord({ base: ['Reference not found'] });
  const pipeline = createPipeline(
    ctx.state,
    project,
    { ref, sha, tag: branchSha === undefined, user_id: ctx.user.id },
    ctx.now,
  );
  return json(201, presentPipeline(ctx, pipeline));
};

const retryPipelineRoute: Handler = (ctx) => {
  const project = findProject(ctx);
  const pipeline = findPipeline(ctx, project);
  requireAccess(ctx, project, DEVELOPER);
  retryPipeline(ctx.state, pipeline, ctx.user.id, ctx.now);
  return json(201, presentPipeline(ctx, pipeline));
};

const cancelPipelineRoute: Handler = (ctx) => {
  const project = findProject(ctx);
  const pipeline = findPipeline(ctx, project);
  requireAccess(ctx, project, DEVELOPER);
  cancelPipeline(ctx.state, pipeline, ctx.now);
  return json(200, presentPipeline(ctx, pipeline));
};

// ------------------------------------------------------------------ schedules

function findSchedule(ctx: RequestContext, project: ProjectRecord): ScheduleRecord {
  const id = Number(ctx.route.schedule_id);
  const s = ctx.state.schedules.get(id);
  if (!s || s.project_id !== project.id) throw notFound('Pipeline Schedule');
  return s;
}

/** Schedule edits are for masters and the schedule's owner. */
function requireScheduleAdmin(ctx: RequestContext, project: ProjectRecord, s: ScheduleRecord): void {
  const level = accessLevel(ctx.state, ctx.user, project);
  if (level >= MASTER || (level >= DEVELOPER && s.owner_id === ctx.user.id)) return;
  throw forbidden();
}

function validateSchedule(cron: string, zone: string, now: Date): string {
  const errors: Record<string, string[]> = {};
  const spec = parseCron(cron);
  if (!spec) errors.cron = [' is invalid syntax'];
  if (!isValidTimeZone(zone)) errors.cron_timezone = [' is invalid syntax'];
  const next = spec && !errors.cron_timezone ? nextCronRun(spec, zone, now) : null;
  if (spec && !errors.cron_timezone && !next) errors.cron = [' never runs'];
  if (Object.keys(errors).length || !next) throw invalidRecord(errors);
  return next.toISOString();
}

const listSchedules: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, REPORTER);
  const scope = oneOf(ctx.params, 'scope', ['active', 'inactive'] as const);
  const items = [...ctx.state.schedules.values()].filter(
    (s) => s.project_id === project.id && (scope === undefined || s.active === (scope === 'active')),
  );
  return paginate(ctx, items, (s) => presentSchedule(ctx, s, false));
};

const getSchedule: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, REPORTER);
  return json(200, presentSchedule(ctx, findSchedule(ctx, project), true));
};

const createSchedule: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, DEVELOPER);
  const description = requireStr(ctx.params, 'description');
  const ref = requireStr(ctx.params, 'ref');
  const cron = requireStr(ctx.params, 'cron');
  const zone = str(ctx.params, 'cron_timezone') || 'UTC';
  const active = bool(ctx.params, 'active') ?? true;
  const nextRun = validateSchedule(cron, zone, ctx.now);
  const iso = ctx.now.toISOString();
  const schedule: ScheduleRecord = {
    id: nextId(ctx.state, 'schedules'),
    project_id: project.id,
    description,
    ref,
    cron,
    cron_timezone: zone,
    run_due_at: nextRun,
    active,
    created_at: iso,
    updated_at: iso,
    owner_id: ctx.user.id,
    last_pipeline_id: null,
  };
  ctx.state.schedules.set(schedule.id, schedule);
  return json(201, presentSchedule(ctx, schedule, true));
};

const editSchedule: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, REPORTER);
  const s = findSchedule(ctx, project);
  requireScheduleAdmin(ctx, project, s);
  const cron = has(ctx.params, 'cron') ? requireStr(ctx.params, 'cron') : s.cron;
  const zone = has(ctx.params, 'cron_timezone') ? requireStr(ctx.params, 'cron_timezone') : s.cron_timezone;
  const nextRun = validateSchedule(cron, zone, ctx.now);
  const description = str(ctx.params, 'description');
  const ref = str(ctx.params, 'ref');
  const active = bool(ctx.params, 'active');
  if (description !== undefined) s.description = description;
  if (ref !== undefined) s.ref = ref;
  if (active !== undefined) s.active = active;
  s.cron = cron;
  s.cron_timezone = zone;
  s.run_due_at = nextRun;
  s.updated_at = ctx.now.toISOString();
  return json(200, presentSchedule(ctx, s, true));
};

const takeOwnership: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, REPORTER);
  const s = findSchedule(ctx, project);
  requireScheduleAdmin(ctx, project, s);
  s.owner_id = ctx.user.id;
  s.updated_at = ctx.now.toISOString();
  return json(201, presentSchedule(ctx, s, true));
};

const deleteSchedule: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, REPORTER);
  const s = findSchedule(ctx, project);
  requireScheduleAdmin(ctx, project, s);
  const body = presentSchedule(ctx, s, true);
  ctx.state.schedules.delete(s.id);
  return json(202, body);
};

// ------------------------------------------------------------------ deployments

const listDeployments: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, REPORTER);
  const orderBy = oneOf(ctx.params, 'order_by', ['id', 'iid', 'created_at', 'ref'] as const) ?? 'id';
  const sort = oneOf(ctx.params, 'sort', ['asc', 'desc'] as const) ?? 'asc';
  const items = [...ctx.state.deployments.values()].filter((d) => d.project_id === project.id);
  items.sort((a: DeploymentRecord, b: DeploymentRecord) => {
    const ka = a[orderBy];
    const kb = b[orderBy];
    const c = ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    return sort === 'asc' ? c : -c;
  });
  return paginate(ctx, items, (d) => presentDeployment(ctx, d));
};

const getDeployment: Handler = (ctx) => {
  const project = findProject(ctx);
  requireAccess(ctx, project, REPORTER);
  const d = ctx.state.deployments.get(Number(ctx.route.deployment_id));
  if (!d || d.project_id !== project.id) throw notFound('Deployment');
  return json(200, presentDeployment(ctx, d));
};

export const pipelineRoutes: Route[] = [
  ['GET', '/projects/:id/pipelines', listPipelines],
  ['GET', '/projects/:id/pipelines/:pipeline_id', getPipeline],
  ['POST', '/projects/:id/pipeline', createPipelineRoute],
  ['POST', '/projects/:id/pipelines/:pipeline_id/retry', retryPipelineRoute],
  ['POST', '/projects/:id/pipelines/:pipeline_id/cancel', cancelPipelineRoute],
  ['GET', '/projects/:id/pipeline_schedules', listSchedules],
  ['GET', '/projects/:id/pipeline_schedules/:schedule_id', getSchedule],
  ['POST', '/projects/:id/pipeline_schedules', createSchedule],
  ['PUT', '/projects/:id/pipeline_schedules/:schedule_id', editSchedule],
  ['POST', '/projects/:id/pipeline_schedules/:schedule_id/take_ownership', takeOwnership],
  ['DELETE', '/projects/:id/pipeline_schedules/:schedule_id', deleteSchedule],
  ['GET', '/projects/:id/deployments', listDeployments],
  ['GET', '/projects/:id/deployments/:deployment_id', getDeployment],
];
