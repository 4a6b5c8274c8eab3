import { describe, expect, it } from 'vitest';
import { projectOf } from '../../../src/gitlab/project.js';
import type { InsightsReport } from '../../../src/insights/report.js';
import { buildInsightsCard, buildInsightsDigest } from '../../../src/views/insights.js';
import { findBlockViolations } from '../../../src/views/limits.js';

// The insights card as data: the keys with their trend, the no-deployments card, and the weekly digest's one message
// that carries the chart as an image.

const DAY = 86_400_000;
const end = Date.parse('2026-03-15T00:00:00Z');
const HOUR = 3_600_000;
const keys = (deployments: number, failed: number, leadH: number | null) => ({
  deployments,
  failed,
  perWeek: deployments / 2,
  leadTime: {
    medianMs: leadH === null ? null : leadH * HOUR,
    p90Ms: leadH === null ? null : 2 * leadH * HOUR,
    changes: 3,
  },
  changeFailureRate: deployments ? failed / deployments : null,
  restore: { medianMs: 3 * HOUR, restored: 1, open: 0 },
});
const report = (o: Partial<InsightsReport> = {}): InsightsReport => ({
  project: { path: 'demo/web', webUrl: null },
  days: 14,
  window: { start: end - 14 * DAY, end },
  before: { start: end - 28 * DAY, end: end - 14 * DAY },
  environment: 'production',
  environmentNamed: false,
  environments: ['production', 'staging'],
  ref: 'main',
  keys: { now: keys(7, 2, 18), before: keys(3, 0, 30) },
  health: {
    ref: 'main',
    pipelines: 10,
    successRate: 0.8,
    medianS: 600,
    p90S: 900,
    weeks: [
      {
        start: end - 14 * DAY,
        end: end - 7 * DAY,
        pipelines: 4,
        successRate: 0.75,
        medianS: 580,
        p90S: 800,
        deployments: 3,
        failedDeployments: 1,
      },
      {
        start: end - 7 * DAY,
        end,
        pipelines: 6,
        successRate: 5 / 6,
        medianS: 620,
        p90S: 900,
        deployments: 4,
        failedDeployments: 1,
      },
    ],
    slowest: [{ name: 'unit-tests', runs: 10, failures: 2, medianS: 300, jobId: 41 }],
    mostFailing: [{ name: 'unit-tests', runs: 10, failures: 2, medianS: 300, jobId: 40 }],
  },
  trendWeeks: [],
  read: { calls: 5, pipelines: 10, deployments: 9, jobs: 50, changes: 3, capped: [] },
  readAt: end,
  ...o,
});
const project = projectOf('demo/web');
const text = (m: { blocks?: unknown[] }) => JSON.stringify(m.blocks);

describe('the insights card', () => {
  it('sets each key against the window before, saying which way is better', () => {
    const card = buildInsightsCard(report(), { versus: 'vs the 14 days before', chart: 'below', project });
    const t = text(card);
    expect(t).toContain('3.5 a week (7 in 14 days, 2 failed) · ↑ better');
    expect(t).toContain('median 18h · p90 36h (3 changes) · ↓ better');
    expect(t).toContain('29% (2 of 7) · ↑ worse');
    expect(t).toContain('_vs the 14 days before: 0%_');
    expect(findBlockViolations(card.blocks)).toEqual([]);
  });

  it('says a capped list reaches back only so far', () => {
    const capped = report({ read: { ...report().read, capped: [{ list: 'jobs', reachesBack: end - 3 * DAY }] } });
    expect(text(buildInsightsCard(capped, { versus: 'vs', chart: null, project }))).toContain(
      'Only the newest jobs were read (the page cap), back to 12 Mar',
    );
  });

  it('shows the pipelines without keys when nothing was deployed', () => {
    const t = text(
      buildInsightsCard(report({ keys: null, environment: null }), { versus: 'vs', chart: null, project }),
    );
    expect(t).toContain('has no deployments in the last 28 days');
    expect(t).toContain('*Pipelines on `main`*: 80% passed of 10');
  });
});

describe('the weekly insights digest', () => {
  it('is one message: the card against last week with the chart as its image', () => {
    const m = buildInsightsDigest(report(), {
      project,
      chart: { fileId: 'F123', altText: 'week of 1 Mar: 3 deployments' },
    });
    expect(text(m)).toContain('vs last week');
    const image = m.blocks?.find((b) => b.type === 'image') as { slack_file?: { id: string }; alt_text?: string };
    expect(image.slack_file).toEqual({ id: 'F123' });
    expect(image.alt_text).toBe('week of 1 Mar: 3 deployments');
    expect(findBlockViolations(m.blocks)).toEqual([]);
  });
});
