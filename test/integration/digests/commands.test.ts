import { describe, expect, it } from 'vitest';
import { formatAbsolute, formatDateTime } from '../../../src/views/format.js';
import { buttonsOf, messageText } from '../../support/slack-driver.js';
import { buttonOf, call, confirmText, useCiBot } from '../ci/harness.js';

// Every Digests row of COMMANDS.md typed into Slack, end to end: the reads the simulator logged (and whose token
// made them), and what the person sees. Runs are driven with the test's clock (nothing fires by itself).

const h = useCiBot({ digests: { timer: 'manual' } });

const idOf = (text: string) => Number(/Digest #(\d+)/.exec(text)?.[1]);
const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);
const BERLIN_TUE_9 = formatAbsolute(new Date('2026-03-03T08:00:00Z'), 'Europe/Berlin');

describe('digest events', () => {
  it('makes this channel get a project’s events, checking the project with one read as the creator', async () => {
    const seen = await h.ask('alice', 'digest events demo/web --cron "0 9 * * *"', /Digest #\d+/, {
      channel: 'C0DGEV1',
    });
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fweb', 'alice')]);
    const id = idOf(seen.text);
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain(`:calendar: *Digest #${id}* · events of demo/web → <#C0DGEV1>`);
    expect(seen.text).toContain('*When*\n`0 9 * * *` Europe/Berlin');
    expect(seen.text).toContain(`*Next run*\n${BERLIN_TUE_9} · in 22 hours`);
    expect(seen.text).toContain('*State*\nactive');
    expect(seen.text).toContain('*Owner*\n<@U0ALICE>');
    expect(seen.text).toContain(`Created by <@U0ALICE> · digest #${id}`);
    expect(labels(seen.message)).toEqual(['Pause', 'Run now', 'Remove']);
    expect(confirmText(buttonOf(seen, /^Remove$/))).toContain(
      `Remove digest #${id} (events of demo/web in <#C0DGEV1>)?`,
    );
  });

  it('takes the default cron and the caller’s Slack zone, the channel’s project and the filters', async () => {
    await h.ask('bob', 'use demo/web', /default project/, { channel: 'C0DGEV2' });
    const before = h.calls().length;
    const seen = await h.ask('bob', 'digest events --action pushed --target-type issue', /Digest #\d+/, {
      channel: 'C0DGEV2',
    });
    expect(h.calls(before)).toEqual([call('GET', '/api/v4/projects/demo%2Fweb', 'bob')]);
    expect(seen.text).toContain('*When*\n`0 9 * * 1-5` America/New_York');
    expect(seen.text).toContain('*Filters*\n`--action pushed --target-type issue`');
  });

  it('follows a person’s events by username or id, named by their username', async () => {
    const byName = await h.ask('alice', 'digest events --user bob --tz Asia/Tokyo', /Digest #\d+/, {
      channel: 'C0DGEV3',
    });
    expect(h.calls()).toEqual([call('GET', '/api/v4/users', 'alice', { query: { username: 'bob' } })]);
    expect(byName.text).toContain("@bob's events → <#C0DGEV3>");
    expect(byName.text).toContain('`0 9 * * 1-5` Asia/Tokyo');
    const from = h.calls().length;
    const byId = await h.ask('alice', 'digest events --user 3', /Digest #\d+/, { channel: 'C0DGEV3' });
    expect(h.calls(from)).toEqual([call('GET', '/api/v4/users/3', 'alice')]);
    expect(byId.text).toContain("@bob's events");
  });

  it('changes the schedule of the same digest instead of making a second one', async () => {
    const first = await h.ask('alice', 'digest events demo/web', /Digest #\d+/, { channel: 'C0DGEV4' });
    const again = await h.ask('alice', 'digest events demo/web --cron "30 7 * * 1" --tz UTC', /Digest #\d+/, {
      channel: 'C0DGEV4',
    });
    expect(idOf(again.text)).toBe(idOf(first.text));
    expect(again.text).toContain(`Updated by <@U0ALICE> · digest #${idOf(first.text)}`);
    expect(again.text).toContain('`30 7 * * 1` UTC');
    const list = await h.ask('alice', 'digest list', /Digests/, { channel: 'C0DGEV4' });
    expect(list.text.match(/\*#\d+\*/g)).toHaveLength(1);
  });

  it('stores nothing when the project is not there or not visible', async () => {
    const seen = await h.ask('eve', 'digest events demo/secret', /not found/, { channel: 'C0DGEV5' });
    expect(h.calls()).toEqual([call('GET', '/api/v4/projects/demo%2Fsecret', 'eve', { status: 404 })]);
    expect(seen.text).toContain('Project demo/secret was not found, or you have no access to it (404)');
    const list = await h.ask('eve', 'digest list', /Digests/, { channel: 'C0DGEV5' });
    expect(list.text).toContain('No digests post in this channel.');
  });

  it('refuses a bad cron or zone before anything is read or stored', async () => {
    const cron = await h.ask('alice', 'digest events demo/web --cron "0 9 * *"', /cron/, { channel: 'C0DGEV6' });
    expect(cron.text).toContain('5 fields');
    const seconds = await h.ask('alice', 'digest todos --cron "*/10 * * * * *"', /cron/, { channel: 'C0DGEV6' });
    expect(seconds.text).toContain('5 fields');
    const zone = await h.ask('alice', 'digest todos --tz Mars/Olympus', /zone/, { channel: 'C0DGEV6' });
    expect(zone.text).toContain('IANA time zone');
    expect(h.calls()).toEqual([]);
  });
});

