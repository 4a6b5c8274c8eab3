// Four weeks of delivery before the demo's recent activity, for insights to chart: pipelines on the default branch
// most days (some fail their tests), each passing one deployed to staging and some to production; a few production
// deployments fail and are put right hours later, and one is rolled back. The records are made after the rest of the
// demo, so they take the next ids, but the jobs are put first in the job table (the jobs list shows the table's newest
// entries first), so lists of the recent activity start as before.

import { createCommit } from '../domain/commits.js';
import type { JobRecord, JobStatus, ProjectRecord, UserRecord } from '../model.js';
import { nextId } from '../model.js';
import type { SeedBuilder } from './builder.js';

interface HistoryOptions {
  project: ProjectRecord;
  people: readonly UserRecord[];
  environments: { staging: number; production: number };
  /** The history spans these days before the start (oldest first). */
  fromDays: number;
  toDays: number;
}

/** Which runs fail their tests, which production deployments fail, and which one is rolled back (by run number). */
const TESTS_FAIL = new Set([3, 8, 9, 15, 21]);
const PRODUCTION_FAILS = new Set([6, 16, 17]);
const ROLLED_BACK = 12;
const RUNS = 26;

export function seedDeliveryHistory(b: SeedBuilder, o: HistoryOptions): void {
  const jobsBefore = new Set(b.state.jobs.keys());
  const span = (o.fromDays - o.toDays) * 24;
  const deployed: string[] = [];
  const productionJobs = new Map<string, JobRecord>();
  for (let run = 0; run < RUNS; run += 1) {
    const hoursAgo = o.fromDays * 24 - (run * span) / RUNS - (run % 3) * 1.5;
    const author = o.people[run % o.people.length] as UserRecord;
    const sha = createCommit(b.state, {
      message: `Delivery ${run + 1}: ${CHANGES[run % CHANGES.length]}`,
      author,
      parents: deployed.length ? [deployed.at(-1) as string] : [],
      at: b.ago(hoursAgo + 0.5),
    }).id;
    const testsFail = TESTS_FAIL.has(run);
    const toProduction = !testsFail && (run % 2 === 0 || PRODUCTION_FAILS.has(run) || run === ROLLED_BACK);
    const production: JobStatus = PRODUCTION_FAILS.has(run) ? 'failed' : 'success';
    const pipeline = b.pipeline(o.project, {
      ref: o.project.default_branch,
      sha,
      user: author,
      hoursAgo,
      jobs: [
        { name: 'compile', status: 'success' },
        { name: 'lint', status: 'success' },
        { name: 'unit-tests', status: testsFail ? 'failed' : 'success' },
        ...(testsFail ? [] : [{ name: 'deploy:staging', status: 'success' as JobStatus }]),
        ...(toProduction ? [{ name: 'deploy:production', status: production }] : []),
      ],
    });
    const jobs = [...b.state.jobs.values()].filter((j) => j.pipeline_id === pipeline.id);
    stretch(jobs, run);
    settle(b, pipeline.id, jobs);
    const jobNamed = (name: string) => jobs.find((j) => j.name === name);
    const staging = jobNamed('deploy:staging');
    if (staging) deploy(b, o.project, o.environments.staging, staging, author);
    const prod = jobNamed('deploy:production');
    if (prod) {
      deploy(b, o.project, o.environments.production, prod, author);
      if (prod.status === 'success') deployed.push(sha);
    }
    if (run === ROLLED_BACK && prod) {
      // Two hours later the release before it is deployed again (its deployment job retried): a rollback, so this
      // run's deployment counts as failed.
      const back = deployed.at(-2);
      const old = back ? productionJobs.get(back) : undefined;
      if (back && old) {
        const again: JobRecord = {
          ...old,
          id: nextId(b.state, 'jobs'),
          created_at: b.iso(hoursAgo - 2),
          started_at: b.iso(hoursAgo - 2),
          finished_at: b.iso(hoursAgo - 1.9),
        };
        old.retried = true;
        b.state.jobs.set(again.id, again);
        deploy(b, o.project, o.environments.production, again, author);
        deployed.push(back);
      }
    }
    if (prod) productionJobs.set(sha, prod);
  }
  // The history's jobs first in the table, the demo's recent ones after them (the newest, listed first).
  const recent = [...b.state.jobs.entries()].filter(([id]) => jobsBefore.has(id));
  const history = [...b.state.jobs.entries()].filter(([id]) => !jobsBefore.has(id));
  b.state.jobs.clear();
  for (const [id, job] of [...history, ...recent]) b.state.jobs.set(id, job);
}

const CHANGES = [
  'faster product search',
  'cart badge shows the item count',
  'checkout keeps the address',
  'smaller hero images',
  'fix currency rounding',
  'wishlist sharing',
  'order history paging',
  'accessible colour contrast',
];

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

function deploy(b: SeedBuilder, project: ProjectRecord, environmentId: number, job: JobRecord, user: UserRecord) {
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
