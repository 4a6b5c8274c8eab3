import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// `/gl digest insights` end to end on the demo data with its four weeks of delivery history: the digest is made in
// the channel (or refused with a sentence and nothing stored), and a run posts one message with the four keys
// "vs last week", the pipelines' health and the chart as an image of that message — a file Slack hosts and shares
// nowhere else. The week's numbers are checked against what the simulator itself lists.

const h = useBot({ history: true, digests: { timer: 'manual' } });
const DAY = 86_400_000;
const CHANNEL = 'C0DGINS';

const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);
const postsIn = (channel: string): FakeMessage[] =>
  [...h.bot.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral);
const digestCount = () => (h.bot.db.prepare('SELECT count(*) AS n FROM digests').get() as { n: number }).n;
/** Files shared into a channel by an upload (the digest shares none: its chart is an image of its post). */
const sharedUploads = (from: number) =>
  h.bot.fake.since(from).filter((r) => r.method === 'files.completeUploadExternal' && r.ok && r.message);
const hostedUploads = (from: number) =>
  h.bot.fake.since(from).filter((r) => r.method === 'files.completeUploadExternal' && r.ok);

interface DeploymentJson {
  created_at: string;
  environment: { name: string };
}

/** Every deployment of demo/web, as the simulator lists them (all pages). */
async function allDeployments(): Promise<DeploymentJson[]> {
  const out: DeploymentJson[] = [];
  for (let page = 1; ; page += 1) {
    const res = await h.api('alice', `projects/demo%2Fweb/deployments?per_page=100&page=${page}`);
    out.push(...((await res.json()) as DeploymentJson[]));
    if (!res.headers.get('x-next-page')) return out;
  }
}

/** The image block of a post: the hosted file it shows. */
function imageOf(m: FakeMessage): { slack_file?: { id: string }; alt_text?: string } | undefined {
  return (m.blocks as { type: string }[] | undefined)?.find((b) => b.type === 'image') as
    | { slack_file?: { id: string }; alt_text?: string }
    | undefined;
}

afterEach(async () => {
  for (const { id } of h.bot.db.prepare('SELECT id FROM digests').all() as { id: number }[]) {
    await h.bot.bot.digests.remove(id);
  }
});

