import { describe, expect, it } from 'vitest';
import { computeHealth } from '../../../src/insights/health.js';
import { computeKeys, failedDeployments, productionLike } from '../../../src/insights/keys.js';
import { readBack } from '../../../src/insights/read-back.js';
import type { ChangeFact, DeploymentFact, JobFact } from '../../../src/insights/types.js';

// A small history whose four keys are worked out by hand below, next to the data they come from.

const at = (iso: string) => Date.parse(`${iso}Z`);
const HOUR = 3_600_000;
const window = { start: at('2026-03-01T00:00'), end: at('2026-03-15T00:00') }; // 14 days
const before = { start: at('2026-02-15T00:00'), end: at('2026-03-01T00:00') };

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
  deploy('2026-02-20T10:00', 'a', 'success'), // before
  deploy('2026-02-25T10:00', 'b', 'failed'), // before: failed…
  deploy('2026-02-26T10:00', 'b2', 'success'), // …restored 24 h later
  deploy('2026-03-02T10:00', 'c', 'success'),
  deploy('2026-03-04T10:00', 'd', 'success'), // rolled back by the next one (it puts c back): failed
  deploy('2026-03-04T12:00', 'c', 'success'), // the rollback: restored after 2 h
  deploy('2026-03-08T10:00', 'e', 'failed'), // failed…
  deploy('2026-03-08T11:00', 'e', 'failed'), // …failed again (the same outage)…
  deploy('2026-03-08T14:00', 'f', 'success'), // …restored 4 h after the first failure
  deploy('2026-03-12T10:00', 'g', 'failed'), // failed, not restored yet
  deploy('2026-03-03T09:00', 's1', 'failed', 'staging'), // another environment: not counted
  deploy('2026-03-05T09:00', 's2', 'success', 'staging'),
];

const change = (iid: number, merged: string, targetBranch = 'main'): ChangeFact => ({
  iid,
  targetBranch,
  mergedAt: at(merged),
});
const changes: ChangeFact[] = [
  change(1, '2026-03-01T22:00'), // shipped by 03-02 10:00: 12 h
  change(2, '2026-03-03T10:00'), // shipped by 03-04 10:00 (its job succeeded, later rolled back): 24 h
  change(3, '2026-03-08T09:00'), // 03-08 10:00 and 11:00 failed; shipped at 14:00: 5 h
  change(4, '2026-03-12T09:00'), // only a failed deployment after it: not shipped, not counted
  change(5, '2026-02-24T10:00'), // shipped 02-26 10:00, before the window: 48 h (window before)
  change(6, '2026-02-28T22:00'), // merged before the window, shipped in it (03-02 10:00): 36 h
  change(7, '2026-03-05T10:00', 'release'), // no deployment of `release`: not counted
];

describe('the four keys, computed by hand', () => {
  const now = computeKeys({ deployments, changes, environment: 'production', window });
  const then = computeKeys({ deployments, changes, environment: 'production', window: before });

  it('counts deployment frequency over the window: 7 to production in 14 days is 3.5 a week', () => {
    expect(now.deployments).toBe(7);
    expect(now.perWeek).toBe(3.5);
    expect(then.deployments).toBe(3);
    expect(then.perWeek).toBe(1.5);
  });

  it('measures lead time from merge to the first successful deployment of the target branch: 5, 12, 24, 36 h', () => {
    expect(now.leadTime).toEqual({ medianMs: 18 * HOUR, p90Ms: 36 * HOUR, changes: 4 });
    expect(then.leadTime).toEqual({ medianMs: 48 * HOUR, p90Ms: 48 * HOUR, changes: 1 });
  });

  it('counts a failed job and a rolled-back deployment as failures: 4 of 7 (the rollback d, e twice, g)', () => {
    expect(now.failed).toBe(4);
    expect(now.changeFailureRate).toBeCloseTo(4 / 7, 10);
    expect(then.changeFailureRate).toBeCloseTo(1 / 3, 10);
  });

  it('measures time to restore from the first failure of a run to the next success: 2 h and 4 h, one still open', () => {
    expect(now.restore).toEqual({ medianMs: 3 * HOUR, restored: 2, open: 1 });
    expect(then.restore).toEqual({ medianMs: 24 * HOUR, restored: 1, open: 0 });
  });

  it('has no rates and no times when nothing was deployed', () => {
    const empty = computeKeys({ deployments: [], changes, environment: 'production', window });
    expect(empty).toEqual({
      deployments: 0,
      failed: 0,
      perWeek: 0,
      leadTime: { medianMs: null, p90Ms: null, changes: 0 },
      changeFailureRate: null,
      restore: { medianMs: null, restored: 0, open: 0 },
    });
  });

  it('finds the rollback only when an older sha comes back', () => {
    const ordered = deployments.filter((d) => d.environment === 'production');
    const failed = [...failedDeployments(ordered)].map((n) => ordered.find((d) => d.id === n)?.sha);
    expect(failed).toEqual(['b', 'd', 'e', 'e', 'g']);
  });

  it('takes production, or an environment named like it, or the one deployed to most', () => {
    expect(productionLike(deployments)).toBe('production');
    const named = (environment: string) => deploy('2026-03-02T10:00', 'x', 'success', environment);
    expect(productionLike([named('review/a'), named('prod-eu'), named('review/a')])).toBe('prod-eu');
    expect(productionLike([named('review/a'), named('staging'), named('staging')])).toBe('staging');
    expect(productionLike([])).toBeNull();
  });
});

