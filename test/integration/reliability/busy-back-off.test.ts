import { describe, expect, it } from 'vitest';
import { createTransport } from '../../../src/gitlab/http.js';
import type { Faults } from '../../../src/sim/index.js';
import { useRestartedApps } from '../../support/app-harness.js';
import { borrowPostgresUrl, giveBackPostgresUrl } from '../../support/postgres-reuse.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE, type StartedApp } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The delivery kernel's back-off of polled kinds (src/delivery/polled.ts), through the whole app on the test's
// clock: while the simulator answers a watch's, a person's alerts' or a follow's reads with 503 (or 429 with a
// Retry-After), each busy poll in a row doubles the wait before the next one — the usual interval, then 2×, 4×,
// 8× — and the first poll the server answers brings the item back to its usual pace. The count is kept in the
// database: a bot started again on the same file, or another replica, goes on doubling where the first one stopped.
// A digest (the cron loop) refused with 429 waits for its Retry-After too.

const apps = useRestartedApps();
const { clock } = apps;
const MINUTE = 60_000;
const FOLLOW_POLL_MS = 5000;
const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;

const boot = (o: { dataDir?: string; databaseUrl?: string; followDeadlineMs?: number } = {}) =>
  apps.boot({
    ...(o.dataDir ? { dataDir: o.dataDir } : {}),
    ...(o.databaseUrl ? { databaseUrl: o.databaseUrl } : {}),
    // The client's own retries of a 503 wait no real time.
    transport: createTransport({ baseUrl: apps.sim.url, sleep: async () => {} }),
    digests: { timer: 'manual' },
    watches: { timer: 'manual', channelIntervalMs: 0 },
    alerts: { timer: 'manual', channelIntervalMs: 0 },
    follows: {
      timer: 'manual',
      pollMs: FOLLOW_POLL_MS,
      ...(o.followDeadlineMs ? { deadlineMs: o.followDeadlineMs } : {}),
    },
  });

async function ask(app: StartedApp, text: string, until: RegExp, channel = 'C0BUSY1'): Promise<string> {
  const it = await app.slack.command(PEOPLE.alice, text, { channel });
  const m = await it.waitForMessage((t) => until.test(t));
  if (!m) expect.fail(`no answer to ${text}: ${it.text()}`);
  return messageText(m);
}

/**
 * Steps the clock `steps` times by `stepMs`, polling after each step, and answers at which steps (counted on from
 * `from`) the item was polled: `poll` answers how many items it polled.
 */
async function polledAt(
  o: { steps: number; stepMs: number; from?: number },
  poll: () => Promise<number>,
): Promise<number[]> {
  const at: number[] = [];
  for (let i = 1; i <= o.steps; i++) {
    clock.advance(o.stepMs);
    if ((await poll()) > 0) at.push((o.from ?? 0) + i);
  }
  return at;
}

const gaps = (at: number[]) => at.slice(1).map((n, i) => n - (at[i] as number));
const busy = (only: string, more: Faults = {}) => apps.sim.setFaults({ errorRate: 1, errorStatus: 503, only, ...more });