describe('/gl digest insights', () => {
  it('is made in the channel on Mondays at 9 in the caller’s zone by default, and shows in the list', async () => {
    const made = await h.ask('alice', 'digest insights demo/web', /Digest #\d+/, { channel: CHANNEL });
    expect(made.text).toContain('weekly insights of demo/web');
    expect(made.text).toContain('`0 9 * * 1`');
    const listed = await h.ask('alice', 'digest list', /Digests/, { channel: CHANNEL });
    expect(listed.text).toContain(`#${idOf(made.text)}* weekly insights of demo/web`);

    const env = await h.ask('alice', 'digest insights demo/web --env staging --cron "30 8 * * 1"', /Digest #\d+/, {
      channel: CHANNEL,
    });
    expect(env.text).toContain('`--env staging`');
    expect(digestCount()).toBe(2);
  });

  it.each([
    [
      'digest insights demo/web --env moon',
      /no deployments to an environment named "moon"; it deploys to `production`, `staging`/,
    ],
    ['digest insights demo/nope', /Project demo\/nope was not found/],
    ['digest insights demo/web --cron "0 9 * *"', /5 fields/],
    ['digest insights demo/web --tz Mars/Olympus', /IANA time zone/],
  ])('refuses `%s` with a sentence and stores nothing', async (text, words) => {
    const seen = await h.ask('alice', text, words, { channel: CHANNEL });
    expect(seen.message.ephemeral).toBe(true);
    expect(digestCount()).toBe(0);
  });

  it('refuses a person without access to the project with a sentence, storing nothing', async () => {
    const seen = await h.ask('eve', 'digest insights demo/secret', /not found/, { channel: CHANNEL });
    expect(seen.text).toContain('Project demo/secret was not found, or you have no access to it (404)');
    expect(digestCount()).toBe(0);
  });

  it('keeps its own flags: --action and --target-type are refused, --cron is changed', async () => {
    const id = idOf((await h.ask('alice', 'digest insights demo/web', /Digest #\d+/, { channel: CHANNEL })).text);
    const refused = await h.ask('alice', `digest edit ${id} --action pushed`, /events digests/, { channel: CHANNEL });
    expect(refused.text).toContain(`Digest #${id} posts weekly insights`);
    const edited = await h.ask('alice', `digest edit ${id} --cron "0 7 * * 1"`, /Digest #\d+/, { channel: CHANNEL });
    expect(edited.text).toContain('`0 7 * * 1`');
  });
});

describe('a run of it', () => {
  it('posts the week’s keys vs last week, the health and the chart in one message, counting what the simulator lists', async () => {
    const id = idOf((await h.ask('alice', 'digest insights demo/web', /Digest #\d+/, { channel: CHANNEL })).text);
    // The week against the week before, counted by hand from the simulator's own list.
    const now = h.clock.now().getTime();
    const production = (await allDeployments()).filter((d) => d.environment.name === 'production');
    const between = (from: number, to: number) =>
      production.filter((d) => Date.parse(d.created_at) >= from && Date.parse(d.created_at) < to).length;
    const thisWeek = between(now - 7 * DAY, now);
    const lastWeek = between(now - 14 * DAY, now - 7 * DAY);
    expect(thisWeek + lastWeek).toBeGreaterThan(0);

    const from = h.bot.fake.lastSeq;
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted' });
    const posts = postsIn(CHANNEL);
    expect(posts).toHaveLength(1);
    const post = posts[0] as FakeMessage;
    const text = messageText(post);
    expect(text).toContain('Insights · demo/web · last 7 days');
    expect(text).toContain(`(${thisWeek} in 7 days`);
    expect(text).toContain(`_vs last week: ${lastWeek} a week_`);
    for (const key of ['Lead time for changes', 'Change failure rate', 'Time to restore']) {
      expect(text).toMatch(new RegExp(`\\*${key}\\*\\n[^\\n]+\\n_vs last week: `));
    }
    expect(text).toMatch(/\*Pipelines on `main`\*: \d+% passed of \d+/);
    expect(text).toMatch(/From \d+ pipelines and \d+ deployments in the window/);
    expect(post.metadata?.event_payload).toMatchObject({ digest: id });

    // The chart: one file hosted by Slack, shown by the post and shared nowhere else.
    expect(sharedUploads(from)).toEqual([]);
    expect(hostedUploads(from)).toHaveLength(1);
    const image = imageOf(post);
    const file = h.bot.fake.files.get(image?.slack_file?.id ?? '');
    const png = PNG.sync.read(file?.bytes as Buffer);
    expect(png.width).toBeGreaterThanOrEqual(800);
    expect(image?.alt_text).toMatch(/week of \d+ \w+: \d+ deployments? to production/);
    // Four weeks charted: the alt text names each.
    expect(image?.alt_text?.match(/week of /g)?.length).toBeGreaterThanOrEqual(4);
    expect(file?.filename).toMatch(/^insights-demo-web-\d{4}-\d{2}-\d{2}\.png$/);
  });

  it('posts again when a person runs it again (a run now is what they asked for); its schedule posts a slot once', async () => {
    h.clock.set('2026-03-01T12:00:00Z'); // a Sunday: the next slot is Monday 09:00 UTC
    const channel = 'C0DGINS2';
    const id = idOf((await h.ask('alice', 'digest insights demo/web --tz UTC', /Digest #\d+/, { channel })).text);
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted' });
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted' });
    expect(postsIn(channel)).toHaveLength(2);
    h.clock.set('2026-03-02T09:00:00Z');
    const from = h.bot.fake.lastSeq;
    expect((await h.bot.bot.digests.runDue()).map((r) => r.outcome.kind)).toEqual(['posted']);
    // The same slot again (a second fire, a catch-up) posts nothing.
    expect(await h.bot.bot.digests.runDue()).toEqual([]);
    expect(postsIn(channel)).toHaveLength(3);
    expect(hostedUploads(from)).toHaveLength(1);
    expectWithinLimits(h.bot.fake, from);
  });

  it('posts nothing, and uploads nothing, for a project with no deployments and no pipelines in the week', async () => {
    const channel = 'C0DGINS3';
    const made = await h.ask('alice', 'digest insights demo/docs', /Digest #\d+/, { channel });
    const from = h.bot.fake.lastSeq;
    expect(await h.bot.bot.digests.run(idOf(made.text))).toMatchObject({ kind: 'empty' });
    expect(postsIn(channel)).toEqual([]);
    expect(hostedUploads(from)).toEqual([]);
  });

  it('pauses on a token the server refuses, with one DM, posting and uploading nothing, and runs again once connected', async () => {
    const channel = 'C0DGINS4';
    const id = idOf((await h.ask('alice', 'digest insights demo/web', /Digest #\d+/, { channel })).text);
    const dmsOfAlice = () =>
      [...h.bot.fake.messages.values()].filter((m) => m.channel === `D${PEOPLE.alice.id.slice(1)}` && !m.ephemeral);
    const before = dmsOfAlice().length;
    h.sim.revoke('alice');
    const from = h.bot.fake.lastSeq;
    expect(await h.bot.bot.digests.run(id)).toEqual({ kind: 'paused', reason: 'token' });
    expect(postsIn(channel)).toEqual([]);
    expect(hostedUploads(from)).toEqual([]);
    const dms = dmsOfAlice().slice(before);
    expect(dms).toHaveLength(1);
    expect(messageText(dms[0] as FakeMessage)).toContain(`#${id} weekly insights of demo/web → <#${channel}>`);
    expect(h.bot.bot.digests.isArmed(id)).toBe(false);

    h.sim.revoke('alice', { restore: true });
    await h.bot.connect(PEOPLE.alice, TOKENS.alice);
    expect(h.bot.bot.digests.isArmed(id)).toBe(true);
    expect(await h.bot.bot.digests.run(id)).toMatchObject({ kind: 'posted' });
    expect(postsIn(channel)).toHaveLength(1);
  });
});
