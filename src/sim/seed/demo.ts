// The `demo` data set (ARCHITECTURE §7): a small web shop team. Everything a
// newcomer sees in `npm run demo` comes from here, so names and texts read
// like a real project's.

import { nextCronRun, parseCron } from '../cron.js';
import { recordEvent } from '../domain/activity.js';
import { createCommit, fakeSha } from '../domain/commits.js';
import type { CiJobTemplate, MergeRequestRecord, ProjectRecord, State, UserRecord } from '../model.js';
import { nextId } from '../model.js';
import { diff, SeedBuilder } from './builder.js';
import { type HistorySize, seedDeliveryHistory } from './history.js';
import { seedUsers } from './users.js';

const OWNER = 50;
const DEVELOPER = 30;

function ci(name: string, stage: string, opts: Partial<Omit<CiJobTemplate, 'name' | 'stage'>> = {}): CiJobTemplate {
  return {
    name,
    stage,
    manual: opts.manual ?? false,
    allow_failure: opts.allow_failure ?? opts.manual ?? false,
    only: opts.only ?? 'always',
    makes_artifacts: opts.makes_artifacts ?? false,
    outcome: opts.outcome ?? 'success',
  };
}

function project(
  seed: SeedBuilder,
  spec: {
    name: string;
    path: string;
    description: string;
    visibility: 'public' | 'private';
    members: [UserRecord, number][];
    labels: string[];
    stages: string[];
    ciJobs: CiJobTemplate[];
    creator: UserRecord;
    hoursAgo: number;
  },
): ProjectRecord {
  const p: ProjectRecord = {
    id: nextId(seed.state, 'projects'),
    name: spec.name,
    path: spec.path,
    group_id: 1,
    description: spec.description,
    default_branch: 'main',
    visibility: spec.visibility,
    created_at: seed.iso(spec.hoursAgo),
    last_activity_at: seed.iso(spec.hoursAgo),
    creator_id: spec.creator.id,
    members: spec.members.map(([u, level]) => ({ user_id: u.id, access_level: level })),
    labels: spec.labels,
    stages: spec.stages,
    ci_jobs: spec.ciJobs,
    branches: {},
    tags: {},
    next_issue_iid: 1,
    next_mr_iid: 1,
    next_deployment_iid: 1,
  };
  seed.state.projects.set(p.id, p);
  return p;
}

function milestone(
  seed: SeedBuilder,
  {
    project,
    iid,
    title,
    description,
    state,
    startDays,
    dueDays,
  }: {
    project: ProjectRecord;
    iid: number;
    title: string;
    description: string;
    state: 'active' | 'closed';
    startDays: number;
    dueDays: number;
  },
): number {
  const id = nextId(seed.state, 'milestones');
  seed.state.milestones.set(id, {
    id,
    iid,
    project_id: project.id,
    group_id: null,
    title,
    description,
    state,
    created_at: seed.iso(-startDays * 24 + 24 * 3),
    updated_at: seed.iso(state === 'closed' ? -dueDays * 24 : -startDays * 24 + 24 * 3),
    start_date: seed.date(startDays),
    due_date: seed.date(dueDays),
  });
  return id;
}

function push(
  seed: SeedBuilder,
  {
    project,
    user,
    ref,
    from,
    to,
    count,
    hoursAgo,
    refType = 'branch',
  }: {
    project: ProjectRecord;
    user: UserRecord;
    ref: string;
    from: string | null;
    to: string;
    count: number;
    hoursAgo: number;
    refType?: 'branch' | 'tag';
  },
) {
  recordEvent(
    seed.state,
    {
      project_id: project.id,
      author_id: user.id,
      action: 'pushed',
      target_type: null,
      target_id: null,
      push_data: {
        commit_count: count,
        action: from === null ? 'created' : 'pushed',
        ref_type: refType,
        commit_from: from,
        commit_to: to,
        ref,
        commit_title: seed.state.commits.get(to)?.title ?? null,
      },
    },
    seed.ago(hoursAgo),
  );
}

function schedule(
  seed: SeedBuilder,
  project: ProjectRecord,
  spec: {
    description: string;
    cron: string;
    zone: string;
    active: boolean;
    owner: UserRecord;
    hoursAgo: number;
    last: number | null;
  },
) {
  const id = nextId(seed.state, 'schedules');
  const cron = parseCron(spec.cron);
  const next = cron ? nextCronRun(cron, spec.zone, seed.now) : null;
  seed.state.schedules.set(id, {
    id,
    project_id: project.id,
    description: spec.description,
    ref: project.default_branch,
    cron: spec.cron,
    cron_timezone: spec.zone,
    run_due_at: (next ?? seed.now).toISOString(),
    active: spec.active,
    created_at: seed.iso(spec.hoursAgo),
    updated_at: seed.iso(spec.hoursAgo),
    owner_id: spec.owner.id,
    last_pipeline_id: spec.last,
  });
}

function deployment(
  seed: SeedBuilder,
  { project, envId, jobId, user }: { project: ProjectRecord; envId: number; jobId: number; user: UserRecord },
) {
  const job = seed.state.jobs.get(jobId);
  if (!job) return;
  const id = nextId(seed.state, 'deployments');
  seed.state.deployments.set(id, {
    id,
    iid: project.next_deployment_iid++,
    project_id: project.id,
    ref: job.ref,
    sha: job.sha,
    created_at: job.finished_at ?? job.created_at,
    user_id: user.id,
    environment_id: envId,
    deployable_id: job.id,
  });
}

function todo(
  seed: SeedBuilder,
  {
    user,
    author,
    project,
    action,
    target,
    hoursAgo,
    done = false,
    noteId,
  }: {
    user: UserRecord;
    author: UserRecord;
    project: ProjectRecord;
    action: 'assigned' | 'mentioned' | 'marked' | 'directly_addressed' | 'build_failed';
    target: { type: 'Issue' | 'MergeRequest'; id: number };
    hoursAgo: number;
    done?: boolean;
    noteId?: number;
  },
) {
  const id = nextId(seed.state, 'todos');
  seed.state.todos.set(id, {
    id,
    user_id: user.id,
    project_id: project.id,
    author_id: author.id,
    action_name: action,
    target_type: target.type,
    target_id: target.id,
    note_id: noteId ?? null,
    state: done ? 'done' : 'pending',
    created_at: seed.iso(hoursAgo),
  });
}

