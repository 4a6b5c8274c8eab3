import { describe, expect, it } from 'vitest';
import { type Loose, SECRET, TOKENS, useSimulator, WEB } from './support.js';

const s = useSimulator();

const STATUSES = ['created', 'pending', 'running', 'success', 'failed', 'canceled', 'skipped', 'manual'];

describe('the demo data set holds everything ARCHITECTURE §7 promises', () => {
  it('has root (admin), alice, bob and eve with their tokens', async () => {
    for (const [username, token] of Object.entries(TOKENS)) {
      const me = await s.get('/user', { as: null, headers: { 'PRIVATE-TOKEN': token } });
      expect(me.data.username).toBe(username);
    }
    expect((await s.get('/keys/1', { as: 'root' })).status).toBe(200);
  });

  it('has demo/web public with alice as owner and bob as developer, demo/secret private to alice', async () => {
    const web = await s.get(`/projects/${WEB}`, { as: 'eve' });
    expect(web.data.visibility).toBe('public');
    expect((await s.get(`/projects/${WEB}`, { as: 'alice' })).data.permissions.project_access.access_level).toBe(50);
    expect((await s.get(`/projects/${WEB}`, { as: 'bob' })).data.permissions.project_access.access_level).toBe(30);
    expect((await s.get(`/projects/${SECRET}`, { as: 'alice' })).data.visibility).toBe('private');
    expect((await s.get(`/projects/${SECRET}`, { as: 'eve' })).status).toBe(404);
    expect((await s.all(`/projects/${SECRET}/jobs`)).length).toBeGreaterThan(0);
    expect((await s.all(`/projects/${SECRET}/issues`)).length).toBeGreaterThan(0);
  });

  it('has jobs in every status, a manual one, and successful ones with artifacts and a trace', async () => {
    const jobs = await s.all(`/projects/${WEB}/jobs`);
    expect(new Set(jobs.map((j) => j.status))).toEqual(new Set(STATUSES));
    const withArtifacts = jobs.find((j) => j.status === 'success' && j.artifacts_file && j.ref === 'main');
    expect(withArtifacts).toBeDefined();
    expect((await s.get(`/projects/${WEB}/jobs/${withArtifacts.id}/trace`)).text.length).toBeGreaterThan(500);
    const failed = jobs.find((j) => j.status === 'failed');
    expect((await s.get(`/projects/${WEB}/jobs/${failed.id}/trace`)).text).toContain('FAIL');
  });

  it('has pipelines in every status', async () => {
    const pipelines = await s.all(`/projects/${WEB}/pipelines`);
    expect(new Set(pipelines.map((p) => p.status))).toEqual(new Set(STATUSES));
  });

  it('has active and inactive schedules owned by bob', async () => {
    const schedules = await s.all(`/projects/${WEB}/pipeline_schedules`);
    const bobs = schedules.filter((x) => x.owner.username === 'bob');
    expect(bobs.some((x) => x.active)).toBe(true);
    expect(bobs.some((x) => !x.active)).toBe(true);
  });

  it('has at least two deployments', async () => {
    expect((await s.all(`/projects/${WEB}/deployments`)).length).toBeGreaterThanOrEqual(2);
  });

  it('has more than 25 issues with labels, milestones, assignees, closed and confidential ones', async () => {
    const issues = await s.all(`/projects/${WEB}/issues`);
    expect(issues.length).toBeGreaterThan(25);
    expect(issues.some((i) => i.state === 'closed')).toBe(true);
    expect(issues.some((i) => i.confidential)).toBe(true);
    expect(issues.some((i) => i.milestone)).toBe(true);
    expect(issues.some((i) => i.assignees.length > 1)).toBe(true);
    expect(issues.every((i) => i.title.length > 5)).toBe(true);
  });

  it('has merge requests that are mergeable, conflicting, merged, closed and set to merge when the pipeline succeeds', async () => {
    const mrs = await s.all(`/projects/${WEB}/merge_requests`);
    const open = mrs.filter((m) => m.state === 'opened');
    expect(
      open.some((m) => m.merge_status === 'can_be_merged' && !m.merge_when_pipeline_succeeds && !m.work_in_progress),
    ).toBe(true);
    expect(open.some((m) => m.merge_status === 'cannot_be_merged')).toBe(true);
    expect(mrs.some((m) => m.state === 'merged')).toBe(true);
    expect(mrs.some((m) => m.state === 'closed')).toBe(true);
    const mwps = open.find((m) => m.merge_when_pipeline_succeeds);
    expect(mwps).toBeDefined();
    const head = (await s.all(`/projects/${WEB}/pipelines`, { query: { ref: mwps.source_branch } }))[0];
    expect(head).toMatchObject({ sha: mwps.sha, status: 'running' });
    for (const m of mrs) {
      expect(
        (await s.get(`/projects/${WEB}/merge_requests/${m.iid}/commits`)).data.length,
        `!${m.iid}`,
      ).toBeGreaterThan(0);
      expect(
        (await s.get(`/projects/${WEB}/merge_requests/${m.iid}/versions`)).data.length,
        `!${m.iid}`,
      ).toBeGreaterThan(0);
    }
    expect(mrs.some((m) => /closes #\d+/i.test(m.description ?? ''))).toBe(true);
  });

  it('has snippets 1.. in demo/web and notes with award emoji', async () => {
    const snippetIds = [];
    for (let id = 1; id <= 10; id++) {
      if ((await s.get(`/projects/${WEB}/snippets/${id}/award_emoji`)).status === 200) snippetIds.push(id);
    }
    expect(snippetIds[0]).toBe(1);
    const notes = await s.all(`/projects/${WEB}/events`, { query: { action: 'commented' } });
    const issueNote = notes.find((e) => e.note.noteable_type === 'Issue');
    expect(issueNote.note).toMatchObject({ id: expect.any(Number), noteable_iid: expect.any(Number) });
    const awards = await s.get(`/projects/${WEB}/issues/${issueNote.note.noteable_iid}/award_emoji`);
    expect(awards.data.length).toBeGreaterThan(0);
  });

  it('has pending todos for alice on issues and merge requests', async () => {
    const todos = (await s.get('/todos', { as: 'alice' })).data;
    expect(todos.some((t: Loose) => t.target_type === 'Issue')).toBe(true);
    expect(todos.some((t: Loose) => t.target_type === 'MergeRequest')).toBe(true);
  });

  it('has more than 30 events of many kinds', async () => {
    const events = await s.all(`/projects/${WEB}/events`);
    expect(events.length).toBeGreaterThan(30);
    for (const kind of ['pushed to', 'pushed new', 'commented on', 'opened', 'closed', 'accepted', 'joined']) {
      expect(
        events.some((e) => e.action_name === kind),
        kind,
      ).toBe(true);
    }
  });

  it('has SSH key 1 owned by alice', async () => {
    expect((await s.get('/keys/1', { as: 'root' })).data.user.username).toBe('alice');
  });

  it('has a group for group issue lists and a third project to move issues to', async () => {
    expect((await s.get('/groups/demo/issues')).status).toBe(200);
    expect((await s.get('/projects/demo%2Fdocs')).data.visibility).toBe('public');
  });
});

describe('the empty data set', () => {
  it('has the four users and nothing else', async () => {
    const { startSimulator } = await import('../../../src/sim/index.js');
    const empty = await startSimulator({ seed: 'empty' });
    try {
      const me = await fetch(`${empty.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'sim-eve-token' } });
      expect(((await me.json()) as Loose).username).toBe('eve');
      const web = await fetch(`${empty.url}/api/v4/projects/demo%2Fweb`, {
        headers: { 'PRIVATE-TOKEN': 'sim-root-token' },
      });
      expect(web.status).toBe(404);
      const issues = await fetch(`${empty.url}/api/v4/issues?scope=all`, {
        headers: { 'PRIVATE-TOKEN': 'sim-root-token' },
      });
      expect(await issues.json()).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});

describe('what the contract check discovers first is usable', () => {
  it('the newest mergeable merge request can be merged', async () => {
    const open = (await s.all(`/projects/${WEB}/merge_requests`, { query: { state: 'all' } })).find(
      (m) => m.state === 'opened' && m.merge_status === 'can_be_merged' && !m.merge_when_pipeline_succeeds,
    );
    expect((await s.put(`/projects/${WEB}/merge_requests/${open.iid}/merge`)).status).toBe(200);
  });

  it("the first successful job with artifacts serves its ref's download by job name", async () => {
    const job = (await s.all(`/projects/${WEB}/jobs`)).find((j) => j.status === 'success' && j.artifacts_file);
    const res = await s.get(`/projects/${WEB}/jobs/artifacts/${encodeURIComponent(job.ref)}/download`, {
      query: { job: job.name },
    });
    expect(res.status).toBe(200);
  });
});
