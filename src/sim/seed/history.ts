// Four weeks of delivery before the demo's recent activity, for insights to chart: pipelines on the default branch
// most days (some fail their tests), each passing one deployed to staging and some to production, each the merge of
// a merge request a few hours to a day and a half before it; a few production deployments fail and a fix is deployed
// hours later, and one is rolled back (a pipeline on the release before it). The records are made after the rest of
// the demo, so they take the next ids; the jobs are put first in the job table (the jobs list shows the table's
// newest entries first), so that list starts with the recent activity as before.

import { createCommit } from '../domain/commits.js';
import type { JobRecord, JobStatus, MergeRequestRecord, ProjectRecord, UserRecord } from '../model.js';
import { nextId } from '../model.js';
import type { SeedBuilder } from './builder.js';

/** A history made to size: this many pipelines, about this many deployments. */
export interface HistorySize {
  pipelines: number;
  deployments: number;
}

interface HistoryOptions {
  project: ProjectRecord;
  people: readonly UserRecord[];
  environments: { staging: number; production: number };
  /** The history spans these days before the start (oldest first). */
  fromDays: number;
  toDays: number;
  /** Merges on the default branch, each with its pipeline (default 24). */
  runs?: number;
  /** Only every n-th run deploys (default 1: every passing run to staging, every other one to production too). */
  deployEvery?: number;
}

/** Which runs fail their tests, which production deployments fail, and which one is rolled back (by run number). */
const TESTS_FAIL = new Set([3, 8, 9, 15, 21]);
const PRODUCTION_FAILS = new Set([6, 16, 19]);
const ROLLED_BACK = 12;

const CHANGES = [
  'Faster product search',
  'Cart badge shows the item count',
  'Checkout keeps the address',
  'Smaller hero images',
  'Fix currency rounding',
  'Wishlist sharing',
  'Order history paging',
  'Accessible colour contrast',
];

export function seedDeliveryHistory(b: SeedBuilder, o: HistoryOptions): void {
  const jobsBefore = new Set(b.state.jobs.keys());
  const span = (o.fromDays - o.toDays) * 24;
  const runs = o.runs ?? 24;
  const every = Math.max(1, o.deployEvery ?? 1);
  const released: string[] = [];
  const run = (spec: {
    staging: boolean;
    sha: string;
    author: UserRecord;
    hoursAgo: number;
    n: number;
    tests: JobStatus;
    production: JobStatus | null;
  }) => {
    const pipeline = b.pipeline(o.project, {
      ref: o.project.default_branch,
      sha: spec.sha,
      user: spec.author,
      hoursAgo: spec.hoursAgo,
      jobs: [
        { name: 'compile', status: 'success' },
        { name: 'lint', status: 'success' },
        { name: 'unit-tests', status: spec.tests },
        ...(spec.tests === 'success' && spec.staging
          ? [{ name: 'deploy:staging', status: 'success' as JobStatus }]
          : []),
        ...(spec.production ? [{ name: 'deploy:production', status: spec.production }] : []),
      ],
    });
    const jobs = [...b.state.jobs.values()].filter((j) => j.pipeline_id === pipeline.id);
    stretch(jobs, spec.n);
    settle(b, pipeline.id, jobs);
    const staging = jobs.find((j) => j.name === 'deploy:staging');
    if (staging)
      deploy(b, { project: o.project, environmentId: o.environments.staging, job: staging, user: spec.author });
    const production = jobs.find((j) => j.name === 'deploy:production');
    if (production) {
      deploy(b, { project: o.project, environmentId: o.environments.production, job: production, user: spec.author });
      if (production.status === 'success') released.push(spec.sha);
    }
  };
  const commit = (message: string, author: UserRecord, hoursAgo: number) =>
    createCommit(b.state, {
      message,
      author,
      parents: released.length ? [released.at(-1) as string] : [],
      at: b.ago(hoursAgo),
    }).id;

  for (let n = 0; n < runs; n += 1) {
    const hoursAgo = o.fromDays * 24 - (n * span) / runs - (n % 3) * Math.min(1.5, span / runs / 8);
    const author = o.people[n % o.people.length] as UserRecord;
    const title = CHANGES[n % CHANGES.length] as string;
    const sha = commit(`Merge branch 'delivery-${n + 1}' into '${o.project.default_branch}'`, author, hoursAgo + 0.2);
    mergedRequest(b, o.project, { title, author, sha, mergedHoursAgo: hoursAgo + 0.2, openHours: 4 + ((n * 5) % 30) });
    const testsFail = TESTS_FAIL.has(n % 24);
    const deploys = n % every === 0;
    const k = n / every;
    const toProduction =
      deploys && !testsFail && (k % 2 === 0 || PRODUCTION_FAILS.has(k % 24) || k % 24 === ROLLED_BACK);
    run({
      sha,
      author,
      hoursAgo,
      n,
      tests: testsFail ? 'failed' : 'success',
      staging: deploys,
      production: toProduction ? (PRODUCTION_FAILS.has(k % 24) ? 'failed' : 'success') : null,
    });
    if (toProduction && PRODUCTION_FAILS.has(k % 24)) {
      // A fix, merged and deployed a few hours after the failed deployment.
      const later = hoursAgo - Math.min(3 + (n % 3), (span / runs) * every * 0.8);
      const fix = commit(`Fix the ${title.toLowerCase()} release`, author, later + 0.3);
      mergedRequest(b, o.project, {
        title: `Fix: ${title}`,
        author,
        sha: fix,
        mergedHoursAgo: later + 0.3,
        openHours: 1,
      });
      run({ sha: fix, author, hoursAgo: later, n, tests: 'success', staging: true, production: 'success' });
    }
    if (toProduction && k % 24 === ROLLED_BACK) {
      // Two hours later the release before it is deployed again: a rollback, so this run's deployment failed.
      const back = released.at(-2);
      if (back)
        run({ sha: back, author, hoursAgo: hoursAgo - 2, n, tests: 'success', staging: true, production: 'success' });
    }
  }
  // The history's jobs first in the table, the demo's recent ones after them (the newest, listed first).
  const entries = [...b.state.jobs.entries()];
  b.state.jobs.clear();
  for (const [id, job] of [
    ...entries.filter(([i]) => !jobsBefore.has(i)),
    ...entries.filter(([i]) => jobsBefore.has(i)),
  ])
    b.state.jobs.set(id, job);
}

