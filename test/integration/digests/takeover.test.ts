import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunPoint } from '../../../src/operations/digest-service.js';
import { fakeClock, TEST_START } from '../../support/clock.js';
import { type FakeMessage, type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE, type StartAppOptions, type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Two replicas of the bot in this process on one SQLite file, driven with one clock: what one arms the other arms
// at its next sweep, a run whose replica died is taken over by the other once its lease has run out (and not
// before), and a run held by one replica is not run by the other meanwhile.

const clock = fakeClock();
let sim: RunningSimulator;
let fake: FakeSlack;
const encryptionKey = crypto.randomBytes(32).toString('base64');
const started: StartedApp[] = [];
const dirs: string[] = [];

async function boot(o: Partial<StartAppOptions> = {}): Promise<StartedApp> {
  const app = await startApp({ gitlabUrl: sim.url, now: clock.now, fake, encryptionKey, ...o });
  started.push(app);
  if (!o.dataDir) dirs.push(app.dataDir);
  return app;
}

async function ask(app: StartedApp, text: string, channel: string): Promise<string> {
  const it = await app.slack.command(PEOPLE.alice, text, { channel });
  const m = await it.waitForMessage((t) => /Digest #\d+/.test(t));
  if (!m) expect.fail(`no answer to ${text}: ${it.text()}`);
  return messageText(m);
}

const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);
const postsIn = (channel: string): FakeMessage[] =>
  [...fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral);

async function openIssue(title: string) {
  const res = await fetch(`${sim.url}/api/v4/projects/demo%2Fweb/issues`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': TOKENS.bob, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title }).toString(),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  sim = await startSim(clock);
  fake = await startFakeSlack(`xoxb-test-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));
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

describe('two replicas on one database', () => {
  it('arm what the other created, paused or changed at their next sweep', async () => {
    const a = await boot({ digests: { timer: 'manual' } });
    const b = await boot({ dataDir: a.dataDir, digests: { timer: 'manual' } });
    await a.connect(PEOPLE.alice, TOKENS.alice);
    const id = idOf(await ask(a, 'digest todos --here --cron "0 9 * * *"', 'C0DGTK1'));
    expect(a.bot.digests.isArmed(id)).toBe(true);
    expect(b.bot.digests.isArmed(id)).toBe(false);
    await b.bot.digests.sweep();
    expect(b.bot.digests.isArmed(id)).toBe(true);
    await ask(a, `digest pause ${id}`, 'C0DGTK1');
    await b.bot.digests.sweep();
    expect(b.bot.digests.isArmed(id)).toBe(false);
  });

  it('take over a run whose replica died once its lease has run out, and post it exactly once', async () => {
    const channel = 'C0DGTK2';
    let interrupt: RunPoint | null = null;
    const a = await boot({
      digests: {
        timer: 'manual',
        at: (p) => {
          if (p === interrupt) throw new Error(`interrupted ${p}`);
        },
      },
    });
    const b = await boot({ dataDir: a.dataDir, digests: { timer: 'manual' } });
    await a.connect(PEOPLE.alice, TOKENS.alice);
    const id = idOf(await ask(a, 'digest events demo/web --cron "0 9 * * *"', channel));
    clock.advance(60_000);
    await openIssue('Taken over');
    interrupt = 'after-post';
    expect(await a.bot.digests.run(id)).toEqual({ kind: 'failed', error: 'unexpected' });
    expect(postsIn(channel)).toHaveLength(1);
    // As if replica A had died there: its lease stays on the digest for a minute, and nobody releases it.
    a.db
      .prepare('UPDATE digests SET lease_owner = ?, lease_until = ? WHERE id = ?')
      .run('dead-replica', new Date(clock.now().getTime() + 60_000).toISOString(), id);

    // While the lease holds, the other replica leaves the run alone, whether a sweep or a person asks.
    await b.bot.digests.sweep();
    expect(b.logs.filter((l) => l.includes('"msg":"digest run"'))).toEqual([]);
    expect(await b.bot.digests.runDue()).toEqual([]);

    clock.advance(60_000);
    await b.bot.digests.sweep();
    const lines = b.logs.filter((l) => l.includes('"msg":"digest run"')).map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ digest: id, reason: 'recover', outcome: 'settled' })]);
    expect(postsIn(channel)).toHaveLength(1);
    expect(messageText(postsIn(channel)[0] as FakeMessage).match(/\*Taken over\*/g)).toHaveLength(1);
    // The cursor moved: a later run on either replica posts only what came after.
    interrupt = null;
    clock.advance(60_000);
    await openIssue('After the take-over');
    expect(await a.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 1 });
  });

  it('run a digest on one replica at a time: a scheduled run held by the other is left to it', async () => {
    const a = await boot({ digests: { timer: 'manual' } });
    const b = await boot({ dataDir: a.dataDir, digests: { timer: 'manual' } });
    await a.connect(PEOPLE.alice, TOKENS.alice);
    const id = idOf(await ask(a, 'digest todos --here --cron "0 9 * * *"', 'C0DGTK3'));
    clock.set('2026-03-03T09:00:30Z');
    a.db
      .prepare('UPDATE digests SET lease_owner = ?, lease_until = ? WHERE id = ?')
      .run('other-replica', new Date(clock.now().getTime() + 60_000).toISOString(), id);
    expect(await b.bot.digests.runDue()).toEqual([{ id, outcome: { kind: 'skipped' } }]);
    expect(postsIn('C0DGTK3')).toHaveLength(0);
  });
});
