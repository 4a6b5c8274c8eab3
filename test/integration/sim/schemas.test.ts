import { describe, expect, it } from 'vitest';
import { loadSchemas } from './schemas.js';
import { type Loose, useSimulator, WEB } from './support.js';

const s = useSimulator();
const schemas = loadSchemas();

/** The schemas that describe a resource the simulator serves, with what each is checked against. */
const APPLIES: Record<string, string> = {
  'v9.5.5/public_api/v4/issues.json':
    'issue lists (filtered to issues with a milestone: 9.5 types `milestone` as a non-null object)',
  'v9.5.5/public_api/v4/merge_requests.json':
    'merge request lists and closed_by (filtered to MRs with an assignee: 9.5 types `assignee` as a non-null object)',
  'v9.5.5/pipeline_schedule.json': 'single schedule: get, create, edit, take_ownership, delete',
  'v9.5.5/pipeline_schedules.json': 'schedule list',
  'v9.5.5/public_api/v4/commits.json': 'merge request commits and a diff version’s commits',
  'v9.5.5/public_api/v4/commit/basic.json': 'every commit, including job.commit',
  'v9.5.5/public_api/v4/user/basic.json': 'every user object and GET /users',
  'v10.1.7/public_api/v4/pipeline/basic.json': 'pipeline list items, job.pipeline, schedule last_pipeline',
  'v10.5.8/public_api/v4/pipeline/basic.json': 'same as v10.1.7',
  'v10.5.8/public_api/v4/pipelines.json': 'pipeline list',
  'v10.5.8/public_api/v4/issue.json':
    'every issue: list items, single, created, edited, moved, closes_issues, todo targets (its extra fields are optional)',
  'v10.5.8/public_api/v4/milestones.json': 'milestones of issues and merge requests, as a list',
  'v11.7.11/public_api/v4/milestone.json': 'each milestone (web_url is optional there)',
  'v11.10.0/public_api/v4/merge_request.json':
    'single merge requests (weak: its fields are nested under properties.properties upstream)',
  'v11.10.0/public_api/v4/merge_requests.json': 'merge request lists (as weak as merge_request.json)',
  'v11.10.0/public_api/v4/user/basic.json': 'every user object',
  'ce-master-724f19ba/public_api/v4/user/basic.json': 'every user object',
  'ce-master-724f19ba/public_api/v4/commit/basic.json': 'job.commit',
  'ce-master-724f19ba/public_api/v4/artifact_file.json': 'job.artifacts_file',
  'ce-master-724f19ba/types/nullable_string.json': 'deployment environment external_url',
};

/** The schemas that do not describe what a 9.5 server sends, and why. */
const DOES_NOT_APPLY: Record<string, string> = {
  'ce-master-724f19ba/public_api/v4/job.json':
    'later Job entity: requires duration, web_url, artifacts, artifacts_expire_at (not in 9.5) and forbids other fields',
  'ce-master-724f19ba/public_api/v4/runner.json':
    'later Runner entity: requires ip_address, online, status (not in 9.5)',
  'ce-master-724f19ba/public_api/v4/deployment.json':
    'lists no `environment` property but forbids additional ones, while the 9.5 Deployment has `environment`; its deployable is the later job.json',
  'ce-master-724f19ba/public_api/v4/environment.json':
    'environments endpoint, not in the contract (requires last_deployment)',
  'ce-master-724f19ba/public_api/v4/artifact.json': 'items of the later job `artifacts` array (11.x), absent in 9.5',
  'ce-master-724f19ba/public_api/v4/pipeline/basic.json': 'later PipelineBasic: requires web_url (not in 9.5)',
  'v11.10.0/public_api/v4/pipeline/basic.json': 'later PipelineBasic: requires web_url (not in 9.5)',
  'v11.10.0/public_api/v4/pipeline/detail.json':
    'later single pipeline: requires detailed_status and web_url (not in 9.5)',
  'v11.10.0/status/ci_detailed_status.json': 'detailed_status of later pipelines, not in 9.5',
  'v11.10.0/status/action.json': 'part of detailed_status, not in 9.5',
  'v11.10.0/status/illustration.json': 'part of detailed_status, not in 9.5',
  'v11.10.0/http_method.json': 'part of detailed_status, not in 9.5',
  'v10.5.8/public_api/v4/issues.json':
    'malformed upstream: `properties` holds a property literally named "$ref" whose value is a string, not a schema',
};