describe('digest todos', () => {
  it('sends the caller’s pending todos by DM, with no read at all when made', async () => {
    const seen = await h.ask('alice', 'digest todos', /Digest #\d+/, { channel: 'C0DGTD1' });
    expect(h.calls()).toEqual([]);
    expect(seen.text).toContain("pending todos → <@U0ALICE>'s DM");
    expect(seen.text).toContain('`0 9 * * 1-5` Europe/Berlin');
  });

  it('posts in this channel with --here', async () => {
    const seen = await h.ask('bob', 'digest todos --here --cron "0 8 * * *" --tz Europe/London', /Digest #\d+/, {
      channel: 'C0DGTD2',
    });
    expect(seen.text).toContain('pending todos → <#C0DGTD2>');
    expect(seen.text).toContain('`0 8 * * *` Europe/London');
  });
});

describe('digest list', () => {
  it('shows this channel’s digests and the caller’s DM digests, with next runs in the viewer’s zone', async () => {
    await h.ask('alice', 'digest events demo/web --cron "0 9 * * *"', /Digest #/, { channel: 'C0DGLS1' });
    await h.ask('bob', 'digest events --user alice --cron "0 9 * * *" --tz Europe/Berlin', /Digest #/, {
      channel: 'C0DGLS1',
    });
    await h.ask('alice', 'digest todos --cron "0 7 * * *"', /Digest #/, { channel: 'C0DGLS1' });
    const before = h.calls().length;
    const alice = await h.ask('alice', 'digest list', /Digests/, { channel: 'C0DGLS1' });
    expect(h.calls(before)).toEqual([]);
    expect(alice.text).toContain('events of demo/web → <#C0DGLS1> · `0 9 * * *` Europe/Berlin · by <@U0ALICE>');
    expect(alice.text).toContain(`next ${BERLIN_TUE_9} · in 22 hours · last run: not yet`);
    expect(alice.text).toContain("@alice's events → <#C0DGLS1>");
    expect(alice.text).toContain('Your digests by DM');
    expect(alice.text).toContain("pending todos → <@U0ALICE>'s DM");
    expect(alice.text).toContain('2 in this channel · ');
    expect(alice.text).toContain(' by DM · times in Europe/Berlin');
    expect(labels(alice.message).filter((l) => l === 'Run now').length).toBeGreaterThanOrEqual(3);

    // Bob sees the channel's digests in his zone, and none of Alice's DM digests.
    const bob = await h.ask('bob', 'digest list', /Digests/, { channel: 'C0DGLS1' });
    expect(bob.text).toContain(formatAbsolute(new Date('2026-03-03T08:00:00Z'), 'America/New_York'));
    expect(bob.text).not.toContain("<@U0ALICE>'s DM");
    expect(bob.text).toContain('times in America/New_York');
  });

  it('is the same with `digests` and says how to start one in an empty channel', async () => {
    const seen = await h.ask('carol', 'digests', /Digests/, { channel: 'C0DGLS2' });
    expect(seen.text).toContain('No digests post in this channel. Start one with `/gl digest events group/project`');
    expect(h.calls()).toEqual([]);
  });
});

describe('digest edit', () => {
  it('changes the schedule, zone and event filters, re-arms the digest, and reads nothing', async () => {
    const made = await h.ask('alice', 'digest events demo/web --cron "0 9 * * *"', /Digest #\d+/, {
      channel: 'C0DGED1',
    });
    const id = idOf(made.text);
    const from = h.calls().length;
    const edited = await h.ask(
      'alice',
      `digest edit ${id} --cron "30 7 * * 1-5" --tz America/New_York --action pushed --target-type issue`,
      /Updated by/,
      { channel: 'C0DGED1' },
    );
    expect(h.calls(from)).toEqual([]);
    expect(edited.text).toContain(`Updated by <@U0ALICE> · digest #${id}`);
    expect(edited.text).toContain('*When*\n`30 7 * * 1-5` America/New_York');
    const d = await h.bot.bot.digests.get(id);
    expect(d).toMatchObject({ cron: '30 7 * * 1-5', tz: 'America/New_York', action: 'pushed', targetType: 'issue' });
    expect(h.bot.bot.digests.isArmed(id)).toBe(true);
    expect(h.bot.bot.digests.nextRun(d as NonNullable<typeof d>)?.toISOString()).toBe('2026-03-02T12:30:00.000Z');

    // `any` drops a filter; what is not named stays.
    await h.ask('alice', `digest edit ${id} --action any`, /Updated by/, { channel: 'C0DGED1' });
    expect(await h.bot.bot.digests.get(id)).toMatchObject({ action: null, targetType: 'issue', cron: '30 7 * * 1-5' });
  });

  it('lets only the owner or a workspace admin edit, and refuses what a digest cannot take', async () => {
    const made = await h.ask('alice', 'digest todos --here --cron "0 9 * * *"', /Digest #\d+/, { channel: 'C0DGED2' });
    const id = idOf(made.text);
    const bob = await h.ask('bob', `digest edit ${id} --cron "0 8 * * *"`, /only its owner/, { channel: 'C0DGED2' });
    expect(bob.text).toContain(`Digest ${id}: only its owner or a workspace admin may edit it.`);
    const filters = await h.ask('alice', `digest edit ${id} --action pushed`, /events digests/, {
      channel: 'C0DGED2',
    });
    expect(filters.text).toContain('Nothing was changed.');
    const nothing = await h.ask('alice', `digest edit ${id}`, /Say what to change/, { channel: 'C0DGED2' });
    expect(nothing.text).toContain('`--cron`');
    const hour = await h.ask('alice', `digest edit ${id} --cron "0 24 * * *"`, /must have its hour/, {
      channel: 'C0DGED2',
    });
    expect(hour.text).toContain('from 0 to 23, not 24');
    expect(await h.bot.bot.digests.get(id)).toMatchObject({ cron: '0 9 * * *', action: null });
    const root = await h.ask('root', `digest edit ${id} --cron "0 8 * * *"`, /Updated by/, { channel: 'C0DGED2' });
    expect(root.text).toContain('`0 8 * * *`');
    const missing = await h.ask('alice', 'digest edit 999 --cron "0 8 * * *"', /no digest/, { channel: 'C0DGED2' });
    expect(missing.text).toContain('There is no digest #999.');
  });
});

describe('digest pause, resume and remove', () => {
  it('pauses and resumes for the owner, saying so when nothing changes', async () => {
    const made = await h.ask('alice', 'digest events demo/web', /Digest #\d+/, { channel: 'C0DGPR1' });
    const id = idOf(made.text);
    const paused = await h.ask('alice', `digest pause ${id}`, /Paused by/, { channel: 'C0DGPR1' });
    expect(paused.text).toContain('*State*\npaused by <@U0ALICE> (paused by a person)');
    expect(paused.text).toContain('*Next run*\n— (paused)');
    expect(labels(paused.message)).toEqual(['Resume', 'Run now', 'Remove']);
    expect(h.bot.bot.digests.isArmed(id)).toBe(false);
    const again = await h.ask('alice', `digest pause ${id}`, /already paused/, { channel: 'C0DGPR1' });
    expect(again.text).toContain(`Digest #${id} is already paused. Nothing was changed.`);
    const resumed = await h.ask('alice', `digest resume ${id}`, /Resumed by/, { channel: 'C0DGPR1' });
    expect(resumed.text).toContain('*State*\nactive');
    expect(h.bot.bot.digests.isArmed(id)).toBe(true);
    expect(h.calls().slice(1)).toEqual([]);
  });

  it('lets only the owner or a workspace admin pause, resume or remove', async () => {
    const made = await h.ask('alice', 'digest events demo/web', /Digest #\d+/, { channel: 'C0DGPR2' });
    const id = idOf(made.text);
    const bob = await h.ask('bob', `digest pause ${id}`, /only its owner/, { channel: 'C0DGPR2' });
    expect(bob.text).toContain(`Digest ${id}: only its owner or a workspace admin may pause it.`);
    const remove = await h.ask('bob', `digest remove ${id}`, /only its owner/, { channel: 'C0DGPR2' });
    expect(remove.text).toContain('may remove it');
    const root = await h.ask('root', `digest pause ${id}`, /Paused by/, { channel: 'C0DGPR2' });
    expect(root.text).toContain('paused by <@U0ROOT>');
    expect(h.calls().slice(1)).toEqual([]);
  });

  it('asks before removing, then removes for good', async () => {
    const made = await h.ask('alice', 'digest todos --here', /Digest #\d+/, { channel: 'C0DGPR3' });
    const id = idOf(made.text);
    const prompt = await h.ask('alice', `digest remove ${id}`, /Remove digest/, { channel: 'C0DGPR3' });
    expect(prompt.text).toContain(`Remove digest #${id} (pending todos in <#C0DGPR3>)?`);
    expect(labels(prompt.message)).toEqual([`Yes, remove digest #${id}`, 'Never mind']);
    const done = await h.press('alice', buttonOf(prompt, /^Yes, remove/), /was removed/);
    expect(done.message.key).toBe(prompt.message.key);
    expect(done.text).toContain(`Digest #${id} (pending todos → <#C0DGPR3>) was removed by <@U0ALICE>.`);
    expect(h.bot.bot.digests.isArmed(id)).toBe(false);
    const gone = await h.ask('alice', `digest pause ${id}`, /no digest/, { channel: 'C0DGPR3' });
    expect(gone.text).toContain(`There is no digest #${id}.`);
  });
});

describe('a digest changed by a workspace admin', () => {
  const dmsOfAlice = () =>
    [...h.bot.fake.messages.values()].filter((m) => m.channel === 'D0ALICE' && !m.ephemeral).map(messageText);

  it('tells its owner in one DM each time who did what, typed or clicked; the owner acting tells nobody', async () => {
    const made = await h.ask('alice', 'digest events demo/web', /Digest #\d+/, { channel: 'C0DGAD1' });
    const id = idOf(made.text);
    const before = dmsOfAlice().length;
    await h.ask('alice', `digest pause ${id}`, /Paused by/, { channel: 'C0DGAD1' });
    expect(dmsOfAlice()).toHaveLength(before);
    const what = `your digest #${id} (events of demo/web → <#C0DGAD1>)`;

    // Typed resume, clicked Pause, typed edit, then Remove from its question.
    const resumed = await h.ask('root', `digest resume ${id}`, /Resumed by/, { channel: 'C0DGAD1' });
    expect(dmsOfAlice().slice(before)).toEqual([
      expect.stringContaining(`<@U0ROOT> resumed ${what}: it posts again on its schedule.`),
    ]);
    await h.press('root', buttonOf(resumed, /^Pause$/), /Paused by <@U0ROOT>/);
    expect(dmsOfAlice().slice(before + 1)).toEqual([
      expect.stringContaining(`<@U0ROOT> paused ${what}: it posts nothing until it is resumed.`),
    ]);
    await h.ask('root', `digest edit ${id} --cron "0 8 * * *" --action pushed`, /Updated by/, { channel: 'C0DGAD1' });
    expect(dmsOfAlice().slice(before + 2)).toEqual([
      expect.stringMatching(
        /<@U0ROOT> changed your digest #\d+ .*: it now runs on `0 8 \* \* \*` in \S+, `--action pushed`\./,
      ),
    ]);
    const asked = await h.ask('root', `digest remove ${id}`, /Remove digest/, { channel: 'C0DGAD1' });
    await h.press('root', buttonOf(asked, /^Yes, remove/), /was removed/);
    expect(dmsOfAlice().slice(before + 3)).toEqual([
      expect.stringContaining(`<@U0ROOT> removed ${what}: it posts no more.`),
    ]);
    expect(dmsOfAlice()).toHaveLength(before + 4);
  });
});

describe('digest run', () => {
  it('posts what is new now, read with the owner’s token even when someone else in the channel asks', async () => {
    const made = await h.ask('alice', 'digest events demo/web', /Digest #\d+/, { channel: 'C0DGRN1' });
    const id = idOf(made.text);
    await h.api('bob', 'projects/demo%2Fweb/issues', { method: 'POST', form: { title: 'Wishlist button' } });
    const from = h.calls().length;
    const seen = await h.ask('bob', `digest run ${id}`, /what happened/, { channel: 'C0DGRN1' });
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/projects/1/events', 'alice', {
        query: { sort: 'desc', per_page: '20', after: '2026-02-28' },
      }),
      // Posted in the channel: which of its issues are confidential, one list read (issue 46).
      expect.objectContaining({ method: 'GET', path: '/api/v4/projects/1/issues', user: 'alice' }),
    ]);
    expect(seen.it.text()).toContain(`Running digest #${id} (events of demo/web) now`);
    expect(seen.message).toMatchObject({ channel: 'C0DGRN1', ephemeral: false, visibleTo: null });
    expect(seen.text).toContain('|#32> *Wishlist button*: opened by @bob');
  });

  it('tells the person who asked when there was nothing new, and posts nothing', async () => {
    const made = await h.ask('alice', 'digest events demo/web', /Digest #\d+/, { channel: 'C0DGRN2' });
    const id = idOf(made.text);
    const seen = await h.ask('alice', `digest run ${id}`, /nothing new/, { channel: 'C0DGRN2' });
    expect(seen.text).toContain(
      `Digest #${id} (events of demo/web): nothing new since ${formatDateTime(h.clock.now(), 'Europe/Berlin')}, so nothing was posted.`,
    );
    expect(seen.it.messages().filter((m) => !m.ephemeral)).toEqual([]);
  });

  it('is refused from another channel for anyone but the owner', async () => {
    const made = await h.ask('alice', 'digest events demo/web', /Digest #\d+/, { channel: 'C0DGRN3' });
    const id = idOf(made.text);
    const seen = await h.ask('bob', `digest run ${id}`, /another channel/, { channel: 'C0DGRN4' });
    expect(seen.text).toContain(`Digest ${id} posts in another channel: run it from there.`);
    expect(h.calls().slice(1)).toEqual([]);
  });
});
