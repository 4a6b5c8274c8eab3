import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitlabClient, type GitlabClient } from '../../../src/gitlab/client.js';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';
import { fakeClock } from '../../support/clock.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// The bot's client and the simulator are written from the same contract by different
// hands; this proves every read and write of the one parses what the other answers.

let sim: RunningSimulator;
let transport: Transport;
let alice: GitlabClient;
let root: GitlabClient;

beforeAll(async () => {
  sim = await startSim(fakeClock());
  transport = createTransport({ baseUrl: sim.url, retry: { limit: 0 } });
  alice = createGitlabClient(transport, TOKENS.alice);
  root = createGitlabClient(transport, TOKENS.root);
});
afterAll(async () => {
  transport?.close();
  await sim?.close();
});

const P = 'demo/web';

describe('the client against the simulator', () => {
  it('parses every CI read and write', async () => {
    sim.reset();
    const jobs = await alice.jobs.list(P, { per_page: 100 });
    expect(jobs.items.length).toBeGreaterThan(10);
    const failed = jobs.items.find((j) => j.status === 'failed');
    const manual = jobs.items.find((j) => j.status === 'manual');
    const withArtifacts = jobs.items.find((j) => j.artifacts_file);
    expect(failed && manual && withArtifacts).toBeTruthy();
    await alice.jobs.get(P, failed!.id);
    expect((await alice.jobs.trace(P, failed!.id)).length).toBeGreaterThan(0);
    const a = await alice.jobs.artifacts(P, withArtifacts!.id);
    a.stream.destroy();
    expect(a.fileName).toBeTruthy();
    const retried = await alice.jobs.retry(P, failed!.id);
    expect(retried.status).toBe('pending');
    await alice.jobs.play(P, manual!.id);
    await alice.jobs.keepArtifacts(P, withArtifacts!.id);
    const pipelines = await alice.pipelines.list(P, { per_page: 100 });
    const p = pipelines.items[0]!;
    await alice.pipelines.get(P, p.id);
    await alice.jobs.listForPipeline(P, p.id);
    const created = await alice.pipelines.create(P, { ref: 'main' });
    await alice.pipelines.cancel(P, created.id);
    await alice.pipelines.retry(P, created.id);
    const schedules = await alice.schedules.list(P);
    const s = await alice.schedules.get(P, schedules.items[0]!.id);
    await alice.schedules.takeOwnership(P, s.id);
    await alice.schedules.edit(P, s.id, { active: false });
    const made = await alice.schedules.create(P, { description: 'x', ref: 'main', cron: '0 5 * * *' });
    await alice.schedules.remove(P, made.id);
    const deployments = await alice.deployments.list(P);
    await alice.deployments.get(P, deployments.items[0]!.id);
    await alice.projects.get(P);
  });

  it('parses every issue, merge request, award, todo, event and key answer', async () => {
    sim.reset();
    await alice.issues.listAll({});
    await alice.issues.listForGroup('demo', {});
    const issues = await alice.issues.listForProject(P, { per_page: 100 });
    const issue = issues.items.find((i) => i.state === 'opened')!;
    await alice.issues.get(P, issue.iid);
    await alice.issues.timeStats(P, issue.iid);
    await alice.issues.setTimeEstimate(P, issue.iid, '3h');
    await alice.issues.addSpentTime(P, issue.iid, '1h');
    await alice.issues.closedBy(P, issue.iid);
    await root.issues.userAgentDetail(P, issue.iid);
    await alice.issues.subscribe(P, issue.iid);
    await alice.issues.createTodo(P, issue.iid);
    const mrs = await alice.mergeRequests.listForProject(P, { state: 'all' } as never);
    const mr = mrs.items[0]!;
    await alice.mergeRequests.listAll({});
    await alice.mergeRequests.get(P, mr.iid);
    await alice.mergeRequests.commits(P, mr.iid);
    await alice.mergeRequests.changes(P, mr.iid);
    const versions = await alice.mergeRequests.versions(P, mr.iid);
    await alice.mergeRequests.version(P, mr.iid, versions.items[0]!.id);
    await alice.mergeRequests.closesIssues(P, mr.iid);
    await alice.mergeRequests.timeStats(P, mr.iid);
    await alice.mergeRequests.listForProject(P, { view: 'simple' } as never);
    const awards = await alice.awardEmoji.list({ kind: 'issue', project: P, iid: issue.iid });
    expect(Array.isArray(awards.items)).toBe(true);
    await alice.awardEmoji.award({ kind: 'snippet', project: P, iid: 1 }, 'tada');
    const todos = await alice.todos.list({});
    await alice.todos.markDone(todos.items[0]!.id);
    await alice.todos.markAllDone();
    await alice.events.listForCurrentUser({});
    await alice.events.listForUser('bob', {});
    await alice.events.listForProject(P, {});
    const key = await root.keys.get(1);
    expect(key.user.username).toBe('alice');
    expect(await alice.users.findByUsername('bob')).toMatchObject({ username: 'bob' });
  });
});
