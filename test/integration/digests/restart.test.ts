import { getTasks } from 'node-cron';
import { describe, expect, it } from 'vitest';
import type { RunPoint } from '../../../src/operations/digest-service.js';
import { useRestartedApps } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE, type StartedApp } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// Digests across restarts of the bot on the same database: node-cron tasks are armed again, a time that passed
// while the bot was down runs once (not once per missed time), and a run interrupted at any point of its post is
// settled at start, neither lost nor posted twice. (test/integration/digests/kill.test.ts does the same with a
// real process killed by SIGKILL.)

const apps = useRestartedApps();
const { clock, boot, stop } = apps;

async function ask(app: StartedApp, text: string, channel: string): Promise<string> {
  const it = await app.slack.command(PEOPLE.alice, text, { channel });
  const m = await it.waitForMessage((t) => /Digest #\d+/.test(t));
  if (!m) expect.fail(`no answer to ${text}: ${it.text()}`);
  return messageText(m);
}

const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);
const postsIn = (channel: string): FakeMessage[] =>
  [...apps.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral);
const runLines = (app: StartedApp, id: number) =>
  app.logs
    .filter((l) => l.includes('"msg":"digest run"') && l.includes(`"digest":${id},`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function openIssue(title: string) {
  const res = await fetch(`${apps.sim.url}/api/v4/projects/demo%2Fweb/issues`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': TOKENS.bob, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title }).toString(),
  });
  expect(res.status).toBe(201);
}

describe('after a restart', () => {
  it('re-arms every active digest on node-cron, one task per schedule and zone; pause, resume and remove take effect at once', async () => {
    const first = await boot();
    await first.connect(PEOPLE.alice, TOKENS.alice);
    // Feb 29 at 03:15 in Tokyo: armed, but never due while a test runs.
    const id = idOf(await ask(first, 'digest events demo/web --cron "15 3 29 2 *" --tz Asia/Tokyo', 'C0DGRS1'));
    const task = first.bot.digests.taskOf(id);
    expect(task?.getPattern()).toBe('15 3 29 2 *');
    expect(task?.getStatus()).toBe('idle');
    expect(task?.match(new Date('2028-02-28T18:15:00Z'))).toBe(true);
    expect(task?.match(new Date('2028-02-29T03:15:00Z'))).toBe(false);
    expect(getTasks().get(task?.id ?? '')?.name).toBe('digests 15 3 29 2 * Asia/Tokyo');

    // The same schedule shares the task; another zone gets its own.
    const twin = idOf(await ask(first, 'digest todos --here --cron "15 3 29 2 *" --tz Asia/Tokyo', 'C0DGRS1'));
    expect(first.bot.digests.taskOf(twin)).toBe(task);
    const other = idOf(await ask(first, 'digest todos --cron "15 3 29 2 *" --tz UTC', 'C0DGRS1'));
    expect(first.bot.digests.taskOf(other)?.match(new Date('2028-02-29T03:15:00Z'))).toBe(true);
    expect(first.bot.digests.taskOf(other)).not.toBe(task);

    await ask(first, `digest pause ${id}`, 'C0DGRS1');
    expect(first.bot.digests.taskOf(id)).toBeUndefined();
    expect(first.bot.digests.isArmed(id)).toBe(false);
    expect(getTasks().has(task?.id ?? '')).toBe(true);
    await ask(first, `digest pause ${twin}`, 'C0DGRS1');
    expect(getTasks().has(task?.id ?? '')).toBe(false);
    await ask(first, `digest resume ${id}`, 'C0DGRS1');
    expect(first.bot.digests.taskOf(id)?.getPattern()).toBe('15 3 29 2 *');

    await stop(first);
    expect([...getTasks().values()].filter((t) => t.name?.startsWith('digests '))).toEqual([]);
    const second = await boot({ dataDir: first.dataDir });
    const again = second.bot.digests.taskOf(id);
    expect(again?.match(new Date('2028-02-28T18:15:00Z'))).toBe(true);
    expect(second.bot.digests.isArmed(twin)).toBe(false);
    expect(second.bot.digests.isArmed(other)).toBe(true);
    expect(await second.bot.digests.remove(id)).toBe(true);
    expect(second.bot.digests.taskOf(id)).toBeUndefined();
    expect(getTasks().has(again?.id ?? '')).toBe(false);
  });

  it('runs a digest whose time passed while the bot was down once, however many times it missed', async () => {
    const first = await boot({ digests: { timer: 'manual' } });
    await first.connect(PEOPLE.alice, TOKENS.alice);
    const id = idOf(await ask(first, 'digest events demo/web --cron "0 9 * * *" --tz Europe/Berlin', 'C0DGRS2'));
    clock.set('2026-03-02T12:00:00Z');
    await openIssue('Missed while down');
    await stop(first);

    // Down over three 09:00s (Tue, Wed, Thu).
    clock.set('2026-03-05T12:00:00Z');
    const second = await boot({ dataDir: first.dataDir, digests: { timer: 'manual' } });
    await second.bot.digests.recovered;
    expect(postsIn('C0DGRS2')).toHaveLength(1);
    expect(messageText(postsIn('C0DGRS2')[0] as FakeMessage)).toContain('*Missed while down*: opened by @bob');
    expect(runLines(second, id)).toEqual([
      expect.objectContaining({ reason: 'catch-up', scheduledFor: '2026-03-03T08:00:00.000Z', outcome: 'posted' }),
    ]);
    // Nothing more is due until Friday.
    expect(await second.bot.digests.runDue()).toEqual([]);
  });

  for (const point of ['before-post', 'after-post', 'while-saving'] as RunPoint[]) {
    it(`settles a run interrupted ${point.replace('-', ' ')} at start: every event is posted exactly once`, async () => {
      let interrupt: RunPoint | null = null;
      const at = (p: RunPoint) => {
        if (p === interrupt) throw new Error(`interrupted ${p}`);
      };
      const channel = `C0DGIN${point.length}`;
      const first = await boot({ digests: { timer: 'manual', at } });
      await first.connect(PEOPLE.alice, TOKENS.alice);
      const id = idOf(await ask(first, 'digest events demo/web', channel));
      clock.advance(60_000);
      await openIssue('First of two');
      await openIssue('Second of two');
      interrupt = point;
      expect(await first.bot.digests.run(id)).toEqual({ kind: 'failed', error: 'unexpected' });
      expect(postsIn(channel)).toHaveLength(point === 'before-post' ? 0 : 1);
      await stop(first);

      const second = await boot({ dataDir: first.dataDir, digests: { timer: 'manual' } });
      await second.bot.digests.recovered;
      const posts = postsIn(channel).map(messageText);
      expect(posts).toHaveLength(1);
      expect(posts[0]?.match(/\*First of two\*/g)).toHaveLength(1);
      expect(posts[0]?.match(/\*Second of two\*/g)).toHaveLength(1);
      expect(runLines(second, id)).toEqual([
        expect.objectContaining({ reason: 'recover', outcome: point === 'before-post' ? 'posted' : 'settled' }),
      ]);

      // The cursor moved past both: a later run posts only what came after.
      clock.advance(60_000);
      await openIssue('Third');
      expect(await second.bot.digests.run(id)).toMatchObject({ kind: 'posted', items: 1 });
      const all = postsIn(channel).map(messageText).join('\n');
      for (const title of ['First of two', 'Second of two', 'Third']) {
        expect(all.match(new RegExp(`\\*${title}\\*`, 'g'))).toHaveLength(1);
      }
    });
  }
});