function snippet(
  seed: SeedBuilder,
  {
    project,
    author,
    title,
    fileName,
    content,
    hoursAgo,
  }: { project: ProjectRecord; author: UserRecord; title: string; fileName: string; content: string; hoursAgo: number },
): number {
  const id = nextId(seed.state, 'snippets');
  seed.state.snippets.set(id, {
    id,
    project_id: project.id,
    title,
    file_name: fileName,
    description: null,
    content,
    author_id: author.id,
    created_at: seed.iso(hoursAgo),
    updated_at: seed.iso(hoursAgo),
  });
  recordEvent(
    seed.state,
    { project_id: project.id, author_id: author.id, action: 'created', target_type: 'Snippet', target_id: id },
    seed.ago(hoursAgo),
  );
  return id;
}

function closeMergeRequest(seed: SeedBuilder, mr: MergeRequestRecord, by: UserRecord, hoursAgo: number) {
  mr.state = 'closed';
  mr.updated_at = seed.iso(hoursAgo);
  recordEvent(
    seed.state,
    { project_id: mr.project_id, author_id: by.id, action: 'closed', target_type: 'MergeRequest', target_id: mr.id },
    seed.ago(hoursAgo),
  );
}

export function buildDemoState(now: Date, o: { history?: boolean | HistorySize } = {}): State {
  const b = new SeedBuilder(now);
  const { alice, bob, eve } = seedUsers(b);
  b.runner('shared-runner-02');
  // ids that never equal iids, so a client mixing them up fails visibly
  b.state.seq.issues = 101;
  b.state.seq.mergeRequests = 201;
  b.state.seq.notes = 301;

  b.state.groups.set(1, {
    id: 1,
    name: 'Demo',
    path: 'demo',
    description: 'The demo shop team',
    visibility: 'public',
    members: [{ user_id: alice.id, access_level: OWNER }],
  });
  b.state.seq.groups = 2;

  // ------------------------------------------------------------ demo/web
  const web = project(b, {
    name: 'Web',
    path: 'web',
    description: 'Storefront web app of the demo shop: catalogue, cart and checkout.',
    visibility: 'public',
    members: [
      [alice, OWNER],
      [bob, DEVELOPER],
    ],
    labels: [
      'bug',
      'feature',
      'frontend',
      'backend',
      'performance',
      'security',
      'documentation',
      'ux',
      'good first issue',
    ],
    stages: ['build', 'test', 'deploy'],
    ciJobs: [
      ci('compile', 'build', { makes_artifacts: 'default_branch' }),
      ci('lint', 'test'),
      ci('unit-tests', 'test', { makes_artifacts: 'default_branch' }),
      ci('deploy:staging', 'deploy', { only: 'default_branch' }),
      ci('deploy:production', 'deploy', { only: 'default_branch', manual: true }),
      ci('release', 'deploy', { only: 'tags', manual: true, allow_failure: false }),
    ],
    creator: alice,
    hoursAgo: 32 * 24,
  });
  recordEvent(
    b.state,
    { project_id: web.id, author_id: alice.id, action: 'created', target_type: null, target_id: null },
    b.ago(32 * 24),
  );
  recordEvent(
    b.state,
    { project_id: web.id, author_id: bob.id, action: 'joined', target_type: null, target_id: null },
    b.ago(31 * 24),
  );

  const v13 = milestone(b, {
    project: web,
    iid: 1,
    title: 'v1.3',
    description: 'Checkout redesign and payment provider switch.',
    state: 'closed',
    startDays: -40,
    dueDays: -10,
  });
  const v14 = milestone(b, {
    project: web,
    iid: 2,
    title: 'v1.4',
    description: 'Search suggestions, cart fixes, security hardening.',
    state: 'active',
    startDays: -10,
    dueDays: 11,
  });
  const v15 = milestone(b, {
    project: web,
    iid: 3,
    title: 'v1.5',
    description: 'Order history, dark mode and a leaner bundle.',
    state: 'active',
    startDays: 11,
    dueDays: 32,
  });

  const c1 = b.commit(web, {
    branch: 'main',
    message: 'Initial storefront scaffold',
    author: alice,
    hoursAgo: 30 * 24,
  });
  push(b, { project: web, user: alice, ref: 'main', from: null, to: c1, count: 1, hoursAgo: 30 * 24 });
  b.commit(web, { branch: 'main', message: 'Add product catalogue with search', author: alice, hoursAgo: 25 * 24 });
  b.commit(web, { branch: 'main', message: 'Add cart and checkout flow', author: bob, hoursAgo: 20 * 24 });
  const c4 = b.commit(web, { branch: 'main', message: 'Add Stripe payment step', author: bob, hoursAgo: 12 * 24 });
  push(b, { project: web, user: bob, ref: 'main', from: c1, to: c4, count: 3, hoursAgo: 12 * 24 });
  const c5 = b.commit(web, { branch: 'main', message: 'Release v1.3.0', author: alice, hoursAgo: 10 * 24 });
  push(b, { project: web, user: alice, ref: 'main', from: c4, to: c5, count: 1, hoursAgo: 10 * 24 });

  // the merged merge request !1, merged a week ago
  const mr1 = b.mergeRequest(web, {
    title: 'Redesign checkout summary',
    description:
      'Moves the order summary into a sticky sidebar and shows shipping costs before the payment step.\n\nScreenshots in the thread.',
    author: bob,
    assignee: alice,
    hoursAgo: 9 * 24,
    source: 'feature/checkout-redesign',
    commits: [
      ['Redesign checkout summary', bob, 9 * 24],
      ['Polish checkout summary spacing', bob, 8 * 24],
    ],
    diffs: [
      diff('src/checkout/Summary.tsx', {
        before: ['<div className="summary">'],
        after: ['<aside className="summary summary--sticky">'],
      }),
      diff('src/checkout/summary.css', {
        before: ['.summary { margin: 0; }'],
        after: ['.summary--sticky { position: sticky; top: 1rem; }'],
      }),
    ],
    labels: ['feature', 'frontend', 'ux'],
    milestoneId: v13,
    removeSourceBranch: true,
  });
  push(b, {
    project: web,
    user: bob,
    ref: 'feature/checkout-redesign',
    from: null,
    to: mr1.sha,
    count: 2,
    hoursAgo: 8 * 24,
  });
  const merge1 = createCommit(b.state, {
    message: `Merge branch 'feature/checkout-redesign' into 'main'\n\nRedesign checkout summary\n\nSee merge request demo/web!1`,
    author: alice,
    parents: [web.branches.main as string, mr1.sha],
    at: b.ago(7 * 24),
  });
  web.branches.main = merge1.id;
  delete web.branches['feature/checkout-redesign'];
  mr1.state = 'merged';
  mr1.merge_commit_sha = merge1.id;
  mr1.updated_at = b.iso(7 * 24);
  b.note(web, {
    target: { type: 'MergeRequest', id: mr1.id },
    author: alice,
    body: 'LGTM, merging. Thanks for the screenshots!',
    hoursAgo: 7 * 24 + 0.2,
  });
  recordEvent(
    b.state,
    { project_id: web.id, author_id: alice.id, action: 'merged', target_type: 'MergeRequest', target_id: mr1.id },
    b.ago(7 * 24),
  );

  const c6 = b.commit(web, {
    branch: 'main',
    message: 'Lazy-load product images below the fold',
    author: bob,
    hoursAgo: 4 * 24,
  });
  push(b, { project: web, user: bob, ref: 'main', from: merge1.id, to: c6, count: 1, hoursAgo: 4 * 24 });

  // pipeline 1: main, everything green, production deployed
  const p1 = b.pipeline(web, {
    ref: 'main',
    sha: c6,
    user: bob,
    hoursAgo: 72,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'lint', status: 'success' },
      { name: 'unit-tests', status: 'success' },
      { name: 'deploy:staging', status: 'success' },
      { name: 'deploy:production', status: 'success' },
    ],
  });

  // the closed experiment !5 (created before, iid assigned in order below)
  const c7 = b.commit(web, {
    branch: 'main',
    message: 'Fix address form validation on Safari',
    author: bob,
    hoursAgo: 40,
  });
  push(b, { project: web, user: bob, ref: 'main', from: c6, to: c7, count: 1, hoursAgo: 40 });
  const c8 = b.commit(web, {
    branch: 'main',
    message: 'Show delivery estimate on product page',
    author: alice,
    hoursAgo: 27,
  });
  push(b, { project: web, user: alice, ref: 'main', from: c7, to: c8, count: 1, hoursAgo: 27 });

  // pipeline 2: the webpack upgrade branch, unit tests fail
  const mr4Branch = b.branch(web, {
    name: 'chore/webpack-5',
    from: 'main',
    commits: [
      ['Upgrade webpack to 5.90', alice, 55],
      ['Migrate file loaders to asset modules', alice, 52],
    ],
  });
  push(b, {
    project: web,
    user: alice,
    ref: 'chore/webpack-5',
    from: null,
    to: mr4Branch.shas.at(-1) as string,
    count: 2,
    hoursAgo: 52,
  });
  const p2 = b.pipeline(web, {
    ref: 'chore/webpack-5',
    sha: mr4Branch.shas.at(-1) as string,
    user: alice,
    hoursAgo: 50,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'lint', status: 'success' },
      { name: 'unit-tests', status: 'failed' },
    ],
  });
  const p2Tests = [...b.state.jobs.values()].find((j) => j.pipeline_id === p2.id && j.name === 'unit-tests');
  if (p2Tests) p2Tests.outcome = 'failed';

  // pipeline 3: main at the release commit, deployed to staging, production waits for a person
  const p3 = b.pipeline(web, {
    ref: 'main',
    sha: c8,
    user: alice,
    hoursAgo: 26,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'lint', status: 'success' },
      { name: 'unit-tests', status: 'success' },
      { name: 'deploy:staging', status: 'success' },
      { name: 'deploy:production', status: 'manual' },
    ],
  });

  // a tag on it, whose release job is a blocking manual action
  web.tags['v1.4.0-rc1'] = c8;
  push(b, { project: web, user: alice, ref: 'v1.4.0-rc1', from: null, to: c8, count: 1, hoursAgo: 20, refType: 'tag' });
  b.pipeline(web, {
    ref: 'v1.4.0-rc1',
    sha: c8,
    user: alice,
    hoursAgo: 20,
    tag: true,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'lint', status: 'success' },
      { name: 'unit-tests', status: 'success' },
      { name: 'release', status: 'manual' },
    ],
  });

  // pipeline with a broken .gitlab-ci.yml
  b.pipeline(web, {
    ref: 'main',
    sha: c7,
    user: bob,
    hoursAgo: 39,
    yamlErrors: 'jobs:unit-tests:script config should be a string or an array of strings',
    jobs: [],
  });

  // README badges: everything skipped (docs-only change)
  const docsBranch = b.branch(web, {
    name: 'docs/readme-badges',
    from: 'main',
    commits: [['Add pipeline and coverage badges to README', bob, 41]],
  });
  b.pipeline(web, {
    ref: 'docs/readme-badges',
    sha: docsBranch.shas[0] as string,
    user: bob,
    hoursAgo: 41,
    jobs: [
      { name: 'compile', status: 'skipped' },
      { name: 'lint', status: 'skipped' },
      { name: 'unit-tests', status: 'skipped' },
    ],
  });

  const envStaging = nextId(b.state, 'environments');
  b.state.environments.set(envStaging, {
    id: envStaging,
    project_id: web.id,
    name: 'staging',
    slug: 'staging',
    external_url: 'https://staging.web.demo.example',
  });
  const envProduction = nextId(b.state, 'environments');
  b.state.environments.set(envProduction, {
    id: envProduction,
    project_id: web.id,
    name: 'production',
    slug: 'production',
    external_url: 'https://web.demo.example',
  });
  const jobOf = (pipelineId: number, name: string) =>
    [...b.state.jobs.values()].find((j) => j.pipeline_id === pipelineId && j.name === name)?.id ?? 0;
  deployment(b, { project: web, envId: envStaging, jobId: jobOf(p1.id, 'deploy:staging'), user: bob });
  deployment(b, { project: web, envId: envProduction, jobId: jobOf(p1.id, 'deploy:production'), user: alice });
  deployment(b, { project: web, envId: envStaging, jobId: jobOf(p3.id, 'deploy:staging'), user: alice });

  // ------------------------------------------------------------ issues of demo/web
  type IssueSpec = Parameters<SeedBuilder['issue']>[1];
  const issueSpecs: IssueSpec[] = [
    {
      title: 'Product images load slowly on 3G',
      description:
        'On a throttled 3G profile the catalogue page needs 9 s before the first product image shows. Lighthouse flags 2.1 MB of offscreen images.',
      author: alice,
      hoursAgo: 28 * 24,
      labels: ['performance', 'frontend'],
      milestoneId: v13,
      assignees: [bob],
      closedHoursAgo: 4 * 24,
      closedBy: bob,
    },
    {
      title: 'Search should suggest products while typing',
      description:
        'Customers type a few letters and expect suggestions, like every other shop. Show up to 8 product names with thumbnails under the search box.',
      author: alice,
      hoursAgo: 21 * 24,
      labels: ['feature', 'frontend'],
      milestoneId: v14,
      assignees: [bob],
    },
    {
      title: 'Checkout button is hidden behind the cookie banner on mobile',
      description:
        'iPhone 13, Safari: the banner covers the "Pay now" button until it is dismissed, and it is easy to miss.',
      author: eve,
      hoursAgo: 18 * 24,
      labels: ['bug', 'frontend', 'ux'],
      milestoneId: v13,
      assignees: [bob],
      closedHoursAgo: 9 * 24,
      closedBy: bob,
    },
    {
      title: 'Cart total is off by one cent for some EUR prices',
      description:
        'Three mugs at €19.99 give a cart total of €59.96; the payment provider charges €59.97 and the order is flagged for review.\n\nSteps: add MUG-01 three times, go to checkout, compare totals.',
      author: bob,
      hoursAgo: 6 * 24,
      labels: ['bug', 'backend'],
      milestoneId: v14,
      assignees: [alice],
      dueInDays: 3,
      estimate: 12_600,
      spent: 3_600,
    },
    {
      title: 'Add order history page',
      description: 'Signed-in customers want to see past orders with status, tracking link and invoice download.',
      author: bob,
      hoursAgo: 14 * 24,
      labels: ['feature'],
      milestoneId: v15,
      assignees: [alice],
    },
    {
      title: 'Dark mode',
      description: 'Please add a dark theme that follows the system setting.',
      author: eve,
      hoursAgo: 11 * 24,
      labels: ['feature', 'ux'],
      milestoneId: v15,
    },
    {
      title: 'Session tokens appear in the access log',
      description:
        'The `?token=` query parameter of the password reset link ends up in the nginx access log. Anyone with log access can reset passwords.',
      author: bob,
      hoursAgo: 3 * 24,
      labels: ['security', 'backend'],
      milestoneId: v14,
      assignees: [alice],
      confidential: true,
      dueInDays: 1,
    },
    {
      title: 'Address form rejects valid UK postcodes',
      description: '"SW1A 1AA" is rejected as invalid; the regex does not allow the space.',
      author: alice,
      hoursAgo: 5 * 24,
      labels: ['bug', 'frontend'],
      milestoneId: v14,
      assignees: [bob],
      closedHoursAgo: 40,
      closedBy: bob,
    },
    {
      title: 'Document the release process',
      description: 'Write down how we cut a release: tag, changelog, staging check, production deploy.',
      author: alice,
      hoursAgo: 16 * 24,
      labels: ['documentation'],
      userAgent: false,
    },
    {
      title: 'Upgrade to webpack 5',
      description: 'webpack 4 is end of life and blocks the Node 20 upgrade.',
      author: alice,
      hoursAgo: 9 * 24,
      labels: ['performance'],
      milestoneId: v15,
      assignees: [alice],
    },
    {
      title: 'Product page shows wrong stock for variants',
      description: 'The stock badge shows the stock of the first variant, whatever size is selected.',
      author: alice,
      hoursAgo: 4 * 24,
      labels: ['bug', 'backend'],
      milestoneId: v14,
      assignees: [bob],
    },
    {
      title: 'Add German translation',
      description:
        'About 30% of our visitors use a German browser locale. Strings are already extracted to `locales/en.json`.',
      author: alice,
      hoursAgo: 7 * 24,
      labels: ['feature', 'good first issue'],
      milestoneId: v15,
      assignees: [bob],
    },
    {
      title: 'Flaky test: checkout payment timeout',
      description: '`payment.test.ts > times out after 30 s` fails about once a day on main.',
      author: bob,
      hoursAgo: 2 * 24,
      labels: ['bug'],
    },
    {
      title: 'Footer links point to the old blog',
      description: 'blog.demo.example moved to demo.example/blog.',
      author: eve,
      hoursAgo: 15 * 24,
      labels: ['bug', 'good first issue'],
      closedHoursAgo: 12 * 24,
      closedBy: alice,
    },
    {
      title: 'Show delivery estimate on product page',
      description: 'Show "Delivered by Thursday" based on the warehouse cut-off time.',
      author: bob,
      hoursAgo: 8 * 24,
      labels: ['feature', 'frontend'],
      milestoneId: v14,
      assignees: [alice],
      closedHoursAgo: 26,
      closedBy: alice,
    },
    {
      title: 'Reduce bundle size below 200 kB',
      description: 'The main bundle is 237 kB gzipped. Candidates: moment.js, lodash, the carousel.',
      author: alice,
      hoursAgo: 10 * 24,
      labels: ['performance', 'frontend'],
      milestoneId: v15,
    },
    {
      title: 'Wishlist: save products for later',
      description: 'A heart icon on product cards that saves the product to a wishlist.',
      author: eve,
      hoursAgo: 6 * 24,
      labels: ['feature'],
    },
    {
      title: 'Newsletter sign-up returns 500 for plus-addressed emails',
      description: '`jane+shop@example.com` gives a 500; the validator URL-decodes the plus to a space.',
      author: alice,
      hoursAgo: 30,
      labels: ['bug', 'backend'],
      milestoneId: v14,
      assignees: [bob],
    },
    {
      title: 'Keyboard focus is lost after closing the size guide',
      description: 'After closing the size guide dialog with Escape, focus jumps to the top of the page.',
      author: eve,
      hoursAgo: 20,
      labels: ['bug', 'ux', 'frontend'],
      milestoneId: v14,
    },
    {
      title: 'Add sitemap.xml for product pages',
      description: 'Search engines only index the first 200 products.',
      author: alice,
      hoursAgo: 3 * 24,
      labels: ['feature', 'backend'],
      milestoneId: v15,
      assignees: [alice],
    },
    {
      title: 'Prices flash before currency is detected',
      description: 'Prices render in USD for a moment before switching to EUR.',
      author: bob,
      hoursAgo: 13 * 24,
      labels: ['bug', 'frontend'],
      milestoneId: v13,
      assignees: [bob],
      closedHoursAgo: 5 * 24,
      closedBy: bob,
    },
    {
      title: 'Track checkout funnel drop-off',
      description: 'We need to know at which checkout step customers leave.',
      author: alice,
      hoursAgo: 2 * 24,
      labels: ['feature'],
      milestoneId: v15,
    },
    {
      title: 'Rate-limit the coupon endpoint',
      description: '`POST /api/coupons/check` can be brute-forced; 10 attempts per minute per session is plenty.',
      author: alice,
      hoursAgo: 24,
      labels: ['security', 'backend'],
      milestoneId: v14,
      assignees: [bob],
    },
    {
      title: 'README: explain local HTTPS setup',
      description: 'The payment iframe needs HTTPS locally; document mkcert.',
      author: bob,
      hoursAgo: 22,
      labels: ['documentation', 'good first issue'],
    },
    {
      title: 'Image carousel swipes twice on Android',
      description: 'Pixel 7, Chrome: one swipe moves two images.',
      author: eve,
      hoursAgo: 15,
      labels: ['bug', 'frontend'],
      milestoneId: v14,
    },
    {
      title: 'Remove legacy jQuery plugins',
      description: 'Only the date picker still uses jQuery.',
      author: alice,
      hoursAgo: 12 * 24,
      labels: ['performance'],
      milestoneId: v15,
      assignees: [alice],
      closedHoursAgo: 3 * 24,
      closedBy: alice,
    },
    {
      title: 'Accessibility audit: colour contrast on sale badges',
      description: 'White on #ff6b6b is 2.8:1; WCAG AA needs 4.5:1.',
      author: alice,
      hoursAgo: 9,
      labels: ['ux'],
      milestoneId: v14,
      assignees: [alice, bob],
    },
    {
      title: 'Search results ignore accents (café vs cafe)',
      description: 'Searching "cafe" does not find "Café au lait mug".',
      author: bob,
      hoursAgo: 7,
      labels: ['bug', 'backend'],
      milestoneId: v14,
    },
    {
      title: 'Add Apple Pay to checkout',
      description: 'Would love to pay with Apple Pay on my phone.',
      author: eve,
      hoursAgo: 5,
      labels: ['feature'],
    },
    {
      title: 'Order confirmation e-mail has broken logo',
      description: 'The logo is linked from staging, which needs a login.',
      author: alice,
      hoursAgo: 3,
      labels: ['bug'],
      milestoneId: v14,
      assignees: [bob],
      dueInDays: 1,
    },
    {
      title: 'Cache product API responses at the edge',
      description: 'Product JSON is identical for everyone; cache it for 60 s at the CDN.',
      author: bob,
      hoursAgo: 2,
      labels: ['performance', 'backend'],
      milestoneId: v15,
    },
  ];
  const issues = issueSpecs.map((spec) => b.issue(web, spec));
  const issue = (iid: number) => issues[iid - 1] as (typeof issues)[number];

  // ------------------------------------------------------------ merge requests of demo/web
  const mr2 = b.mergeRequest(web, {
    title: 'Add search suggestions dropdown',
    description:
      'Shows up to 8 product suggestions under the search box while typing, debounced by 150 ms.\n\nCloses #2',
    author: bob,
    assignee: alice,
    hoursAgo: 6,
    source: 'feature/search-suggestions',
    commits: [
      ['Add search suggestions API client', bob, 6],
      ['Show suggestions dropdown under the search box', bob, 1.5],
    ],
    diffs: [
      diff('src/search/suggest.ts', {
        before: [],
        after: [
          'export async function suggest(q: string) {',
          "  const res = await fetch('/api/suggest?q=' + encodeURIComponent(q));",
          '  return (await res.json()).slice(0, 8);',
          '}',
        ],
        newFile: true,
      }),
      diff('src/search/SearchBox.tsx', {
        before: ['<input type="search" />'],
        after: ['<input type="search" onInput={onInput} />', '<Suggestions items={items} />'],
      }),
    ],
    labels: ['feature', 'frontend'],
    milestoneId: v14,
    removeSourceBranch: true,
  });
  push(b, {
    project: web,
    user: bob,
    ref: 'feature/search-suggestions',
    from: null,
    to: mr2.sha,
    count: 2,
    hoursAgo: 1.5,
  });
  const p4 = b.pipeline(web, {
    ref: 'feature/search-suggestions',
    sha: mr2.sha,
    user: bob,
    hoursAgo: 1,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'lint', status: 'running' },
      { name: 'unit-tests', status: 'pending' },
    ],
  });
  mr2.head_pipeline_id = p4.id;
  b.note(web, {
    target: { type: 'MergeRequest', id: mr2.id },
    author: alice,
    body: 'Looks great on mobile too. Setting it to merge when the pipeline succeeds.',
    hoursAgo: 0.8,
  });
  mr2.merge_when_pipeline_succeeds = true;
  mr2.merge_user_id = alice.id;

  const mr3 = b.mergeRequest(web, {
    title: 'Fix currency rounding in cart totals',
    description:
      'Rounds each line to cents before summing, so EUR totals match what the payment provider charges.\n\nCloses #4',
    author: bob,
    assignee: alice,
    hoursAgo: 8,
    source: 'fix/currency-rounding',
    commits: [
      ['Round each cart line before summing', bob, 8],
      ['Add regression test for EUR rounding', bob, 6],
    ],
    diffs: [
      diff('src/cart/totals.ts', {
        before: ['  const grand = lines.reduce((sum, l) => sum + l.price * l.qty, 0);'],
        after: ['  const grand = lines.reduce((sum, l) => sum + roundCents(l.price * l.qty), 0);'],
      }),
      diff('src/cart/totals.test.ts', {
        before: [],
        after: [
          "  it('rounds each line before summing', () => {",
          '    expect(totals([{ price: 19.99, qty: 3 }]).grand).toBe(59.97);',
          '  });',
        ],
      }),
    ],
    labels: ['bug', 'backend'],
    milestoneId: v14,
  });
  push(b, { project: web, user: bob, ref: 'fix/currency-rounding', from: null, to: mr3.sha, count: 2, hoursAgo: 6 });
  mr3.head_pipeline_id = b.pipeline(web, {
    ref: 'fix/currency-rounding',
    sha: mr3.sha,
    user: bob,
    hoursAgo: 5.5,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'lint', status: 'success' },
      { name: 'unit-tests', status: 'success' },
    ],
  }).id;

  const mr4 = b.mergeRequest(web, {
    title: 'Upgrade to webpack 5',
    description: 'Upgrades webpack to 5.90 and replaces file-loader/url-loader with asset modules.\n\nRelated to #10.',
    author: alice,
    assignee: bob,
    hoursAgo: 51,
    source: 'chore/webpack-5',
    commits: mr4Branch,
    diffs: [
      diff('package.json', {
        before: ['    "webpack": "^4.47.0",', '    "file-loader": "^6.2.0",'],
        after: ['    "webpack": "^5.90.3",'],
      }),
      diff('webpack.config.js', {
        before: ["      { test: /\\.png$/, use: 'file-loader' },"],
        after: ["      { test: /\\.png$/, type: 'asset/resource' },"],
      }),
    ],
    labels: ['performance'],
    milestoneId: v15,
    mergeStatus: 'cannot_be_merged',
  });
  mr4.head_pipeline_id = p2.id;
  const mr4Note = b.note(web, {
    target: { type: 'MergeRequest', id: mr4.id },
    author: bob,
    body: 'This conflicts with the babel config on main; needs a rebase before we can merge.',
    hoursAgo: 30,
  });

  const mr5 = b.mergeRequest(web, {
    title: 'Experiment: server-side rendering',
    description: 'Trying vite-ssr for the catalogue pages to improve first paint.',
    author: alice,
    hoursAgo: 15 * 24,
    source: 'experiment/ssr',
    commits: [['Try server-side rendering with vite-ssr', alice, 15 * 24]],
    diffs: [
      diff('src/entry-server.tsx', {
        before: [],
        after: ["import { renderToString } from 'react-dom/server';"],
        newFile: true,
      }),
    ],
    labels: ['performance'],
  });
  closeMergeRequest(b, mr5, alice, 11 * 24);
  b.note(web, {
    target: { type: 'MergeRequest', id: mr5.id },
    author: alice,
    body: 'Closing: hydration mismatches everywhere, and the gain was 120 ms. Revisit after the webpack upgrade.',
    hoursAgo: 11 * 24,
  });

  const mr6 = b.mergeRequest(web, {
    title: 'WIP: Dark mode theme',
    description: 'First pass at dark mode with CSS custom properties. Follows `prefers-color-scheme`.\n\nPart of #6.',
    author: alice,
    hoursAgo: 12,
    source: 'feature/dark-mode',
    commits: [
      ['Add theme tokens for dark mode', alice, 12],
      ['Darken code blocks and form inputs', alice, 0.6],
    ],
    diffs: [
      diff('src/styles/theme.css', {
        before: [':root { --bg: #fff; --fg: #222; }'],
        after: [
          ':root { --bg: #fff; --fg: #222; }',
          '@media (prefers-color-scheme: dark) { :root { --bg: #121212; --fg: #eee; } }',
        ],
      }),
    ],
    labels: ['feature', 'ux'],
    milestoneId: v15,
  });
  push(b, { project: web, user: alice, ref: 'feature/dark-mode', from: null, to: mr6.sha, count: 2, hoursAgo: 0.6 });
  mr6.head_pipeline_id = b.pipeline(web, {
    ref: 'feature/dark-mode',
    sha: mr6.sha,
    user: alice,
    hoursAgo: 0.5,
    jobs: [
      { name: 'compile', status: 'pending' },
      { name: 'lint', status: 'created' },
      { name: 'unit-tests', status: 'created' },
    ],
  }).id;

  const mr7 = b.mergeRequest(web, {
    title: 'Add order history page',
    description: 'Lists past orders with status, tracking link and invoice download, 10 per page.\n\nCloses #5',
    author: alice,
    assignee: bob,
    hoursAgo: 33,
    source: 'feature/order-history',
    commits: [
      ['Add order history page', alice, 33],
      ['Paginate order history', alice, 31],
    ],
    diffs: [
      diff('src/account/OrderHistory.tsx', {
        before: [],
        after: [
          'export function OrderHistory() {',
          '  const { orders } = useOrders({ perPage: 10 });',
          '  return <OrderTable orders={orders} />;',
          '}',
        ],
        newFile: true,
      }),
      diff('src/routes.tsx', {
        before: ["  { path: '/account', element: <Account /> },"],
        after: [
          "  { path: '/account', element: <Account /> },",
          "  { path: '/account/orders', element: <OrderHistory /> },",
        ],
      }),
    ],
    labels: ['feature'],
    milestoneId: v15,
  });
  push(b, { project: web, user: alice, ref: 'feature/order-history', from: null, to: mr7.sha, count: 2, hoursAgo: 31 });
  mr7.head_pipeline_id = b.pipeline(web, {
    ref: 'feature/order-history',
    sha: mr7.sha,
    user: alice,
    hoursAgo: 30,
    jobs: [
      { name: 'compile', status: 'canceled' },
      { name: 'lint', status: 'skipped' },
      { name: 'unit-tests', status: 'skipped' },
    ],
  }).id;

  // a branch whose pipeline has not started yet
  const i18n = b.branch(web, {
    name: 'feature/i18n-de',
    from: 'main',
    commits: [['Add German translations', bob, 0.2]],
  });
  push(b, {
    project: web,
    user: bob,
    ref: 'feature/i18n-de',
    from: null,
    to: i18n.shas[0] as string,
    count: 1,
    hoursAgo: 0.2,
  });
  b.pipeline(web, {
    ref: 'feature/i18n-de',
    sha: i18n.shas[0] as string,
    user: bob,
    hoursAgo: 0.1,
    jobs: [
      { name: 'compile', status: 'created' },
      { name: 'lint', status: 'created' },
      { name: 'unit-tests', status: 'created' },
    ],
  });

  // ------------------------------------------------------------ schedules
  schedule(b, web, {
    description: 'Nightly build and test',
    cron: '0 2 * * *',
    zone: 'UTC',
    active: true,
    owner: bob,
    hoursAgo: 20 * 24,
    last: p1.id,
  });
  schedule(b, web, {
    description: 'Weekly dependency audit',
    cron: '30 6 * * 1',
    zone: 'Europe/Berlin',
    active: false,
    owner: bob,
    hoursAgo: 18 * 24,
    last: null,
  });
  schedule(b, web, {
    description: 'Visual regression snapshots',
    cron: '0 */4 * * 1-5',
    zone: 'America/New_York',
    active: true,
    owner: alice,
    hoursAgo: 6 * 24,
    last: null,
  });

  // ------------------------------------------------------------ notes, snippets, awards
  const n4a = b.note(web, {
    target: { type: 'Issue', id: issue(4).id },
    author: bob,
    body: 'Reproduced with three mugs at €19.99: we show €59.96, the payment provider charges €59.97.',
    hoursAgo: 5 * 24,
  });
  const n4b = b.note(web, {
    target: { type: 'Issue', id: issue(4).id },
    author: alice,
    body: "@bob I'll take this one: it's the per-line rounding in `computeTotals`.",
    hoursAgo: 4 * 24,
  });
  b.note(web, { target: { type: 'Issue', id: issue(4).id }, author: bob, body: 'Fix is up in !3.', hoursAgo: 7 });
  b.note(web, {
    target: { type: 'Issue', id: issue(2).id },
    author: alice,
    body: "Design is in Figma; let's cap the dropdown at 8 suggestions.",
    hoursAgo: 10 * 24,
  });
  b.note(web, {
    target: { type: 'Issue', id: issue(7).id },
    author: alice,
    body: 'Confirmed: nginx logs the full query string. Patching the log format and rotating the affected tokens.',
    hoursAgo: 2 * 24,
  });
  b.note(web, {
    target: { type: 'Issue', id: issue(13).id },
    author: alice,
    body: 'Seen it twice on main this week. The payment sandbox is slow in the mornings.',
    hoursAgo: 24,
  });
  const n3 = b.note(web, {
    target: { type: 'MergeRequest', id: mr3.id },
    author: bob,
    body: '@alice ready for review: the regression test covers the mug case from #4.',
    hoursAgo: 5.5,
  });

  const s1 = snippet(b, {
    project: web,
    author: alice,
    title: 'nginx cache headers for static assets',
    fileName: 'nginx-cache.conf',
    content: 'location /assets/ {\n  expires 1y;\n  add_header Cache-Control "public";\n}\n',
    hoursAgo: 9 * 24,
  });
  const s2 = snippet(b, {
    project: web,
    author: bob,
    title: 'Reproduce the EUR rounding bug',
    fileName: 'rounding.js',
    content:
      'const line = 19.99 * 3;\nconsole.log(line, Math.round(line * 100) / 100); // 59.97\nconsole.log([19.99, 19.99, 19.99].reduce((a, b) => a + b)); // 59.97000000000001\n',
    hoursAgo: 5 * 24 + 2,
  });
  snippet(b, {
    project: web,
    author: alice,
    title: 'Local .env template',
    fileName: '.env.example',
    content: 'API_URL=http://localhost:8080\nSTRIPE_PUBLIC_KEY=pk_test_xxx\n',
    hoursAgo: 20 * 24,
  });
  const sn1 = b.note(web, {
    target: { type: 'Snippet', id: s1 },
    author: bob,
    body: 'We should add `immutable` for the hashed assets.',
    hoursAgo: 8 * 24,
  });
  const sn2 = b.note(web, {
    target: { type: 'Snippet', id: s2 },
    author: alice,
    body: 'Nice repro, thanks!',
    hoursAgo: 5 * 24,
  });

  b.award({ type: 'Issue', id: issue(4).id, user: bob, name: 'thumbsup', hoursAgo: 5 * 24 });
  b.award({ type: 'Issue', id: issue(4).id, user: eve, name: 'thumbsup', hoursAgo: 4 * 24 });
  b.award({ type: 'Issue', id: issue(2).id, user: alice, name: 'thumbsup', hoursAgo: 20 * 24 });
  b.award({ type: 'Issue', id: issue(2).id, user: eve, name: 'heart', hoursAgo: 19 * 24 });
  b.award({ type: 'Issue', id: issue(6).id, user: eve, name: 'thumbsup', hoursAgo: 10 * 24 });
  b.award({ type: 'Issue', id: issue(6).id, user: bob, name: 'thumbsdown', hoursAgo: 9 * 24 });
  b.award({ type: 'MergeRequest', id: mr2.id, user: alice, name: 'thumbsup', hoursAgo: 0.8 });
  b.award({ type: 'MergeRequest', id: mr2.id, user: alice, name: 'tada', hoursAgo: 0.8 });
  b.award({ type: 'MergeRequest', id: mr3.id, user: alice, name: 'eyes', hoursAgo: 5 });
  b.award({ type: 'Snippet', id: s1, user: bob, name: 'star', hoursAgo: 8 * 24 });
  b.award({ type: 'Snippet', id: s2, user: alice, name: 'thumbsup', hoursAgo: 5 * 24 });
  b.award({ type: 'Note', id: n4a, user: alice, name: 'thumbsup', hoursAgo: 5 * 24 });
  b.award({ type: 'Note', id: n4b, user: bob, name: 'thumbsup', hoursAgo: 4 * 24 });
  b.award({ type: 'Note', id: mr4Note, user: alice, name: 'thumbsup', hoursAgo: 29 });
  b.award({ type: 'Note', id: sn1, user: alice, name: 'bulb', hoursAgo: 8 * 24 });
  b.award({ type: 'Note', id: sn2, user: bob, name: 'heart', hoursAgo: 5 * 24 });

  // ------------------------------------------------------------ todos
  todo(b, {
    user: alice,
    author: bob,
    project: web,
    action: 'assigned',
    target: { type: 'Issue', id: issue(4).id },
    hoursAgo: 6 * 24,
  });
  todo(b, {
    user: alice,
    author: bob,
    project: web,
    action: 'mentioned',
    target: { type: 'MergeRequest', id: mr3.id },
    hoursAgo: 5.5,
    noteId: n3,
  });
  todo(b, {
    user: alice,
    author: bob,
    project: web,
    action: 'assigned',
    target: { type: 'MergeRequest', id: mr2.id },
    hoursAgo: 6,
  });
  todo(b, {
    user: alice,
    author: alice,
    project: web,
    action: 'marked',
    target: { type: 'MergeRequest', id: mr4.id },
    hoursAgo: 29,
  });
  todo(b, {
    user: alice,
    author: bob,
    project: web,
    action: 'directly_addressed',
    target: { type: 'Issue', id: issue(7).id },
    hoursAgo: 3 * 24,
  });
  todo(b, {
    user: alice,
    author: bob,
    project: web,
    action: 'assigned',
    target: { type: 'Issue', id: issue(15).id },
    hoursAgo: 8 * 24,
    done: true,
  });
  todo(b, {
    user: bob,
    author: alice,
    project: web,
    action: 'assigned',
    target: { type: 'Issue', id: issue(11).id },
    hoursAgo: 4 * 24,
  });
  todo(b, {
    user: bob,
    author: alice,
    project: web,
    action: 'mentioned',
    target: { type: 'Issue', id: issue(4).id },
    hoursAgo: 4 * 24,
    noteId: n4b,
  });
  todo(b, {
    user: bob,
    author: alice,
    project: web,
    action: 'assigned',
    target: { type: 'MergeRequest', id: mr4.id },
    hoursAgo: 51,
  });

  // ------------------------------------------------------------ demo/secret (private)
  const secret = project(b, {
    name: 'Secret',
    path: 'secret',
    description: 'Payment provider credentials rotation and security audits. Private.',
    visibility: 'private',
    members: [[alice, OWNER]],
    labels: ['security', 'compliance'],
    stages: ['build', 'test'],
    ciJobs: [ci('compile', 'build'), ci('unit-tests', 'test')],
    creator: alice,
    hoursAgo: 25 * 24,
  });
  const q3 = milestone(b, {
    project: secret,
    iid: 1,
    title: 'Q3 audit',
    description: 'External security audit follow-ups.',
    state: 'active',
    startDays: -20,
    dueDays: 40,
  });
  const sc1 = b.commit(secret, {
    branch: 'main',
    message: 'Add key rotation script',
    author: alice,
    hoursAgo: 24 * 24,
  });
  push(b, { project: secret, user: alice, ref: 'main', from: null, to: sc1, count: 1, hoursAgo: 24 * 24 });
  b.pipeline(secret, {
    ref: 'main',
    sha: sc1,
    user: alice,
    hoursAgo: 24 * 24 - 0.1,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'unit-tests', status: 'success' },
    ],
  });
  const sc2 = b.commit(secret, {
    branch: 'main',
    message: 'Rotate payment provider webhook secret',
    author: alice,
    hoursAgo: 2 * 24,
  });
  push(b, { project: secret, user: alice, ref: 'main', from: sc1, to: sc2, count: 1, hoursAgo: 2 * 24 });
  const sp2 = b.pipeline(secret, {
    ref: 'main',
    sha: sc2,
    user: alice,
    hoursAgo: 2 * 24 - 0.1,
    jobs: [
      { name: 'compile', status: 'success' },
      { name: 'unit-tests', status: 'failed' },
    ],
  });
  for (const j of b.state.jobs.values()) if (j.pipeline_id === sp2.id && j.name === 'unit-tests') j.outcome = 'failed';
  b.issue(secret, {
    title: 'Rotate the payment provider API keys',
    description: 'Keys are 14 months old; policy says 12.',
    author: alice,
    hoursAgo: 10 * 24,
    labels: ['security'],
    milestoneId: q3,
    assignees: [alice],
  });
  b.issue(secret, {
    title: 'Penetration test findings: admin panel',
    description: 'Two medium findings: missing rate limit on login, verbose error pages.',
    author: alice,
    hoursAgo: 6 * 24,
    labels: ['security', 'compliance'],
    milestoneId: q3,
  });
  b.issue(secret, {
    title: 'Enable MFA for all staff accounts',
    description: 'Everyone with admin panel access needs MFA.',
    author: alice,
    hoursAgo: 20 * 24,
    labels: ['compliance'],
    closedHoursAgo: 14 * 24,
  });
  snippet(b, {
    project: secret,
    author: alice,
    title: 'Key rotation checklist',
    fileName: 'rotation.md',
    content: '1. Create the new key\n2. Deploy it to staging\n3. Switch production\n4. Revoke the old key\n',
    hoursAgo: 9 * 24,
  });
  schedule(b, secret, {
    description: 'Monthly key rotation reminder',
    cron: '0 9 1 * *',
    zone: 'Europe/Berlin',
    active: true,
    owner: alice,
    hoursAgo: 20 * 24,
    last: null,
  });

  // ------------------------------------------------------------ demo/docs
  const docs = project(b, {
    name: 'Docs',
    path: 'docs',
    description: 'Developer and customer documentation of the demo shop.',
    visibility: 'public',
    members: [
      [alice, OWNER],
      [bob, DEVELOPER],
    ],
    labels: ['bug', 'documentation', 'feature', 'good first issue'],
    stages: ['test', 'deploy'],
    ciJobs: [ci('linkcheck', 'test'), ci('pages', 'deploy', { only: 'default_branch', makes_artifacts: 'always' })],
    creator: alice,
    hoursAgo: 22 * 24,
  });
  milestone(b, {
    project: docs,
    iid: 1,
    title: 'v1.4',
    description: 'Docs for the 1.4 release.',
    state: 'active',
    startDays: -10,
    dueDays: 11,
  });
  const dc1 = b.commit(docs, {
    branch: 'main',
    message: 'Add getting started guide',
    author: alice,
    hoursAgo: 21 * 24,
  });
  push(b, { project: docs, user: alice, ref: 'main', from: null, to: dc1, count: 1, hoursAgo: 21 * 24 });
  b.issue(docs, {
    title: 'Getting started guide is missing the Node version',
    description: 'It should say Node 20 or newer.',
    author: bob,
    hoursAgo: 5 * 24,
    labels: ['documentation', 'good first issue'],
  });
  b.issue(docs, {
    title: 'Screenshots are from the old checkout design',
    description: 'The checkout redesign shipped in v1.3.',
    author: alice,
    hoursAgo: 4 * 24,
    labels: ['documentation'],
  });
  b.issue(docs, {
    title: 'Broken link to the API reference',
    description: 'Points to /api/v1 which is gone.',
    author: eve,
    hoursAgo: 12 * 24,
    labels: ['bug'],
    closedHoursAgo: 10 * 24,
    closedBy: alice,
  });
  b.issue(docs, {
    title: 'Add a troubleshooting page',
    description: 'Collect the top 10 support questions.',
    author: alice,
    hoursAgo: 2 * 24,
    labels: ['documentation', 'feature'],
  });
  snippet(b, {
    project: docs,
    author: bob,
    title: 'Docs preview script',
    fileName: 'preview.sh',
    content: '#!/bin/sh\nnpx vitepress dev docs --port 5174\n',
    hoursAgo: 3 * 24,
  });

  // ------------------------------------------------------------ SSH keys
  b.state.keys.set(1, {
    id: 1,
    title: 'alice@work-laptop',
    key: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${Buffer.from(fakeSha('alice key')).toString('base64').slice(0, 43)} alice@work-laptop`,
    created_at: b.iso(29 * 24),
    user_id: alice.id,
    can_push: false,
  });
  b.state.keys.set(2, {
    id: 2,
    title: 'bob@desktop',
    key: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${Buffer.from(fakeSha('bob key')).toString('base64').slice(0, 43)} bob@desktop`,
    created_at: b.iso(28 * 24),
    user_id: bob.id,
    can_push: false,
  });
  b.state.seq.keys = 3;
  // Last, so every id above stays what it was.
  if (o.history) {
    const environments = { staging: envStaging, production: envProduction };
    const size = o.history === true ? null : o.history;
    seedDeliveryHistory(b, {
      project: web,
      people: [alice, bob],
      environments,
      ...(size
        ? {
            fromDays: 30,
            toDays: 0.1,
            runs: size.pipelines,
            // A deploying run makes about 1.5 deployments: one to staging, every other one to production.
            deployEvery: Math.max(1, Math.round((size.pipelines * 1.5) / Math.max(1, size.deployments))),
          }
        : { fromDays: 31, toDays: 4 }),
    });
  }
  return b.state;
}
