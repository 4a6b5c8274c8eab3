import { afterEach, describe, expect, it } from 'vitest';
import { buttonOf, call, confirmText, useBot } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { buttonsOf, buttonsOfView, messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';
import { homeButton, openHome, pressOnHome } from '../home/support.js';

// Every row of "Alerts and watches" that is a watch, and every watch button, typed into Slack end to end: the
// reads the simulator logged (and whose token made them), and what each person and the channel see.

const h = useBot({ watches: { timer: 'manual', channelIntervalMs: 0 } });

const PIPELINES = '/api/v4/projects/1/pipelines';
const baseline = (user: string, extra: Record<string, string> = {}) =>
  call('GET', PIPELINES, user, { query: { per_page: '20', order_by: 'id', sort: 'desc', ...extra } });
const idOf = (text: string) => Number(/Watch #(\d+)/.exec(text)?.[1]);
const labels = (m: FakeMessage) => buttonsOf(m).map((b) => b.text);
const posts = (channel: string) =>
  [...h.bot.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral && !m.threadTs);
const dms = (user: string) =>
  [...h.bot.fake.messages.values()].filter((m) => m.channel === `D${user.slice(1)}` && !m.ephemeral);

async function watch(person: 'alice' | 'bob', text: string, channel: string): Promise<number> {
  return idOf((await h.ask(person, text, /Watch #\d+/, { channel })).text);
}

/** Fails the demo's pipeline of fix/checkout-total and polls: its card is posted in `channel`. */
async function failedCard(channel: string): Promise<FakeMessage> {
  for (let i = 0; i < 5; i++) h.sim.tick();
  h.clock.advance(61_000);
  await h.bot.bot.watches.poll();
  const [card] = posts(channel);
  expect(card).toBeDefined();
  return card as FakeMessage;
}

afterEach(async () => {
  for (const { id } of h.bot.db.prepare('SELECT id FROM watches').all() as { id: number }[]) {
    await h.bot.bot.watches.remove(id);
  }
  h.sim.revoke('alice', { restore: true });
});

describe('watch pipelines', () => {
  it('makes this channel watch a project’s failed pipelines, reading the project and its newest pipelines as the creator', async () => {
    const seen = await h.ask('alice', 'watch pipelines demo/web', /Watch #\d+/, { channel: 'C0WCMD1' });
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fweb', 'alice'), baseline('alice')]);
    const id = idOf(seen.text);
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain(`:eyes: *Watch #${id}* · failed pipelines of demo/web → <#C0WCMD1>`);
    expect(seen.text).toContain('*State*\nactive');
    expect(seen.text).toContain('*Created by*\n<@U0ALICE>');
    expect(seen.text).toContain(`Created by <@U0ALICE> · watch #${id}`);
    expect(labels(seen.message)).toEqual(['Pause', 'Remove']);
    expect(confirmText(buttonOf(seen, /^Remove$/))).toContain(
      `Remove watch #${id} (failed pipelines of demo/web in <#C0WCMD1>)?`,
    );
  });

  it('takes the channel’s default project, one ref and every ending; the same watch again is not made twice', async () => {
    await h.ask('bob', 'use demo/web', /default project/, { channel: 'C0WCMD2' });
    const from = h.calls().length;
    const seen = await h.ask('bob', 'watch pipelines --ref main --status finished', /Watch #\d+/, {
      channel: 'C0WCMD2',
    });
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/projects/demo%2Fweb', 'bob'),
      baseline('bob', { ref: 'main' }),
    ]);
    expect(seen.text).toContain('finished pipelines of demo/web on `main` → <#C0WCMD2>');
    const again = await h.ask('bob', 'watch pipelines demo/web --ref main --status finished', /already has/, {
      channel: 'C0WCMD2',
    });
    expect(idOf(again.text)).toBe(idOf(seen.text));
    expect(again.text).toContain(
      `This channel already has watch #${idOf(seen.text)} of these pipelines; nothing was changed.`,
    );
    expect(h.bot.db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 1 });
  });

  it('refuses bad input with a usage message and reads nothing', async () => {
    const status = await h.ask('alice', 'watch pipelines demo/web --status sometimes', /status/, {
      channel: 'C0WCMD3',
    });
    expect(status.text).toMatch(/failed.*finished/);
    const id = await h.ask('alice', 'watch pause soon', /watch/, { channel: 'C0WCMD3' });
    expect(id.text).toMatch(/watch-id|number/);
    const none = await h.ask('alice', 'watch resume 999', /no watch #999/, { channel: 'C0WCMD3' });
    expect(none.text).toContain('There is no watch #999. `watch list` shows the watches here.');
    const noProject = await h.ask('alice', 'watch pipelines', /project/, { channel: 'C0WCMD3' });
    expect(noProject.message.ephemeral).toBe(true);
    expect(h.calls()).toEqual([]);
    expect(h.bot.db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 0 });
  });

  it('is refused for a project the creator cannot see, and nothing is stored', async () => {
    const seen = await h.ask('eve', 'watch pipelines demo/secret', /not found|404/, { channel: 'C0WCMD4' });
    expect(seen.message.ephemeral).toBe(true);
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fsecret', 'eve', { status: 404 })]);
    expect(h.bot.db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 0 });
  });

  it('answers help with the watch rows', async () => {
    const help = await h.ask('alice', 'help watch', /watch pipelines/, { channel: 'C0WCMD5' });
    expect(help.text).toContain('watch list');
    expect(help.text).toContain('watch remove');
  });
});

describe('watch list, pause, resume and remove', () => {
  it('lists this channel’s watches with Pause and Remove, and says so when there are none', async () => {
    const a = await watch('alice', 'watch pipelines demo/web', 'C0WLS1');
    const b = await watch('bob', 'watch pipelines demo/web --ref main', 'C0WLS1');
    await watch('alice', 'watch pipelines demo/docs', 'C0WLS2');
    const from = h.calls().length;
    const list = await h.ask('eve', 'watch list', /Watches/, { channel: 'C0WLS1' });
    expect(h.calls(from)).toEqual([]);
    expect(list.text).toContain(`*#${a}* failed pipelines of demo/web → <#C0WLS1> · by <@U0ALICE>`);
    expect(list.text).toContain(`*#${b}* failed pipelines of demo/web on \`main\` → <#C0WLS1> · by <@U0BOB>`);
    expect(list.text).toContain('2 in this channel');
    expect(labels(list.message)).toEqual(['Pause', 'Remove', 'Pause', 'Remove']);
    // After a poll, the list says when in its reader's zone (eve's is Asia/Tokyo), not in UTC (issue 47).
    await h.bot.bot.watches.poll({ all: true });
    const polled = await h.ask('eve', 'watch list', /Watches/, { channel: 'C0WLS1' });
    expect(polled.text).toMatch(/last poll: \w+ \d{1,2} \w{3} \d{4}, \d\d:\d\d · /);
    expect(polled.text).not.toContain('UTC');
    const empty = await h.ask('eve', 'watches', /Watches/, { channel: 'C0WLS3' });
    expect(empty.text).toContain('No watches in this channel. Start one with `/gl watch pipelines group/project`.');
  });

  it('lets only the creator or a workspace admin pause, resume or remove a watch', async () => {
    const id = await watch('alice', 'watch pipelines demo/web', 'C0WPR1');
    for (const verb of ['pause', 'resume', 'remove']) {
      const bob = await h.ask('bob', `watch ${verb} ${id}`, /only its creator/, { channel: 'C0WPR1' });
      expect(bob.text).toContain(`Watch ${id}: only its creator or a workspace admin may ${verb} it.`);
    }
    expect(h.bot.db.prepare('SELECT active FROM watches WHERE id = ?').get(id)).toEqual({ active: 1 });

    const root = await h.ask('root', `watch pause ${id}`, /Paused by/, { channel: 'C0WPR1' });
    expect(root.text).toContain(`Paused by <@U0ROOT> · watch #${id}`);
    expect(root.text).toContain('paused by <@U0ROOT> (paused by a person)');
    const twice = await h.ask('alice', `watch pause ${id}`, /already paused/, { channel: 'C0WPR1' });
    expect(twice.text).toContain(`Watch #${id} is already paused.`);
    const resumed = await h.ask('alice', `watch resume ${id}`, /Resumed by/, { channel: 'C0WPR1' });
    expect(resumed.text).toContain('*State*\nactive');
    expect(labels(resumed.message)).toEqual(['Pause', 'Remove']);
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fweb', 'alice'), baseline('alice')]);
  });

  it('asks before removing, and removes on Yes', async () => {
    const id = await watch('alice', 'watch pipelines demo/web', 'C0WRM1');
    const asked = await h.ask('alice', `watch remove ${id}`, /Remove watch/, { channel: 'C0WRM1' });
    expect(asked.text).toContain(`Remove watch #${id} (failed pipelines of demo/web in <#C0WRM1>)?`);
    expect(h.bot.db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 1 });
    const removed = await h.press('alice', buttonOf(asked, new RegExp(`^Yes, remove watch #${id}$`)), /was removed/);
    expect(removed.text).toContain(
      `Watch #${id} (failed pipelines of demo/web in <#C0WRM1>) was removed by <@U0ALICE>.`,
    );
    expect(h.bot.db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 0 });
  });

  it('pauses, resumes and removes from the list’s buttons, redrawing the list, and refuses a non-creator’s click', async () => {
    const id = await watch('alice', 'watch pipelines demo/web', 'C0WBT1');
    const list = await h.ask('alice', 'watch list', /Watches/, { channel: 'C0WBT1' });
    const refused = await h.press('bob', buttonOf(list, /^Pause$/), /only its creator/);
    expect(refused.text).toContain(`Watch ${id}: only its creator or a workspace admin may pause it.`);
    const paused = await h.press('alice', buttonOf(list, /^Pause$/), /Paused by/);
    expect(paused.text).toContain(`Paused by <@U0ALICE> · watch #${id}`);
    expect(labels(paused.message)).toEqual(['Resume', 'Remove']);
    const resumed = await h.press('alice', buttonOf(paused, /^Resume$/), /Resumed by/);
    expect(labels(resumed.message)).toEqual(['Pause', 'Remove']);
    const removed = await h.press('root', buttonOf(resumed, /^Remove$/), /Removed by/);
    expect(removed.text).toContain('No watches in this channel.');
    expect(h.bot.db.prepare('SELECT count(*) AS n FROM watches').get()).toEqual({ n: 0 });
  });
});

