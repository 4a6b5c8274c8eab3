import { describe, expect, it } from 'vitest';
import type { RunPoint } from '../../../src/operations/digest-service.js';
import { useRestartedApps } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE, type StartedApp } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The weekly insights digest cut off at each point of its run, then the bot restarted on the same database: the
// channel gets one post with its chart, whatever the point. The chart is hosted by Slack unshared before the intent,
// so a run cut off before its post leaves one file nobody sees (the next run hosts its own); a run cut off after it
// is settled from its mark, with nothing read, hosted or posted again. No file is ever shared into the channel.
// (restart.test.ts does the same for events digests; kill.test.ts with a real SIGKILL.)

const apps = useRestartedApps({ history: true });
const { clock, boot, stop } = apps;

const postsIn = (channel: string): FakeMessage[] =>
  [...apps.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral);
const uploads = (from: number) =>
  apps.fake.since(from).filter((r) => r.method === 'files.completeUploadExternal' && r.ok);
const runLines = (app: StartedApp, id: number) =>
  app.logs
    .filter((l) => l.includes('"msg":"digest run"') && l.includes(`"digest":${id},`))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('an insights digest cut off in its run', () => {
  for (const point of ['before-post', 'after-post', 'while-saving'] as RunPoint[]) {
    it(`is settled at start when cut off ${point.replace('-', ' ')}: one post, its chart shown once`, async () => {
      let interrupt: RunPoint | null = null;
      const at = (p: RunPoint) => {
        if (p === interrupt) throw new Error(`interrupted ${p}`);
      };
      const channel = `C0DGIR${point.length}`;
      const first = await boot({ digests: { timer: 'manual', at } });
      await first.connect(PEOPLE.alice, TOKENS.alice);
      const made = await first.slack.command(PEOPLE.alice, 'digest insights demo/web', { channel });
      const card = await made.waitForMessage((t) => /Digest #\d+/.test(t));
      const id = Number(/Digest #(\d+)/.exec(card ? messageText(card) : '')?.[1]);
      const from = apps.fake.lastSeq;
      interrupt = point;
      expect(await first.bot.digests.run(id)).toEqual({ kind: 'failed', error: 'unexpected' });
      expect(postsIn(channel)).toHaveLength(point === 'before-post' ? 0 : 1);
      await stop(first);

      clock.advance(60_000);
      const second = await boot({ dataDir: first.dataDir, digests: { timer: 'manual' } });
      await second.bot.digests.recovered;
      const posts = postsIn(channel);
      expect(posts).toHaveLength(1);
      expect(messageText(posts[0] as FakeMessage)).toContain('Insights · demo/web · last 7 days');
      expect(runLines(second, id)).toEqual([
        expect.objectContaining({ reason: 'recover', outcome: point === 'before-post' ? 'posted' : 'settled' }),
      ]);
      const hosted = uploads(from);
      expect(hosted.filter((r) => r.message)).toEqual([]);
      expect(hosted).toHaveLength(point === 'before-post' ? 2 : 1);
      const blocks = ((posts[0] as FakeMessage).blocks ?? []) as { type: string; slack_file?: { id: string } }[];
      const image = blocks.find((b) => b.type === 'image');
      expect(apps.fake.files.get(image?.slack_file?.id ?? '')?.bytes?.length).toBeGreaterThan(1000);
    });
  }
});

describe('an insights digest whose chart Slack refuses to host', () => {
  it('posts the keys without the chart, and says so in the log', async () => {
    const channel = 'C0DGIRU';
    const app = await boot({ digests: { timer: 'manual' } });
    await app.connect(PEOPLE.alice, TOKENS.alice);
    const made = await app.slack.command(PEOPLE.alice, 'digest insights demo/web', { channel });
    const card = await made.waitForMessage((t) => /Digest #\d+/.test(t));
    const id = Number(/Digest #(\d+)/.exec(card ? messageText(card) : '')?.[1]);
    apps.fake.refuseUploads('not_allowed_token_type');
    try {
      expect(await app.bot.digests.run(id)).toMatchObject({ kind: 'posted' });
    } finally {
      apps.fake.refuseUploads(null);
    }
    const posts = postsIn(channel);
    expect(posts).toHaveLength(1);
    expect(messageText(posts[0] as FakeMessage)).toContain('_vs last week: ');
    expect(((posts[0] as FakeMessage).blocks ?? []).some((b) => (b as { type: string }).type === 'image')).toBe(false);
    expect(app.logs.join('\n')).toContain('the insights chart could not be uploaded');
  });
});

describe('an insights digest whose chart Slack will not show yet', () => {
  it('posts the keys once without the chart when Slack refuses the image block (invalid_blocks)', async () => {
    const channel = 'C0DGIRB';
    const app = await boot({ digests: { timer: 'manual' } });
    await app.connect(PEOPLE.alice, TOKENS.alice);
    const made = await app.slack.command(PEOPLE.alice, 'digest insights demo/web', { channel });
    const card = await made.waitForMessage((t) => /Digest #\d+/.test(t));
    const id = Number(/Digest #(\d+)/.exec(card ? messageText(card) : '')?.[1]);
    apps.fake.refuseFileImages('invalid_blocks');
    try {
      expect(await app.bot.digests.run(id)).toMatchObject({ kind: 'posted' });
    } finally {
      apps.fake.refuseFileImages(null);
    }
    const posts = postsIn(channel);
    expect(posts).toHaveLength(1);
    expect(messageText(posts[0] as FakeMessage)).toContain('_vs last week: ');
    expect(((posts[0] as FakeMessage).blocks ?? []).some((b) => (b as { type: string }).type === 'image')).toBe(false);
    expect(app.logs.join('\n')).toContain('posting its plain view instead');
    // Done once: a scheduled run of the same week later is a run of its own, not a retry of this one.
    expect(app.logs.join('\n')).not.toContain('failed: slack invalid_blocks');
  });
});