/** A merge request merged into the default branch as `sha`, opened `openHours` before (no events: history only). */
function mergedRequest(
  b: SeedBuilder,
  project: ProjectRecord,
  o: { title: string; author: UserRecord; sha: string; mergedHoursAgo: number; openHours: number },
): void {
  const id = nextId(b.state, 'mergeRequests');
  const record: MergeRequestRecord = {
    id,
    iid: project.next_mr_iid++,
    project_id: project.id,
    title: o.title,
    description: `${o.title}.`,
    state: 'merged',
    created_at: b.iso(o.mergedHoursAgo + o.openHours),
    // 9.5 sends no merged_at: the last update of a merged request is its merge.
    updated_at: b.iso(o.mergedHoursAgo),
    labels: [],
    milestone_id: null,
    author_id: o.author.id,
    subscriber_ids: [o.author.id],
    time_estimate: 0,
    total_time_spent: 0,
    source_project_id: project.id,
    target_project_id: project.id,
    source_branch: `delivery/${id}`,
    target_branch: project.default_branch,
    assignee_id: null,
    merge_when_pipeline_succeeds: false,
    merge_user_id: o.author.id,
    merge_status: 'can_be_merged',
    sha: o.sha,
    merge_commit_sha: o.sha,
    should_remove_source_branch: true,
    force_remove_source_branch: true,
    commit_shas: [o.sha],
    diffs: [],
    head_pipeline_id: null,
    deleted: false,
  };
  b.state.mergeRequests.set(id, record);
}

interface Deploy {
  project: ProjectRecord;
  environmentId: number;
  job: JobRecord;
  user: UserRecord;
}

/** The tests take longer some weeks than others (a slow suite, then a fix), so durations move; later stages wait. */
function stretch(jobs: JobRecord[], run: number): void {
  const factor = (run < 8 ? 1 : run < 17 ? 2.2 : 1.4) + ((run * 7) % 5) / 10;
  const tests = jobs.find((j) => j.name === 'unit-tests');
  if (!tests?.started_at || !tests.finished_at) return;
  const took = Date.parse(tests.finished_at) - Date.parse(tests.started_at);
  const extra = Math.round(took * (factor - 1));
  tests.finished_at = new Date(Date.parse(tests.finished_at) + extra).toISOString();
  for (const job of jobs) {
    if (job.stage_idx <= tests.stage_idx) continue;
    if (job.started_at) job.started_at = new Date(Date.parse(job.started_at) + extra).toISOString();
    if (job.finished_at) job.finished_at = new Date(Date.parse(job.finished_at) + extra).toISOString();
  }
}

/** The pipeline's times from its jobs again, after they moved. */
function settle(b: SeedBuilder, pipelineId: number, jobs: JobRecord[]): void {
  const p = b.state.pipelines.get(pipelineId);
  if (!p) return;
  const starts = jobs.flatMap((j) => (j.started_at ? [j.started_at] : [])).sort();
  const ends = jobs.flatMap((j) => (j.finished_at ? [j.finished_at] : [])).sort();
  p.started_at = starts[0] ?? null;
  p.finished_at = ends.at(-1) ?? null;
  p.updated_at = p.finished_at ?? p.created_at;
  if (p.started_at && p.finished_at) {
    p.duration = Math.round((Date.parse(p.finished_at) - Date.parse(p.started_at)) / 1000);
  }
}

function deploy(b: SeedBuilder, { project, environmentId, job, user }: Deploy) {
  const id = nextId(b.state, 'deployments');
  b.state.deployments.set(id, {
    id,
    iid: project.next_deployment_iid++,
    project_id: project.id,
    ref: job.ref,
    sha: job.sha,
    created_at: job.finished_at ?? job.created_at,
    user_id: user.id,
    environment_id: environmentId,
    deployable_id: job.id,
  });
}
