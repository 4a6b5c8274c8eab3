import { expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { openHome } from '../home/support.js';

// Issue 42: the `build_failed` alert DM says why the build failed. The simulator gives a merge request's author a
// build_failed todo when its head pipeline fails, as GitLab does; the DM carries the failed job's explaining lines.

const h = useBot({ alerts: { timer: 'manual', channelIntervalMs: 0 } });
const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;

const PYTEST = [
  '$ pytest -q',
  '....F',
  '=================================== FAILURES ===================================',
  '______________________________ test_cart_total ______________________________',
  '    def test_cart_total():',
  '>       assert total([1.005, 2.005]) == 3.01',
  'E       assert 3.0 == 3.01',
  'tests/test_cart.py:12: AssertionError',
  '=========================== short test summary info ============================',
  'FAILED tests/test_cart.py::test_cart_total - assert 3.0 == 3.01',
  '1 failed, 4 passed in 0.12s',
  'ERROR: Job failed: exit code 1',
].join('\n');

/** Fails alice's merge request's build: a pipeline at its head whose first job fails as pytest does. */
async function failAlicesBuild(): Promise<void> {
  const mrs = (await (await h.api('alice', 'projects/demo%2Fweb/merge_requests?state=opened&author_id=2')).json()) as {
    iid: number;
    source_branch: string;
    sha: string;
  }[];
  const mr = mrs.find((m) => m.source_branch);
  expect(mr).toBeDefined();
  const run = (await (
    await h.api('alice', 'projects/demo%2Fweb/pipeline', { method: 'POST', form: { ref: mr?.source_branch ?? '' } })
  ).json()) as { id: number };
  const jobs = (await (await h.api('alice', `projects/demo%2Fweb/pipelines/${run.id}/jobs`)).json()) as {
    id: number;
  }[];
  for (const [i, job] of jobs.entries()) {
    h.sim.editJob(job.id, i === 0 ? { status: 'failed', trace: PYTEST } : { status: 'success' });
  }
  h.sim.tick();
}

it('a build_failed alert DM carries the failed job’s explaining lines', async () => {
  await h.ask('alice', 'notify on --actions build_failed', /alerts are on/);
  await failAlicesBuild();
  h.clock.advance(60_000);
  const outcomes = await h.bot.bot.alerts.pollDue();
  expect(outcomes.map((o) => o.outcome.kind)).toContain('delivered');
  const dm = [...h.bot.fake.messages.values()].find((m) => m.channel === ALICE_DM && !m.ephemeral);
  const text = messageText(dm ?? {});
  expect(text).toContain('Build failed');
  expect(text).toContain('assert 3.0 == 3.01');
  expect(text).toContain('from pytest');
});

it('the Home tab shows why a build_failed todo’s build failed, under its row', async () => {
  await failAlicesBuild();
  const home = await openHome(h, 'alice');
  expect(home.text).toContain('Build failed');
  expect(home.text).toContain('assert 3.0 == 3.01');
  expect(home.text).toContain('from pytest');
});
