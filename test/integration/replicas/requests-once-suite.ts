import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { eventCallbackBody, slashCommandBody } from '../../support/payloads.js';
import { freshPostgresUrl } from '../../support/postgres.js';
import { signedRequest } from '../../support/signing.js';
import { buttonsOf, messageText } from '../../support/slack-driver.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Issue 24, decided in the database: two bot processes on one SQLite file (one fake Slack, one simulator) act
// as one bot on the request side. A signed request replayed to the other replica is refused, an event Slack
// delivers again to the other replica is acknowledged and not acted on twice, the same Merge sent to both at
// once merges once, and a restarted replica still refuses a replay it saw. On 6d5374a (the memories in RAM)
// the first, second, third and last failed.

/** The suite on one engine: `sqlite` (one file) or `postgres` (one database of the run's server). */
export function requestsOnceTests(engine: 'sqlite' | 'postgres'): void {
  let sim: RunningSimulator;
  let a: SpawnedBot;
  let b: SpawnedBot;
  /** Which database both replicas share: the SQLite file, or (postgres) one PostgreSQL database. */
  let env: Record<string, string> = {};

  beforeAll(async () => {
    [sim, env] = await Promise.all([
      startSim(fakeClock()),
      engine === 'postgres' ? freshPostgresUrl().then((url) => ({ DATABASE_URL: url, DATABASE_PATH: '' })) : {},
    ]);
    // Both start at once, on an empty database.
    a = await spawnBot({ gitlabUrl: sim.url, env, waitHealthy: false });
    b = await spawnBot({ gitlabUrl: sim.url, replicaOf: a, env, waitHealthy: false });
    await Promise.all([a.healthy(), b.healthy()]);
    const connected = await a.connect(PEOPLE.alice, TOKENS.alice);
    expect(connected.ack.json).toMatchObject({ response_action: 'update' });
  }, 120_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await sim?.close();
  });

  const post = (bot: SpawnedBot, request: { headers: Record<string, string>; body: string }) =>
    fetch(`${bot.url}/slack/events`, { method: 'POST', headers: request.headers, body: request.body });

  function retryCommand(channel: string) {
    const raw = slashCommandBody({
      user: PEOPLE.alice,
      command: '/gl',
      text: 'job retry demo/web 8',
      channel,
      responseUrl: a.fake.registerResponseUrl({ channel, user: PEOPLE.alice.id }),
      triggerId: a.fake.issueTrigger(),
    });
    return signedRequest(a.env.SLACK_SIGNING_SECRET ?? '', raw);
  }

  const retries = () => sim.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/jobs/8/retry'));

  async function until(ok: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > deadline) expect.fail(`${what} never happened`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  describe('two replicas on one database', () => {
    it('refuse on one a signed request the other already ran (401), and run it once', async () => {
      sim.reset();
      const request = retryCommand('C0REPL1');
      expect((await post(a, request)).status).toBe(200);
      expect((await post(b, request)).status).toBe(401);
      await until(() => retries().length === 1, 'the retry');
      expect(b.output()).toContain('"reason":"replayed"');
      expect(retries()).toHaveLength(1);
    });

    it('acknowledge an event Slack delivers again to the other replica, and act on it once', async () => {
      const home = { type: 'app_home_opened', user: PEOPLE.alice.id, channel: 'D0ALICE', tab: 'home' };
      const raw = eventCallbackBody(home);
      const publishes = () => a.fake.calls('views.publish').length;
      const before = publishes();
      const first = signedRequest(a.env.SLACK_SIGNING_SECRET ?? '', raw);
      first.headers['content-type'] = 'application/json';
      expect((await post(a, first)).status).toBe(200);
      await until(() => publishes() === before + 1, 'the Home published');
      // Slack signs each delivery anew and says which retry it is.
      const again = signedRequest(a.env.SLACK_SIGNING_SECRET ?? '', raw, {
        timestamp: Math.floor(Date.now() / 1000) + 1,
      });
      again.headers['content-type'] = 'application/json';
      again.headers['x-slack-retry-num'] = '1';
      again.headers['x-slack-retry-reason'] = 'http_timeout';
      expect((await post(b, again)).status).toBe(200);
      await until(() => b.output().includes('an event delivered again was acknowledged'), 'the retry noticed');
      expect(publishes()).toBe(before + 1);
    });

    it('merge once when the same Merge reaches both at the same moment', async () => {
      sim.reset();
      const asked = await a.slack.command(PEOPLE.alice, 'mr demo/web!7');
      const card = await asked.waitForMessage((t) => /!7 Add order history page/.test(t), 10_000);
      if (!card) expect.fail(`no card: ${asked.text()}`);
      const merge = buttonsOf(card).find((x) => x.text === 'Merge');
      if (!merge) expect.fail(`no Merge button on: ${messageText(card)}`);
      const clicked = await a.slack.click(PEOPLE.alice, merge);
      const opened = await clicked.waitFor((r) => r.method === 'views.open' && r.ok, 10_000);
      if (!opened?.view) expect.fail('no Merge modal opened');
      sim.setFaults({ latencyMs: 200 });
      const [onA, onB] = await Promise.all([
        a.slack.submitView(PEOPLE.alice, opened.view, {}),
        b.slack.submitView(PEOPLE.alice, opened.view, {}),
      ]);
      expect([onA.ack.status, onB.ack.status]).toEqual([200, 200]);
      const merged = () =>
        sim.requests().filter((r) => r.method === 'PUT' && r.path.endsWith('/merge_requests/7/merge'));
      await until(() => merged().length >= 1, 'the merge');
      await until(() => a.output().includes('came again') || b.output().includes('came again'), 'the copy noticed');
      sim.setFaults({});
      expect(merged()).toHaveLength(1);
    });

    it('still refuse, after a restart, a replay of a request seen before it', async () => {
      sim.reset();
      const request = retryCommand('C0REPL2');
      expect((await post(b, request)).status).toBe(200);
      await until(() => retries().length === 1, 'the retry');
      b.child.kill('SIGKILL');
      await b.exited;
      b = await spawnBot({ gitlabUrl: sim.url, replicaOf: a, env });
      expect((await post(b, request)).status).toBe(401);
      expect((await post(a, request)).status).toBe(401);
      expect(retries()).toHaveLength(1);
    }, 60_000);
  });
}
