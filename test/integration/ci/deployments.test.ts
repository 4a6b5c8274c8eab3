import { describe, expect, it } from 'vitest';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { buttonOf, call, useCiBot, WEB } from './harness.js';

// Deployment lists and cards, and their Job buttons, end to end.

const h = useCiBot();

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);

interface DeploymentJson {
  id: number;
  ref: string;
  sha: string;
  environment: { name: string; external_url: string };
  user: { name: string; username: string };
  deployable: { id: number; name: string; status: string };
}

async function deployments(): Promise<DeploymentJson[]> {
  const res = await h.api('alice', 'projects/demo%2Fweb/deployments');
  expect(res.status).toBe(200);
  return (await res.json()) as DeploymentJson[];
}

describe('deployments', () => {
  it('lists deployments with environment, its URL (as text: another host), ref, commit, who and the job', async () => {
    const all = await deployments();
    h.sim.reset();
    const seen = await h.ask('alice', 'deployments demo/web', /Deployments in demo\/web/);
    expect(h.calls()).toEqual([call('GET', `${WEB}/deployments`, 'alice')]);
    for (const d of all) {
      const url = d.environment.external_url;
      expect(seen.text).toContain(
        `:rocket: *${d.id}* ${d.environment.name} · \`${url}\` · \`${d.ref}\` · \`${d.sha.slice(0, 8)}\` · @${d.user.username} · :white_check_mark: job #${d.deployable.id}`,
      );
    }
    expect(labels(seen.message)).toEqual(all.map(() => 'Job'));
    expect(seen.text).toContain(`Page 1 · ${all.length} in all · ${all.length} shown`);
    expectWithinLimits(seen.it);
  });

  it('turns pages with Next page', async () => {
    const list = await h.ask('alice', 'deployments demo/web --per-page 2', /Deployments in/);
    const next = await h.press('alice', buttonOf(list, /^Next page$/), /Page 2/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/deployments`, 'alice', { query: { per_page: '2' } }),
      call('GET', `${WEB}/deployments`, 'alice', { query: { page: '2', per_page: '2' } }),
    ]);
    expect(next.message.key).toBe(list.message.key);
    expect(next.text).toContain(':rocket: *3* staging');
    expect(next.text).not.toContain(':rocket: *1* ');
  });

  it("shows one deployment: environment with its URL, ref, short sha, who deployed and the job's status", async () => {
    const d = (await deployments()).find((x) => x.id === 1) as DeploymentJson;
    h.sim.reset();
    const seen = await h.ask('alice', 'deployment demo/web 1', /Deployment 1 /);
    expect(h.calls()).toEqual([call('GET', `${WEB}/deployments/1`, 'alice')]);
    const url = d.environment.external_url;
    expect(seen.text).toContain(`:rocket: Deployment 1 · ${d.environment.name}`);
    // The environment's URL is on another host than the server's: shown as text, not a link.
    expect(seen.text).toContain(`*Environment*\n${d.environment.name} · \`${url}\``);
    expect(seen.text).not.toContain(`<${url}`);
    expect(seen.text).toContain(`*Ref*\n\`${d.ref}\``);
    expect(seen.text).toContain(`*Commit*\n\`${d.sha.slice(0, 8)}\``);
    expect(seen.text).toContain(`*Deployed by*\n${d.user.name} (@${d.user.username})`);
    expect(seen.text).toContain(
      `*Job*\n:white_check_mark: <${h.sim.url}/demo/web/-/jobs/${d.deployable.id}|#${d.deployable.id} ${d.deployable.name}> success`,
    );
    expect(labels(seen.message)).toEqual(['Job']);
  });

  it("opens the deployable job's card from the card's Job button, as the clicker", async () => {
    const card = await h.ask('alice', 'deployment demo/web 2 --share', /Deployment 2 /);
    expect(card.message.ephemeral).toBe(false);
    const job = await h.press('bob', buttonOf(card, /^Job$/), /Job #5 /);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/deployments/2`, 'alice'),
      call('GET', `${WEB}/jobs/5`, 'bob'),
      call('GET', `${WEB}/jobs/5/trace`, 'bob'),
    ]);
    expect(job.message.key).not.toBe(card.message.key);
    expect(job.message).toMatchObject({ ephemeral: true, visibleTo: 'U0BOB' });
    expect(job.text).toContain(':white_check_mark: Job #5 · deploy:production');
    expect(labels(job.message)).toEqual(['Retry', 'Erase', 'Trace', 'Open in GitLab']);
  });

  it("opens a job from a list row's Job button", async () => {
    const list = await h.ask('alice', 'deployments demo/web', /Deployments in/);
    const rows = buttonsOf(list.message);
    const job = await h.press('alice', rows[2] as (typeof rows)[number], /Job #12 /);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/deployments`, 'alice'),
      call('GET', `${WEB}/jobs/12`, 'alice'),
      call('GET', `${WEB}/jobs/12/trace`, 'alice'),
    ]);
    expect(job.text).toContain('Job #12 · deploy:staging');
  });

  it("uses the channel's default project", async () => {
    await h.ask('alice', 'use demo/web', /default project/, { channel: 'C0CIDEPLOY' });
    const from = h.calls().length;
    await h.ask('alice', 'deployments', /Deployments in demo\/web/, { channel: 'C0CIDEPLOY' });
    await h.ask('alice', 'deployment 3', /Deployment 3 /, { channel: 'C0CIDEPLOY' });
    expect(h.calls(from)).toEqual([
      call('GET', `${WEB}/deployments`, 'alice'),
      call('GET', `${WEB}/deployments/3`, 'alice'),
    ]);
  });
});
