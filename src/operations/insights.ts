import { InvalidInputError } from '../errors.js';
import type { Project } from '../gitlab/project.js';
import { projectLabel } from '../gitlab/project.js';
import type { Deployment, Job, MergeRequest } from '../gitlab/schemas.js';
import { computeHealth } from '../insights/health.js';
import { computeKeys, deploymentsTo, failedDeployments, productionLike } from '../insights/keys.js';
import { readBack } from '../insights/read-back.js';
import { type InsightsReport, windowsOf } from '../insights/report.js';
import type { ChangeFact, DeploymentFact, JobFact } from '../insights/types.js';
import { createTtlCache } from '../ttl-cache.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { refusing } from './subject.js';

// `/gl insights`: reads a project's deployments, jobs and merged merge requests back over two windows (the one asked
// about and the one before it), with the person's token, in pages asked a few at a time and capped, and computes the
// four keys and the pipelines' health from them (src/insights/). Answers are kept a few minutes per person and
// project: a second look, or the digest right after a command, reads nothing.

export const INSIGHTS_READS = {
  perPage: 100,
  /** Pages of each list at most: 2,000 jobs, 1,000 deployments, 500 merge requests. */
  maxPages: { jobs: 20, deployments: 10, mergeRequests: 5 },
  /** Pages asked at once after a list's first: a few, so one answer does not take a person's whole rate budget. */
  parallel: 4,
  cacheMs: 5 * 60_000,
} as const;

export type { InsightsReport };

export interface InsightsQuery {
  days: number;
  ref?: string | undefined;
  env?: string | undefined;
  /**
   * Days the chart's weeks go back, when more than `days` (the weekly digest keys one week and charts four): the
   * jobs and deployments are read back that far too, in the same capped pages.
   */
  trendDays?: number | undefined;
  /**
   * Whether an environment with no deployments in either window is refused (a command's `--env`, checked as it is
   * asked); a digest made for it keeps posting its keys, which then say it had none.
   */
  envMustExist?: boolean | undefined;
}

const READ = { 403: 'role:Reporter' } as const;

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

function deploymentFact(d: Deployment): DeploymentFact {
  const status = d.deployable?.status;
  return {
    id: d.id,
    environment: d.environment.name,
    ref: d.ref,
    sha: d.sha,
    createdAt: time(d.created_at),
    status: status === 'success' || status === 'failed' ? status : 'other',
  };
}

function jobFact(j: Job): JobFact | null {
  if (!j.pipeline) return null;
  return {
    id: j.id,
    name: j.name,
    status: j.status,
    createdAt: time(j.created_at),
    startedAt: j.started_at ? time(j.started_at) : null,
    finishedAt: j.finished_at ? time(j.finished_at) : null,
    pipelineId: j.pipeline.id,
    pipelineRef: j.pipeline.ref,
    pipelineStatus: j.pipeline.status,
  };
}

/** A merge's moment: merged_at where the server sends it (later servers), else the merge request's last update. */
function changeFact(mr: MergeRequest): ChangeFact | null {
  const at = time(mr.merged_at ?? mr.updated_at);
  return Number.isFinite(at) ? { iid: mr.iid, targetBranch: mr.target_branch, mergedAt: at } : null;
}

