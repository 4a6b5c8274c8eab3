import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';
import { findMarkupLeaks, payloadsOf } from '../../support/markup-leaks.js';
import { expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';

// `/gl insights` end to end, on the demo data with its four weeks of delivery history: the card, the chart uploaded
// with Slack's external upload, and the numbers checked against what the simulator itself lists.

const h = useBot({ history: true });
const DAY = 86_400_000;

interface DeploymentJson {
  id: number;
  created_at: string;
  environment: { name: string };
  deployable: { status: string } | null;
}

/** Every deployment of demo/web, as the simulator lists them (all pages). */
async function allDeployments(): Promise<DeploymentJson[]> {
  const out: DeploymentJson[] = [];
  for (let page = 1; ; page += 1) {
    const res = await h.api('alice', `projects/demo%2Fweb/deployments?per_page=100&page=${page}`);
    const items = (await res.json()) as DeploymentJson[];
    out.push(...items);
    if (!res.headers.get('x-next-page')) return out;
  }
}

const filesSince = (seq: number) =>
  h.bot.fake
    .since(seq)
    .flatMap((r) => (r.method === 'files.completeUploadExternal' && r.ok && r.message ? [r.message] : []));

describe('/gl insights', () => {
  it('posts the four keys, the pipelines’ health and a PNG chart into the channel, counting what the simulator lists', async () => {
    const now = h.clock.now().getTime();
    const inWindow = (await allDeployments()).filter((d) => {
      const t = Date.parse(d.created_at);
      return d.environment.name === 'production' && t >= now - 30 * DAY && t < now;
    });
    expect(inWindow.length).toBeGreaterThan(10);
    h.sim.reset();
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('alice', 'insights demo/web --days 30 --share', /Insights · demo\/web/);

    expect(seen.message.ephemeral).toBe(false);
    expect(seen.text).toContain('Deployment frequency');
    expect(seen.text).toContain(`(${inWindow.length} in 30 days`);
    expect(seen.text).toMatch(/Lead time for changes\*\nmedian \S+/);
    expect(seen.text).toMatch(/Change failure rate\*\n\d+% \(\d+ of \d+\)/);
    expect(seen.text).toMatch(/Time to restore\*\nmedian \S+/);
    expect(seen.text).toContain('Keys for `production`, the production-like environment');
    expect(seen.text).toContain('Failure rate: deployments whose job failed, or that the next deployment rolled back');
    expect(seen.text).toMatch(/\*Pipelines on `main`\*: \d+% passed of \d+/);
    expect(seen.text).toMatch(/\*Slowest jobs\* \(median\): `unit-tests`/);
    expect(seen.text).toMatch(/\*Most-failing jobs\*: `unit-tests` failed \d+ of \d+/);
    expect(seen.text).toMatch(/From \d+ pipelines and \d+ deployments in the window/);
    // The jobs named open their `/gl job` cards.
    const jobButtons = buttonsOf(seen.message).filter((b) => /^unit-tests #\d+$/.test(b.text));
    expect(jobButtons.length).toBeGreaterThanOrEqual(2);
    const card = await h.press('alice', jobButtons[0] as (typeof jobButtons)[0], /unit-tests/);
    expect(card.text).toMatch(/Job #\d+/);

    const [shared] = filesSince(from);
    expect(shared?.channel).toBe(seen.message.channel);
    const file = shared?.files?.[0];
    expect(file?.name).toBe('insights-demo-web-30d.png');
    const png = PNG.sync.read(file?.bytes as Buffer);
    expect(png.width).toBeGreaterThanOrEqual(800);
    expect(file?.altText).toMatch(/week of \d+ \w+: \d+ deployments? to production/);
    expectWithinLimits(seen.it);
  });

  it('puts the chart into the person’s DM when the answer is only theirs, and reads nothing again for a while', async () => {
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('bob', 'insights demo/web --days 14', /Insights · demo\/web/);
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain('in your direct message with the bot');
    const [dm] = filesSince(from);
    expect(dm?.channel).toMatch(/^D/);
    const calls = h.calls().length;
    await h.ask('bob', 'insights demo/web --days 14', /Insights · demo\/web/);
    expect(h.calls().length).toBe(calls);
  });

  it('says so when the project has no deployments, and still shows its pipelines', async () => {
    const seen = await h.ask('alice', 'insights demo/docs', /Insights · demo\/docs/);
    expect(seen.text).toContain('has no deployments in the last 60 days');
    expect(seen.text).toMatch(/Pipelines on `main`/);
  });
});

describe('text from the server', () => {
  it('stays text on the card, its buttons and the chart’s alt text', async () => {
    const failed = (await (await h.api('root', 'projects/demo%2Fweb/jobs?scope[]=failed&per_page=100')).json()) as {
      id: number;
      name: string;
    }[];
    const evil = '<!channel> *x* <http://evil.example|click>';
    for (const j of failed.filter((x) => x.name === 'unit-tests')) h.sim.editJob(j.id, { name: evil });
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('root', 'insights demo/web --share', /Insights · demo\/web/);
    expect(seen.text).toContain('&lt;!channel&gt;');
    expect(findMarkupLeaks(payloadsOf(h.bot.fake.since(from)), { linkPrefixes: [h.sim.url] })).toEqual([]);
  });
});

describe('bad input', () => {
  it.each([
    ['insights demo/web --days 0', /--days/],
    ['insights demo/web --days 366', /--days/],
  ])('refuses `%s` before any call', async (text, words) => {
    const seen = await h.ask('alice', text, words);
    expect(seen.text).toMatch(/from 1 to 365/);
    expect(h.calls()).toEqual([]);
  });

  it('names the environments there are when --env names none, and posts nothing', async () => {
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('alice', 'insights demo/web --env prod-eu --share', /no deployments to an environment/);
    expect(seen.text).toContain('it deployed to `production`, `staging`');
    expect(h.bot.fake.since(from).filter((r) => r.method === 'files.completeUploadExternal')).toEqual([]);
    expect(seen.message.ephemeral).toBe(true);
  });

  it('tells a person without the Reporter role that they may not see the deployments, and posts nothing', async () => {
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('eve', 'insights demo/web --share', /You may not see the deployments of demo\/web/);
    expect(seen.message.ephemeral).toBe(true);
    expect(h.bot.fake.since(from).filter((r) => r.method === 'files.getUploadURLExternal')).toEqual([]);
  });

  it('does not tell of a project the token cannot see', async () => {
    const seen = await h.ask('eve', 'insights demo/secret', /not found|could not be found/i);
    expect(seen.message.ephemeral).toBe(true);
  });
});