describe('the card a watch posts', () => {
  it('retries a failed job and the pipeline with the token of whoever clicks', async () => {
    await watch('alice', 'watch pipelines demo/web', 'C0WCARD1');
    const card = await failedCard('C0WCARD1');
    const eve = h.calls().length;
    const refused = await h.press('eve', buttonOf(card, /^Retry pipeline$/), /403|cannot be retried/);
    expect(refused.text).toContain('cannot be retried');
    expect(h.calls(eve)[0]).toMatchObject({ method: 'POST', user: 'eve', status: 403 });

    const from = h.calls().length;
    await h.press('bob', buttonOf(card, /^Retry$/), /Retried by <@U0BOB>/);
    expect(h.calls(from)[0]).toMatchObject({ method: 'POST', user: 'bob', status: 201 });
    expect(h.calls(from)[0]?.path).toMatch(/^\/api\/v4\/projects\/demo%2Fweb\/jobs\/\d+\/retry$/);
    expect(posts('C0WCARD1')).toHaveLength(1);
  });

  it('posts every ending with --status finished, and nothing for pipelines still running', async () => {
    await watch('alice', 'watch pipelines demo/web --ref fix/checkout-total --status finished', 'C0WCARD2');
    for (let i = 0; i < 4; i++) h.sim.tick();
    h.clock.advance(61_000);
    await h.bot.bot.watches.poll();
    expect(posts('C0WCARD2')).toHaveLength(0);
    h.sim.tick(); // the first fails
    h.sim.tick(); // the fix passes
    h.clock.advance(61_000);
    await h.bot.bot.watches.poll();
    const shown = posts('C0WCARD2').map((m) => messageText(m));
    expect(shown).toHaveLength(2);
    expect(shown.some((t) => /Pipeline #\d+ failed · fix\/checkout-total/.test(t) && t.includes('Fixed by'))).toBe(
      true,
    );
    expect(shown.some((t) => /Pipeline #\d+ passed · fix\/checkout-total/.test(t))).toBe(true);
  });
});

describe('a creator whose token the server refuses', () => {
  it('pauses their watches with one DM, and connecting again resumes them; what failed meanwhile is posted then', async () => {
    const id = await watch('alice', 'watch pipelines demo/web', 'C0WRV1');
    h.sim.revoke('alice');
    h.clock.advance(61_000);
    await h.bot.bot.watches.poll();
    const aliceDms = dms(PEOPLE.alice.id);
    expect(aliceDms).toHaveLength(1);
    const dm = messageText(aliceDms[0] as FakeMessage);
    expect(dm).toContain(
      'refused your token (401), so your watch is paused until the server accepts your token again:',
    );
    expect(dm).not.toMatch(/Connect again to resume|Connect a new token and/);
    expect(dm).toContain(`#${id} failed pipelines of demo/web → <#C0WRV1>`);
    expect(labels(aliceDms[0] as FakeMessage)).toEqual(['Connect']);
    const list = await h.ask('alice', 'watch list', /Watches/, { channel: 'C0WRV1' });
    expect(list.text).toContain(
      "paused (the creator's token was refused; it resumes when the server accepts it again)",
    );

    for (let i = 0; i < 5; i++) h.sim.tick(); // a pipeline fails while the watch is paused
    h.clock.advance(61_000);
    const quiet = h.calls().length;
    await h.bot.bot.watches.poll();
    expect(h.calls(quiet)).toEqual([]);
    expect(dms(PEOPLE.alice.id)).toHaveLength(1);

    h.sim.revoke('alice', { restore: true });
    const { submission } = await h.bot.connect(PEOPLE.alice, TOKENS.alice);
    expect(submission.ack.json).toMatchObject({ response_action: 'update' });
    expect(dms(PEOPLE.alice.id).map((m) => messageText(m))[1]).toContain(
      `You are connected again, so this watch polls again: #${id} failed pipelines of demo/web`,
    );
    h.clock.advance(1000);
    await h.bot.bot.watches.poll();
    expect(
      posts('C0WRV1')
        .map((m) => messageText(m))
        .join('\n'),
    ).toMatch(/Pipeline #\d+ failed · fix\/checkout-total/);
  });
});

describe('the person’s own watches', () => {
  it('are named by whoami and listed on their Home, where Pause and Resume act on them', async () => {
    const none = await h.ask('bob', 'whoami', /connected/, { channel: 'C0WOWN1' });
    expect(none.text).toContain('You watch no pipelines: `/gl watch pipelines group/project` in a channel.');
    const id = await watch('bob', 'watch pipelines demo/web --ref main', 'C0WOWN1');
    const who = await h.ask('bob', 'whoami', /connected/, { channel: 'C0WOWN1' });
    expect(who.text).toContain(`Your watches: #${id} failed pipelines of demo/web on \`main\` → <#C0WOWN1>`);

    const home = await openHome(h, 'bob');
    expect(home.text).toContain('My watches');
    expect(home.text).toContain(`*#${id}* failed pipelines of demo/web on \`main\` → <#C0WOWN1> · by <@U0BOB>`);
    const paused = await pressOnHome(
      h,
      'bob',
      homeButton(home, /^Pause$/, buttonsOfView(home.view).filter((b) => b.text === 'Pause').length - 1),
    );
    expect(paused.text).toContain(`Paused by <@U0BOB> · watch #${id}`);
    expect(h.bot.db.prepare('SELECT active FROM watches WHERE id = ?').get(id)).toEqual({ active: 0 });
    const resumed = await pressOnHome(h, 'bob', homeButton(paused, /^Resume$/));
    expect(resumed.text).toContain(`Resumed by <@U0BOB> · watch #${id}`);
    expect(h.bot.db.prepare('SELECT active FROM watches WHERE id = ?').get(id)).toEqual({ active: 1 });
  });
});