export function createInsightsOperations(deps: { access: GitlabAccess }) {
  const cache = createTtlCache<InsightsReport>({ ttlMs: INSIGHTS_READS.cacheMs, maxEntries: 500 });

  async function read(ctx: RequestContext, project: Project, q: InsightsQuery): Promise<InsightsReport> {
    const end = ctx.now.getTime();
    const { window, before, trend } = windowsOf(end, q.days, q.trendDays);
    const subject = { kind: 'project' as const, project };
    let calls = 0;
    const counted = <T>(work: Promise<T>) => {
      calls += 1;
      return work;
    };
    const info = await refusing(
      'read',
      subject,
      {},
      counted(deps.access.withClient(ctx, (c) => c.projects.get(project.key))),
    );
    const ref = q.ref ?? info.default_branch ?? 'main';
    const perPage = INSIGHTS_READS.perPage;
    const [deployments, jobs, merged] = await Promise.all([
      readBack({
        page: (page) =>
          refusing(
            'list-deployments',
            subject,
            READ,
            counted(
              deps.access.withClient(ctx, (c) =>
                c.deployments.list(project.key, { order_by: 'created_at', sort: 'desc', page, per_page: perPage }),
              ),
            ),
          ),
        timeOf: (d) => time(d.created_at),
        since: Math.min(before.start, trend.start),
        maxPages: INSIGHTS_READS.maxPages.deployments,
        parallel: INSIGHTS_READS.parallel,
      }),
      readBack({
        page: (page) =>
          refusing(
            'list-jobs',
            subject,
            READ,
            counted(deps.access.withClient(ctx, (c) => c.jobs.list(project.key, { page, per_page: perPage }))),
          ),
        timeOf: (j) => time(j.created_at),
        since: trend.start,
        maxPages: INSIGHTS_READS.maxPages.jobs,
        parallel: INSIGHTS_READS.parallel,
      }),
      readBack({
        page: (page) =>
          counted(
            deps.access.withClient(ctx, (c) =>
              c.mergeRequests.listForProject(project.key, {
                state: 'merged',
                order_by: 'updated_at',
                sort: 'desc',
                page,
                per_page: perPage,
              }),
            ),
          ),
        timeOf: (mr) => time(mr.updated_at),
        since: before.start,
        maxPages: INSIGHTS_READS.maxPages.mergeRequests,
        parallel: INSIGHTS_READS.parallel,
      }),
    ]);

    const deploymentFacts = deployments.items.map(deploymentFact).filter((d) => Number.isFinite(d.createdAt));
    const jobFacts = jobs.items.flatMap((j) => {
      const f = jobFact(j);
      return f && Number.isFinite(f.createdAt) ? [f] : [];
    });
    const changes = merged.items.flatMap((mr) => {
      const f = changeFact(mr);
      return f ? [f] : [];
    });
    const inEither = deploymentFacts.filter((d) => d.createdAt >= before.start && d.createdAt < end);
    const environments = [...new Set(inEither.map((d) => d.environment))].sort();
    if (q.env !== undefined && q.envMustExist !== false && !environments.includes(q.env)) {
      const seen = environments.length ? `; it deployed to ${environments.map((e) => `\`${e}\``).join(', ')}` : '';
      throw new InvalidInputError(
        `${projectLabel(project)} has no deployments to an environment named "${q.env}" in the last ${q.days * 2} days${seen}.`,
      );
    }
    const environment = q.env ?? productionLike(inEither);
    const keys = environment
      ? {
          now: computeKeys({ deployments: deploymentFacts, changes, environment, window }),
          before: computeKeys({ deployments: deploymentFacts, changes, environment, window: before }),
        }
      : null;
    const toEnvironment = environment ? deploymentsTo(deploymentFacts, environment) : [];
    const healthOver = (w: { start: number; end: number }) =>
      computeHealth({
        jobs: jobFacts,
        ref,
        window: w,
        deployments: toEnvironment,
        failedDeployments: failedDeployments(toEnvironment),
      });
    const health = healthOver(window);
    const trendWeeks = trend.start < window.start ? healthOver(trend).weeks : health.weeks;
    const inWindow = (t: number) => t >= window.start && t < end;
    const capped: InsightsReport['read']['capped'] = [];
    const oldest = (ts: number[]) => Math.min(...ts);
    if (deployments.capped)
      capped.push({ list: 'deployments', reachesBack: oldest(deploymentFacts.map((d) => d.createdAt)) });
    if (jobs.capped) capped.push({ list: 'jobs', reachesBack: oldest(jobFacts.map((j) => j.createdAt)) });
    if (merged.capped) capped.push({ list: 'merge requests', reachesBack: oldest(changes.map((c) => c.mergedAt)) });
    return {
      project: { path: info.path_with_namespace, webUrl: info.web_url ?? null },
      days: q.days,
      window,
      before,
      environment,
      environmentNamed: q.env !== undefined,
      environments,
      ref,
      keys,
      health,
      trendWeeks,
      read: {
        calls,
        pipelines: new Set(jobFacts.filter((j) => inWindow(j.createdAt)).map((j) => j.pipelineId)).size,
        deployments: deploymentFacts.filter((d) => inWindow(d.createdAt)).length,
        jobs: jobFacts.length,
        changes: changes.length,
        capped,
      },
      readAt: end,
    };
  }

  return {
    /** The report for the person, from the cache when they asked the same of the same project minutes ago. */
    async report(ctx: RequestContext, project: Project, q: InsightsQuery): Promise<InsightsReport> {
      const key = JSON.stringify([
        ctx.actor.teamId,
        ctx.actor.userId,
        String(project.key),
        q.days,
        q.ref,
        q.env,
        q.trendDays,
        q.envMustExist,
      ]);
      const now = ctx.now.getTime();
      const kept = cache.get(key, now);
      if (kept) return kept;
      const fresh = await read(ctx, project, q);
      cache.set(key, fresh, now);
      return fresh;
    },
  };
}

export type InsightsOperations = ReturnType<typeof createInsightsOperations>;
