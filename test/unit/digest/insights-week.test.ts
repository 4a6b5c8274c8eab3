import { describe, expect, it } from 'vitest';
import {
  INSIGHTS_DIGEST_DAYS,
  INSIGHTS_DIGEST_TREND_DAYS,
  insightsQueryOf,
} from '../../../src/digest/insights-reader.js';
import { projectOf } from '../../../src/gitlab/project.js';
import { computeHealth } from '../../../src/insights/health.js';
import { computeKeys, deploymentsTo, failedDeployments } from '../../../src/insights/keys.js';
import { type InsightsReport, windowsOf } from '../../../src/insights/report.js';
import type { DeploymentFact, JobFact } from '../../../src/insights/types.js';
import type { Digest } from '../../../src/store/digest-store.js';
import { buildInsightsDigest } from '../../../src/views/insights.js';

// The weekly insights digest's numbers on a small history worked out by hand: the week before a Monday 09:00 run
// against the week before it ("vs last week"), and four weeks for the chart, as the digest's reader asks for them.

const at = (iso: string) => Date.parse(`${iso}Z`);
const HOUR = 3_600_000;
const RUN = at('2026-03-09T09:00'); // Monday 09:00 UTC

let id = 0;
const deploy = (when: string, sha: string, status: DeploymentFact['status'], environment = 'production') => ({
  id: ++id,
  environment,
  ref: 'main',
  sha,
  createdAt: at(when),
  status,
});
const deployments: DeploymentFact[] = [
  deploy('2026-02-12T10:00', 'x', 'success'), // three weeks back: charted, in no key
  deploy('2026-02-24T10:00', 'a', 'success'), // last week
  deploy('2026-02-26T10:00', 'b', 'success'), // last week
  deploy('2026-03-02T08:59', 'b2', 'success'), // a minute before this week began: last week
  deploy('2026-03-03T10:00', 'c', 'success'), // this week
  deploy('2026-03-05T10:00', 'd', 'failed'), // this week: failed…
  deploy('2026-03-05T13:00', 'e', 'success'), // …restored 3 h later
  deploy('2026-03-06T10:00', 's', 'failed', 'staging'), // another environment: not counted
];

let job = 0;
/** One pipeline of one job on main, `minutes` long. */
const pipeline = (when: string, status: 'success' | 'failed', minutes: number): JobFact => ({
  id: ++job,
  name: 'build',
  status,
  createdAt: at(when),
  startedAt: at(when),
  finishedAt: at(when) + minutes * 60_000,
  pipelineId: 100 + job,
  pipelineRef: 'main',
  pipelineStatus: status,
});
const jobs = [
  pipeline('2026-02-25T10:00', 'success', 10), // last week: not in this week's health
  pipeline('2026-03-03T09:30', 'success', 10),
  pipeline('2026-03-04T09:30', 'failed', 20),
  pipeline('2026-03-06T09:30', 'success', 12),
];

const digest = { id: 1, project: { id: 7, path: 'demo/web' }, environment: null } as Pick<
  Digest,
  'id' | 'project' | 'environment'
>;

describe('the weekly insights digest, worked out by hand', () => {
  const q = insightsQueryOf(digest as Digest);
  const { window, before, trend } = windowsOf(RUN, q.days, q.trendDays);
  const now = computeKeys({ deployments, changes: [], environment: 'production', window });
  const then = computeKeys({ deployments, changes: [], environment: 'production', window: before });

  it('asks for the last 7 days against the 7 before, four weeks charted, an environment that may have gone quiet', () => {
    expect(q).toEqual({ days: 7, trendDays: 28, env: undefined, envMustExist: false });
    expect([INSIGHTS_DIGEST_DAYS, INSIGHTS_DIGEST_TREND_DAYS]).toEqual([7, 28]);
    expect(window).toEqual({ start: at('2026-03-02T09:00'), end: RUN });
    expect(before).toEqual({ start: at('2026-02-23T09:00'), end: at('2026-03-02T09:00') });
    expect(trend).toEqual({ start: at('2026-02-09T09:00'), end: RUN });
    expect(insightsQueryOf({ ...digest, environment: 'staging' } as Digest).env).toBe('staging');
  });

  it('counts this week 3 deployments (1 failed, restored in 3 h) against last week’s 3 (none failed)', () => {
    expect(now).toMatchObject({ deployments: 3, failed: 1, perWeek: 3, changeFailureRate: 1 / 3 });
    expect(now.restore).toMatchObject({ medianMs: 3 * HOUR, restored: 1, open: 0 });
    expect(then).toMatchObject({ deployments: 3, failed: 0, perWeek: 3, changeFailureRate: 0 });
    expect(then.restore).toMatchObject({ medianMs: null, restored: 0 });
  });

  it('says each key vs last week on the post, and charts four weeks', () => {
    const toProduction = deploymentsTo(deployments, 'production');
    const health = (w: typeof window) =>
      computeHealth({
        jobs,
        ref: 'main',
        window: w,
        deployments: toProduction,
        failedDeployments: failedDeployments(toProduction),
      });
    const week = health(window);
    expect(week).toMatchObject({ pipelines: 3, successRate: 2 / 3, medianS: 12 * 60 });
    const trendWeeks = health(trend).weeks;
    expect(trendWeeks.map((w) => w.deployments)).toEqual([1, 0, 3, 3]);
    const report: InsightsReport = {
      project: { path: 'demo/web', webUrl: null },
      days: 7,
      window,
      before,
      environment: 'production',
      environmentNamed: false,
      environments: ['production', 'staging'],
      ref: 'main',
      keys: { now, before: then },
      health: week,
      trendWeeks,
      read: { calls: 4, pipelines: 3, deployments: 4, jobs: 4, changes: 0, capped: [] },
      readAt: RUN,
    };
    const post = buildInsightsDigest(report, {
      project: projectOf('demo/web'),
      chart: { fileId: 'F0CHART01', altText: 'four weeks' },
    });
    const text = JSON.stringify(post.blocks);
    expect(text).toContain('3 a week (3 in 7 days, 1 failed) · same');
    expect(text).toContain('_vs last week: 3 a week_');
    expect(text).toContain('33% (1 of 3) · ↑ worse');
    expect(text).toContain('_vs last week: 0%_');
    expect(text).toContain('median 3h (1 restored)');
    expect(text).toContain('demo/web: the last 4 weeks');
  });
});