describe("the pipelines' health, computed by hand", () => {
  let jobId = 100;
  const job = (
    pipelineId: number,
    ref: string,
    pipelineStatus: string,
    name: string,
    status: string,
    day: string,
    start: string,
    end: string,
  ): JobFact => ({
    id: ++jobId,
    name,
    status,
    createdAt: at(`${day}T10:00`),
    startedAt: at(`${day}T${start}`),
    finishedAt: at(`${day}T${end}`),
    pipelineId,
    pipelineRef: ref,
    pipelineStatus,
  });
  const jobs = [
    job(1, 'main', 'success', 'build', 'success', '2026-03-02', '10:01', '10:05'), // 4 min
    job(1, 'main', 'success', 'test', 'success', '2026-03-02', '10:05', '10:15'), // 10 min: pipeline 14 min
    job(2, 'main', 'failed', 'build', 'success', '2026-03-03', '10:01', '10:03'), // 2 min
    job(2, 'main', 'failed', 'test', 'failed', '2026-03-03', '10:03', '10:23'), // 20 min: pipeline 22 min
    job(3, 'main', 'success', 'build', 'success', '2026-03-09', '10:01', '10:04'), // 3 min
    job(3, 'main', 'success', 'test', 'success', '2026-03-09', '10:04', '10:10'), // 6 min: pipeline 9 min
    job(4, 'feature', 'failed', 'test', 'failed', '2026-03-09', '10:01', '11:00'), // another ref
    job(5, 'main', 'failed', 'test', 'failed', '2026-02-20', '10:01', '11:00'), // before the window
  ];
  const production = deployments.filter((d) => d.environment === 'production');
  const health = computeHealth({
    jobs,
    ref: 'main',
    window,
    deployments: production,
    failedDeployments: failedDeployments(production),
  });

  it('rates and times the pipelines of the ref in the window: 2 of 3 passed, 14, 22 and 9 minutes', () => {
    expect(health).toMatchObject({ ref: 'main', pipelines: 3, successRate: 2 / 3, medianS: 840, p90S: 1320 });
  });

  it('splits the window into weeks ending where it ends, with the deployments of each', () => {
    expect(health.weeks).toEqual([
      {
        start: at('2026-03-01T00:00'),
        end: at('2026-03-08T00:00'),
        pipelines: 2,
        successRate: 0.5,
        medianS: 1080,
        p90S: 1320,
        deployments: 3,
        failedDeployments: 1,
      },
      {
        start: at('2026-03-08T00:00'),
        end: at('2026-03-15T00:00'),
        pipelines: 1,
        successRate: 1,
        medianS: 540,
        p90S: 540,
        deployments: 4,
        failedDeployments: 3,
      },
    ]);
  });

  it('names the slowest jobs by median duration and the most-failing with their latest failed run', () => {
    expect(health.slowest.map((s) => [s.name, s.medianS, s.jobId])).toEqual([
      ['test', 600, 106],
      ['build', 180, 105],
    ]);
    expect(health.mostFailing).toEqual([{ name: 'test', runs: 3, failures: 1, medianS: 600, jobId: 104 }]);
  });
});

describe('reading a long list back', () => {
  const page = (n: number, total: number, perPage = 100) => {
    const newest = Date.parse('2026-03-15T00:00:00Z');
    const items = Array.from({ length: perPage }, (_, i) => newest - ((n - 1) * perPage + i) * 60_000);
    return Promise.resolve({
      items,
      page: n,
      perPage,
      nextPage: n < total ? n + 1 : null,
      prevPage: n > 1 ? n - 1 : null,
      total: total * perPage,
      totalPages: total,
    });
  };

  it('stops at the page that reaches back far enough, asking a few pages at a time', async () => {
    const asked: number[] = [];
    const since = Date.parse('2026-03-15T00:00:00Z') - 450 * 60_000; // inside page 5
    const r = await readBack({
      page: (n) => {
        asked.push(n);
        return page(n, 100);
      },
      timeOf: (t) => t,
      since,
      maxPages: 20,
      parallel: 4,
    });
    expect(asked).toEqual([1, 2, 3, 4, 5]);
    expect(r).toMatchObject({ pages: 5, capped: false });
  });

  it('caps a list of 10,000 pipelines at its page limit and says it did', async () => {
    const asked: number[] = [];
    const r = await readBack({
      page: (n) => {
        asked.push(n);
        return page(n, 100);
      },
      timeOf: (t) => t,
      since: 0,
      maxPages: 20,
      parallel: 4,
    });
    expect(asked).toHaveLength(20);
    expect(r).toMatchObject({ pages: 20, capped: true });
    expect(r.items).toHaveLength(2000);
  });

  it('reads a short list to its end without calling it capped', async () => {
    const r = await readBack({ page: (n) => page(n, 2), timeOf: (t) => t, since: 0, maxPages: 20, parallel: 4 });
    expect(r).toMatchObject({ pages: 2, capped: false });
  });
});