function users(x: unknown, out: Loose[] = []): Loose[] {
  if (Array.isArray(x)) for (const y of x) users(y, out);
  else if (x && typeof x === 'object') {
    const o = x as Loose;
    if (typeof o.username === 'string' && typeof o.avatar_url === 'string') out.push(o);
    for (const v of Object.values(o)) users(v, out);
  }
  return out;
}

function expectValid(rel: string, data: unknown) {
  expect(schemas.check(rel, data), rel).toBeNull();
}

describe('responses validate against the real GitLab schemas', () => {
  it('accounts for every schema file: it applies, or the reason it does not is written down', () => {
    expect([...Object.keys(APPLIES), ...Object.keys(DOES_NOT_APPLY)].sort()).toEqual([...schemas.all].sort());
  });

  it('issues: lists, single, created, edited, moved, todo targets', async () => {
    const withMilestone = await s.get(`/projects/${WEB}/issues`, { query: { milestone: 'v1.4', per_page: 100 } });
    expect(withMilestone.data.length).toBeGreaterThan(5);
    expectValid('v9.5.5/public_api/v4/issues.json', withMilestone.data);
    const every = await s.all(`/projects/${WEB}/issues`);
    const single = await s.get(`/projects/${WEB}/issues/4`);
    const created = await s.post(`/projects/${WEB}/issues`, { form: { title: 'Schema check', labels: 'bug' } });
    const edited = await s.put(`/projects/${WEB}/issues/2`, { form: { state_event: 'close' } });
    const moved = await s.post(`/projects/${WEB}/issues/9/move`, { form: { to_project_id: 3 } });
    const closes = await s.get(`/projects/${WEB}/merge_requests/3/closes_issues`);
    const todos = await s.get('/todos', { query: { type: 'Issue' } });
    for (const issue of [
      ...every,
      single.data,
      created.data,
      edited.data,
      moved.data,
      ...closes.data,
      ...todos.data.map((t: Loose) => t.target),
    ]) {
      expectValid('v10.5.8/public_api/v4/issue.json', issue);
      if (issue.milestone) {
        expectValid('v11.7.11/public_api/v4/milestone.json', issue.milestone);
        expectValid('v10.5.8/public_api/v4/milestones.json', [issue.milestone]);
      }
    }
  });

  it('merge requests: lists, closed_by, single forms', async () => {
    const assigned = await s.all(`/projects/${WEB}/merge_requests`, { query: { assignee_id: 2 } });
    expect(assigned.length).toBeGreaterThan(1);
    expectValid('v9.5.5/public_api/v4/merge_requests.json', assigned);
    expectValid('v9.5.5/public_api/v4/merge_requests.json', (await s.get(`/projects/${WEB}/issues/4/closed_by`)).data);
    const all = await s.all(`/projects/${WEB}/merge_requests`);
    expectValid('v11.10.0/public_api/v4/merge_requests.json', all);
    for (const m of all) {
      expectValid(
        'v11.10.0/public_api/v4/merge_request.json',
        (await s.get(`/projects/${WEB}/merge_requests/${m.iid}`)).data,
      );
      if (m.milestone) expectValid('v11.7.11/public_api/v4/milestone.json', m.milestone);
    }
    const merged = await s.put(`/projects/${WEB}/merge_requests/3/merge`);
    expectValid('v11.10.0/public_api/v4/merge_request.json', merged.data);
  });

  it('commits of merge requests and of diff versions', async () => {
    const commits = await s.get(`/projects/${WEB}/merge_requests/2/commits`);
    expectValid('v9.5.5/public_api/v4/commits.json', commits.data);
    const [latest] = (await s.get(`/projects/${WEB}/merge_requests/2/versions`)).data;
    const version = await s.get(`/projects/${WEB}/merge_requests/2/versions/${latest.id}`);
    expectValid('v9.5.5/public_api/v4/commits.json', version.data.commits);
  });

  it('pipeline schedules: list and every single form', async () => {
    const list = await s.get(`/projects/${WEB}/pipeline_schedules`);
    expectValid('v9.5.5/pipeline_schedules.json', list.data);
    const id = list.data[0].id;
    const forms = [
      await s.get(`/projects/${WEB}/pipeline_schedules/${id}`),
      await s.post(`/projects/${WEB}/pipeline_schedules`, {
        form: { description: 'd', ref: 'main', cron: '0 1 * * 5' },
      }),
      await s.put(`/projects/${WEB}/pipeline_schedules/${id}`, { form: { cron: '0 2 * * *' } }),
      await s.post(`/projects/${WEB}/pipeline_schedules/${id}/take_ownership`),
      await s.del(`/projects/${WEB}/pipeline_schedules/${id}`),
    ];
    for (const f of forms) {
      expectValid('v9.5.5/pipeline_schedule.json', f.data);
      if (f.data.last_pipeline) expectValid('v10.1.7/public_api/v4/pipeline/basic.json', f.data.last_pipeline);
    }
  });

  it('pipelines and the parts of jobs and deployments that have a schema', async () => {
    const pipelines = await s.all(`/projects/${WEB}/pipelines`);
    expectValid('v10.5.8/public_api/v4/pipelines.json', pipelines);
    for (const p of pipelines) expectValid('v10.1.7/public_api/v4/pipeline/basic.json', p);
    const jobs = await s.all(`/projects/${WEB}/jobs`);
    for (const j of jobs) {
      expectValid('v10.5.8/public_api/v4/pipeline/basic.json', j.pipeline);
      expectValid('v9.5.5/public_api/v4/commit/basic.json', j.commit);
      expectValid('ce-master-724f19ba/public_api/v4/commit/basic.json', j.commit);
      if (j.artifacts_file) expectValid('ce-master-724f19ba/public_api/v4/artifact_file.json', j.artifacts_file);
      // the later Job schema demands what 9.5 does not send: kept honest here
      expect(schemas.check('ce-master-724f19ba/public_api/v4/job.json', j)).toMatch(/duration|web_url|artifacts/);
    }
    const deployments = await s.all(`/projects/${WEB}/deployments`);
    for (const d of deployments) {
      expectValid('ce-master-724f19ba/types/nullable_string.json', d.environment.external_url);
      expect(schemas.check('ce-master-724f19ba/public_api/v4/deployment.json', d)).not.toBeNull();
    }
  });

  it('every user object everywhere', async () => {
    const responses = [
      await s.get('/users', { query: { username: 'alice' } }),
      await s.get(`/projects/${WEB}/jobs`),
      await s.get(`/projects/${WEB}/issues`),
      await s.get(`/projects/${WEB}/merge_requests`),
      await s.get(`/projects/${WEB}/events`),
      await s.get('/todos'),
      await s.get(`/projects/${WEB}/issues/4/award_emoji`),
      await s.get(`/projects/${WEB}/deployments`),
      await s.get('/keys/1', { as: 'root' }),
    ];
    const found = users(responses.map((r) => r.data));
    expect(found.length).toBeGreaterThan(50);
    for (const u of found) {
      expectValid('v9.5.5/public_api/v4/user/basic.json', u);
      expectValid('v11.10.0/public_api/v4/user/basic.json', u);
      expectValid('ce-master-724f19ba/public_api/v4/user/basic.json', u);
    }
  });
});
