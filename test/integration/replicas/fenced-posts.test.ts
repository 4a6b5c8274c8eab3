import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock, TEST_START } from '../../support/clock.js';
import { type FakeMessage, type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { PEOPLE, type StartAppOptions, type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Fenced posts (store/lease-fence.ts), through the whole app: two replicas in this process on one SQLite file and
// one clock. Replica A stalls right before a post that must happen once (the delivery's seam moves the clock on, as
// a GC pause, a paused VM or a long wait in the channel's pace would): stalled past its lease, A does not post, and
// replica B, which takes the lease over, posts it exactly once; stalled less than its lease, A posts as before and
// B posts nothing. Leases are the production 60 s.

const LEASE_MS = 60_000;
const MINUTE = 60_000;
const STALLS = [
  { name: 'past its lease', stallMs: LEASE_MS + 1000, aPosts: false },
  { name: 'within its lease', stallMs: LEASE_MS / 2, aPosts: true },
] as const;

const clock = fakeClock();
let sim: RunningSimulator;
let fake: FakeSlack;
const encryptionKey = crypto.randomBytes(32).toString('base64');
const started: StartedApp[] = [];
const dirs: string[] = [];
/** Messages from before the test began (the fake Slack lives as long as the file). */
const older = new Set<string>();

/**
 * Stalls the replica once, at the seam `point`, by `ms` of the test's clock; `meanwhile` (set by the test) starts
 * there too, as the other replica's work going on while this one is stalled.
 */
function stallAt<P extends string>(point: P, ms: number) {
  const state: { stalled: boolean; meanwhile?: () => Promise<unknown>; started?: Promise<unknown> } = {
    stalled: false,
  };
  return {
    state,
    at: (p: P | string) => {
      if (p !== point || state.stalled) return;
      state.stalled = true;
      clock.advance(ms);
      state.started = state.meanwhile?.();
    },
  };
}

/** Replica A (stalled by its options) and replica B on A's database. */
async function replicas(a: Partial<StartAppOptions>, b: Partial<StartAppOptions>): Promise<[StartedApp, StartedApp]> {
  const first = await startApp({ gitlabUrl: sim.url, now: clock.now, fake, encryptionKey, ...a });
  started.push(first);
  dirs.push(first.dataDir);
  const second = await startApp({
    gitlabUrl: sim.url,
    now: clock.now,
    fake,
    encryptionKey,
    dataDir: first.dataDir,
    ...b,
  });
  started.push(second);
  await first.connect(PEOPLE.alice, TOKENS.alice);
  return [first, second];
}

async function ask(app: StartedApp, text: string, answer: RegExp, channel?: string): Promise<string> {
  const it = await app.slack.command(PEOPLE.alice, text, channel ? { channel } : {});
  const m = await it.waitForMessage((t) => answer.test(t));
  if (!m) expect.fail(`no answer to ${text}: ${it.text()}`);
  return it.text();
}

const postsIn = (channel: string): FakeMessage[] =>
  [...fake.messages.values()].filter(
    (m) => m.channel === channel && !m.ephemeral && !m.threadTs && !m.deleted && !older.has(m.key),
  );

const ALICE_DM = `D${PEOPLE.alice.id.slice(1)}`;

beforeAll(async () => {
  sim = await startSim(clock);
  fake = await startFakeSlack(`xoxb-test-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));
});
beforeEach(() => {
  for (const key of fake.messages.keys()) older.add(key);
});
afterEach(async () => {
  for (const app of started.splice(0)) await app.stop();
  clock.set(TEST_START);
  sim.reset();
});
afterAll(async () => {
  await fake?.close();
  await sim?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe.each(STALLS)('a replica stalled right before a post, $name', ({ stallMs, aPosts }) => {
  it('todo alerts: the DM is posted once, by the replica holding the lease', async () => {
    const stall = stallAt('before-post', stallMs);
    const manual = { timer: 'manual', channelIntervalMs: 0, leaseMs: LEASE_MS } as const;
    const [a, b] = await replicas({ alerts: { ...manual, at: stall.at } }, { alerts: manual });
    await ask(a, 'notify on', /Todo alerts are on/);
    sim.tick();
    clock.advance(MINUTE);
    // While A is stalled, B polls: past A's lease it takes the person over, settles A's intent (its post is
    // nowhere) and delivers; within it, it finds nobody due. A, going on, goes on as far as its own lease allows:
    // past it, its pass may take the person again (a new claim) if B has not, and deliver then.
    let meanwhile: { outcome: { kind: string } }[] = [];
    stall.state.meanwhile = async () => {
      meanwhile = await b.bot.alerts.pollDue();
    };
    const first = await a.bot.alerts.pollDue();
    await stall.state.started;
    expect(stall.state.stalled).toBe(true);
    expect(first[0]?.outcome.kind).toBe(aPosts ? 'delivered' : 'lost');
    const delivered = [...first, ...meanwhile].filter((p) => p.outcome.kind === 'delivered');
    expect(delivered).toHaveLength(1);
    expect(postsIn(ALICE_DM)).toHaveLength(1);
    clock.advance(MINUTE);
    await a.bot.alerts.pollDue();
    await b.bot.alerts.pollDue();
    expect(postsIn(ALICE_DM)).toHaveLength(1);
  });

  it('pipeline watches: the failure card is posted once, by the replica holding the lease', async () => {
    const channel = `C0FENCEW${aPosts ? 'A' : 'B'}`;
    const stall = stallAt('before-post', stallMs);
    const manual = { timer: 'manual', channelIntervalMs: 0, leaseMs: LEASE_MS } as const;
    const [a, b] = await replicas({ watches: { ...manual, at: stall.at } }, { watches: manual });
    await ask(a, 'watch pipelines demo/web', /Watch #\d+/, channel);
    clock.advance(MINUTE + 1000);
    await a.bot.watches.poll(); // what was there when the watch was made: nothing is posted
    sim.tick(); // a pipeline starts on fix/checkout-total
    clock.advance(MINUTE + 1000);
    await a.bot.watches.poll();
    for (let i = 0; i < 4; i++) sim.tick(); // it failed
    clock.advance(MINUTE + 1000);
    await a.bot.watches.poll();
    expect(stall.state.stalled).toBe(true);
    expect(postsIn(channel)).toHaveLength(aPosts ? 1 : 0);

    // B's next poll: it finds A's card on its way, looks for it in the channel, and posts it when it is not there.
    clock.advance(MINUTE);
    await b.bot.watches.poll();
    expect(postsIn(channel)).toHaveLength(1);
    clock.advance(MINUTE);
    await a.bot.watches.poll();
    await b.bot.watches.poll();
    const cards = postsIn(channel);
    expect(cards).toHaveLength(1);
    expect(JSON.stringify(cards[0]?.blocks)).toMatch(/failed/);
  });

  it('following a pipeline: the last DM is sent once, by the replica holding the lease', async () => {
    const pollMs = 5000;
    const stall = stallAt('before-dm', stallMs);
    const follows = { timer: 'manual', channelIntervalMs: 0, leaseMs: LEASE_MS, pollMs } as const;
    const [a, b] = await replicas({ follows: { ...follows, at: stall.at } }, { follows });
    await ask(a, 'pipeline run demo/web main', /Started by/, 'C0FENCEF');
    for (let i = 0; i < 20 && !stall.state.stalled; i++) {
      sim.tick();
      clock.advance(pollMs);
      await a.bot.follows.pollDue();
    }
    expect(stall.state.stalled).toBe(true);
    expect(postsIn(ALICE_DM)).toHaveLength(aPosts ? 1 : 0);
    expect(await a.bot.follows.store.countActive()).toBe(aPosts ? 0 : 1);

    clock.advance(pollMs);
    expect(await b.bot.follows.pollDue()).toBe(aPosts ? 0 : 1);
    expect(await b.bot.follows.store.countActive()).toBe(0);
    clock.advance(pollMs);
    expect(await a.bot.follows.pollDue()).toBe(0);
    const dms = postsIn(ALICE_DM);
    expect(dms).toHaveLength(1);
    expect(JSON.stringify(dms[0]?.blocks)).toMatch(/passed/);
  });

  it('digests: the run is posted once, by the replica holding the lease', async () => {
    const channel = `C0FENCED${aPosts ? 'A' : 'B'}`;
    const stall = stallAt('before-post', stallMs);
    const manual = { timer: 'manual', leaseMs: LEASE_MS } as const;
    const [a, b] = await replicas({ digests: { ...manual, at: stall.at } }, { digests: manual });
    const made = await ask(a, 'digest events demo/web --cron "0 9 * * *"', /Digest #\d+/, channel);
    const id = Number(/Digest #(\d+)/.exec(made)?.[1]);
    clock.advance(MINUTE);
    const res = await fetch(`${sim.url}/api/v4/projects/demo%2Fweb/issues`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKENS.bob, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ title: 'Fenced' }).toString(),
    });
    expect(res.status).toBe(201);

    expect(await a.bot.digests.run(id)).toMatchObject(
      aPosts ? { kind: 'posted', items: 1 } : { kind: 'failed', error: 'another run of it is under way' },
    );
    expect(stall.state.stalled).toBe(true);
    expect(postsIn(channel)).toHaveLength(aPosts ? 1 : 0);

    // B, running it after: A's post is found or A's intent is settled (its post is nowhere) and posted once.
    clock.advance(1000);
    expect(await b.bot.digests.run(id)).toMatchObject(aPosts ? { kind: 'empty' } : { kind: 'posted', items: 1 });
    const posts = postsIn(channel);
    expect(posts).toHaveLength(1);
    expect(JSON.stringify(posts[0]?.blocks).match(/Fenced/g)).toHaveLength(1);
  });
});