describe('while the server is busy', () => {
  it('a watch is polled 1×, 2×, 4×, 8× its minute apart, across a restart, and each minute again once it answers', async () => {
    const first = await boot();
    await first.connect(PEOPLE.alice, TOKENS.alice);
    await ask(first, 'watch pipelines demo/web', /Watch #\d+/);
    busy('^GET /api/v4/projects/1/pipelines$');
    const before = await polledAt({ steps: 7, stepMs: MINUTE }, async () => (await first.bot.watches.poll()).polled);
    expect(before).toEqual([1, 2, 4]);
    // What a person sees of the watch is as before: its last poll failed, and why.
    expect(await first.engine.get('SELECT last_result FROM watches')).toEqual({
      last_result: 'failed: gitlab_unavailable',
    });

    // The bot starts again on the same database: the watch goes on doubling where it was.
    await apps.stop(first);
    const second = await boot({ dataDir: first.dataDir });
    const after = await polledAt(
      { steps: 8, stepMs: MINUTE, from: 7 },
      async () => (await second.bot.watches.poll()).polled,
    );
    expect(after).toEqual([8]);
    apps.sim.setFaults({});
    const answered = await polledAt(
      { steps: 4, stepMs: MINUTE, from: 15 },
      async () => (await second.bot.watches.poll()).polled,
    );
    expect(answered).toEqual([16, 17, 18, 19]);
    expect(gaps([...before, ...after, ...answered])).toEqual([1, 2, 4, 8, 1, 1, 1]);
    expect(await second.engine.get('SELECT last_result FROM watches')).toEqual({ last_result: 'ok' });
  });

  it('two replicas on PostgreSQL, taking turns, poll a watch as one: 1×, 2×, 4×, 8× its minute apart', async () => {
    const url = await borrowPostgresUrl();
    try {
      const one = await boot({ databaseUrl: url });
      const two = await boot({ databaseUrl: url });
      await one.connect(PEOPLE.alice, TOKENS.alice);
      await ask(one, 'watch pipelines demo/web', /Watch #\d+/);
      busy('^GET /api/v4/projects/1/pipelines$');
      // The replicas take turns: whichever polled the watch last, the other one looks next.
      let replicas = [one, two];
      const polled = await polledAt({ steps: 16, stepMs: MINUTE }, async () => {
        const n = (await (replicas[0] as StartedApp).bot.watches.poll()).polled;
        if (n > 0) replicas = replicas.reverse();
        return n;
      });
      // Minutes 1, 4 and 16 are the first replica's, 2 and 8 the second's: each waits as the count the other wrote says.
      expect(polled).toEqual([1, 2, 4, 8, 16]);
      await apps.stop(one);
      await apps.stop(two);
    } finally {
      giveBackPostgresUrl(url);
    }
  });

  it('a busy poll asks the server once: the app’s own poll transport leaves the retrying to the back-off', async () => {
    // No transport given: the app builds its own, as in production (commands' calls retry, polls' do not).
    const app = await apps.boot({ watches: { timer: 'manual', channelIntervalMs: 0 }, digests: { timer: 'manual' } });
    await app.connect(PEOPLE.alice, TOKENS.alice);
    await ask(app, 'watch pipelines demo/web', /Watch #\d+/);
    busy('^GET /api/v4/projects/1/pipelines$');
    const asked = () => apps.sim.requests().filter((r) => r.path === '/api/v4/projects/1/pipelines').length;
    const before = asked();
    clock.advance(MINUTE);
    expect((await app.bot.watches.poll()).polled).toBe(1);
    expect(asked() - before).toBe(1);
    expect(await app.engine.get('SELECT last_result, busy_polls FROM watches')).toEqual({
      last_result: 'failed: gitlab_unavailable',
      busy_polls: 1,
    });
  });

  it('a person’s alerts are polled 1×, 2×, 4×, 8× their minute apart, and each minute again once the server answers', async () => {
    const app = await boot();
    await app.connect(PEOPLE.alice, TOKENS.alice);
    await ask(app, 'notify on', /alerts are on/);
    busy('^GET /api/v4/todos$');
    const polled = await polledAt({ steps: 12, stepMs: MINUTE }, async () => (await app.bot.alerts.pollDue()).length);
    expect(gaps(polled)).toEqual([1, 2, 4]);
    apps.sim.setFaults({});
    const answered = await polledAt(
      { steps: 10, stepMs: MINUTE, from: 12 },
      async () => (await app.bot.alerts.pollDue()).length,
    );
    expect(gaps([...polled, ...answered]).slice(0, 6)).toEqual([1, 2, 4, 8, 1, 1]);
  });

  it('a 429 holds a person’s next poll back as long as its Retry-After says, however few busy polls came before', async () => {
    const app = await boot();
    await app.connect(PEOPLE.alice, TOKENS.alice);
    await ask(app, 'notify on', /alerts are on/);
    apps.sim.setFaults({ errorRate: 1, errorStatus: 429, retryAfter: 600, only: '^GET /api/v4/todos$' });
    const polled = await polledAt({ steps: 22, stepMs: MINUTE }, async () => (await app.bot.alerts.pollDue()).length);
    expect(gaps(polled)).toEqual([10, 10]);
    // The server was asked once: the later polls found the token's budget backed off as long (the metered transport).
    const todos = apps.sim.requests().filter((r) => r.path === '/api/v4/todos' && r.status === 429);
    expect(todos).toHaveLength(1);
  });

  it('a follow is read 1×, 2×, 4×, 8× its interval apart, and at its usual pace again once the server answers', async () => {
    const app = await boot();
    await app.connect(PEOPLE.alice, TOKENS.alice);
    await ask(app, 'pipeline run demo/web main', /Started by/);
    busy('^GET /api/v4/projects/demo%2Fweb/pipelines/\\d+');
    const polled = await polledAt({ steps: 15, stepMs: FOLLOW_POLL_MS }, () => app.bot.follows.pollDue());
    expect(polled).toEqual([1, 2, 4, 8]);
    apps.sim.setFaults({});
    const answered = await polledAt({ steps: 3, stepMs: FOLLOW_POLL_MS, from: 15 }, () => app.bot.follows.pollDue());
    expect(answered).toEqual([16, 17, 18]);
  });

  it('a busy server never keeps a follow past its deadline: it is read then, and stops', async () => {
    const app = await boot({ followDeadlineMs: 12 * FOLLOW_POLL_MS });
    await app.connect(PEOPLE.alice, TOKENS.alice);
    await ask(app, 'pipeline run demo/web main', /Started by/);
    busy('^GET /api/v4/projects/demo%2Fweb/pipelines/\\d+');
    const polled = await polledAt({ steps: 14, stepMs: FOLLOW_POLL_MS }, () => app.bot.follows.pollDue());
    // 40 s after the fourth read would be past the deadline (60 s): the fifth read comes at it.
    expect(polled).toEqual([1, 2, 4, 8, 12]);
    expect(await app.bot.follows.store.countActive()).toBe(0);
    const dms = [...apps.fake.messages.values()].filter((m) => m.channel === ALICE_DM && !m.ephemeral);
    expect(dms.map(messageText)).toEqual([expect.stringContaining('Stopped following')]);
  });

  it('a digest’s read refused with 429 is tried again when its Retry-After says, not a minute later', async () => {
    const app = await boot();
    await app.connect(PEOPLE.alice, TOKENS.alice);
    const made = await ask(app, 'digest events demo/web --cron "0 11 * * *" --tz UTC', /Digest #\d+/, 'C0BUSYD');
    const id = Number(/Digest #(\d+)/.exec(made)?.[1]);
    apps.sim.setFaults({ errorRate: 1, errorStatus: 429, retryAfter: 600, only: '^GET ' });
    clock.set('2026-03-02T11:00:00Z');
    expect((await app.bot.digests.runDue()).filter((r) => r.id === id)).toEqual([
      { id, outcome: { kind: 'failed', error: 'gitlab_rate_limited' } },
    ]);
    expect(await app.engine.get('SELECT next_run_at FROM digests WHERE id = $1', [id])).toEqual({
      next_run_at: '2026-03-02T11:10:00.000Z',
    });
    clock.set('2026-03-02T11:05:00Z');
    expect((await app.bot.digests.runDue()).filter((r) => r.id === id)).toEqual([]);
    clock.set('2026-03-02T11:10:00Z');
    expect((await app.bot.digests.runDue()).filter((r) => r.id === id)).toHaveLength(1);
  });
});
