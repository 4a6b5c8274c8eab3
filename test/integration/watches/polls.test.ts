import { afterEach, describe, expect, it } from 'vitest';
import { buttonOf, call, useBot } from '../../support/app-harness.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import { buttonsOf, messageText } from '../../support/slack-driver.js';

// Watches on the test's clock, through the whole app: the simulator's runner fails a pipeline of demo/web between
// two polls and later passes one of the same branch (src/sim/domain/watched-pipelines.ts); the channel sees the
// failure once, then its card redrawn as fixed and a reply in its thread. Every read is the creator's.

const h = useBot({ watches: { timer: 'manual', channelIntervalMs: 0 } });

const MINUTE = 60_000;
const PIPELINES = '/api/v4/projects/1/pipelines';
const poll = call('GET', PIPELINES, 'alice', { query: { per_page: '20', order_by: 'id', sort: 'desc' } });
const idOf = (text: string) => Number(/Watch #(\d+)/.exec(text)?.[1]);

function postsIn(channel: string): FakeMessage[] {
  return [...h.bot.fake.messages.values()].filter((m) => m.channel === channel && !m.ephemeral && !m.threadTs);
}
function repliesIn(channel: string): FakeMessage[] {
  return [...h.bot.fake.messages.values()].filter((m) => m.channel === channel && m.threadTs);
}

/** A minute later, one poll of every due watch. */
async function nextMinute(ms = MINUTE + 1000) {
  h.clock.advance(ms);
  const from = h.calls().length;
  const result = await h.bot.bot.watches.poll();
  return { result, calls: h.calls(from) };
}

function ticks(n: number) {
  for (let i = 0; i < n; i++) h.sim.tick();
}

afterEach(async () => {
  for (const { id } of h.bot.db.prepare('SELECT id FROM watches').all() as { id: number }[]) {
    await h.bot.bot.watches.remove(id);
  }
  h.sim.setFaults({});
});

describe('a watch of demo/web across polls', () => {
  it('posts a pipeline that failed between two polls once, with its failed jobs, then redraws it when a later one passes', async () => {
    const made = await h.ask('alice', 'watch pipelines demo/web', /Watch #\d+/, { channel: 'C0WPOLL1' });
    const id = idOf(made.text);
    // The first poll finds what was there when the watch was made: nothing is posted.
    expect((await nextMinute()).calls).toEqual([poll]);
    expect(postsIn('C0WPOLL1')).toEqual([]);

    ticks(1); // a pipeline starts on fix/checkout-total
    expect((await nextMinute()).calls).toEqual([poll]);
    expect(postsIn('C0WPOLL1')).toEqual([]);

    ticks(4); // it failed
    const failedRound = await nextMinute();
    const [card] = postsIn('C0WPOLL1');
    expect(card).toBeDefined();
    const text = messageText(card as FakeMessage);
    const pipelineId = Number(/Pipeline #(\d+) failed/.exec(text)?.[1]);
    expect(failedRound.calls.slice(0, 2)).toEqual([
      poll,
      call('GET', `${PIPELINES}/${pipelineId}/jobs`, 'alice', { query: { per_page: '100' } }),
    ]);
    // Why it failed, read as the creator when the card goes: the failed job's trace and the project's latest runs.
    const failedJob = Number(/\/-\/jobs\/(\d+)\|unit-tests>/.exec(text)?.[1]);
    expect(failedRound.calls.slice(2)).toEqual(
      expect.arrayContaining([
        call('GET', `/api/v4/projects/demo%2Fweb/jobs/${failedJob}/trace`, 'alice'),
        call('GET', '/api/v4/projects/demo%2Fweb/jobs', 'alice', {
          query: { scope: ['failed', 'success'], per_page: '100', page: '1' },
        }),
      ]),
    );
    expect(failedRound.calls).toHaveLength(4);
    expect(text).toContain(`Pipeline #${pipelineId} failed · fix/checkout-total`);
    expect(text).toContain('unit-tests');
    expect(text).toContain('AssertionError: expected 59.96 to be 59.97 // Object.is equality');
    expect(text).toContain("from vitest's failed tests");
    expect(text).toContain(`Watch #${id}`);
    expect(buttonsOf(card as FakeMessage).map((b) => b.text)).toEqual([
      'Retry',
      'Trace',
      'Retry pipeline',
      'Jobs',
      'Open in GitLab',
    ]);
    expect(card?.metadata).toMatchObject({ event_type: 'gl_watch_card', event_payload: { watch: id } });

    // Nothing new: one read, nothing posted again.
    expect((await nextMinute()).calls).toEqual([poll]);
    expect(postsIn('C0WPOLL1')).toHaveLength(1);

    ticks(1); // the fix passed
    const fixedRound = await nextMinute(2 * 60 * MINUTE);
    expect(fixedRound.calls).toEqual([poll]);
    const [redrawn] = postsIn('C0WPOLL1');
    expect(postsIn('C0WPOLL1')).toHaveLength(1);
    const after = messageText(redrawn as FakeMessage);
    expect(redrawn?.version).toBe(2);
    expect(after).toMatch(new RegExp(`Fixed by <[^|]+/pipelines/${pipelineId + 1}\\|#${pipelineId + 1}> · 2 h later`));
    expect(buttonsOf(redrawn as FakeMessage).map((b) => b.text)).toEqual(['Open in GitLab']);
    const replies = repliesIn('C0WPOLL1');
    expect(replies).toHaveLength(1);
    expect(replies[0]?.threadTs).toBe(card?.ts);
    expect(messageText(replies[0] as FakeMessage)).toContain(
      `pipeline #${pipelineId + 1} on \`fix/checkout-total\` passed`,
    );

    // And nothing more after that.
    ticks(3);
    await nextMinute();
    expect(postsIn('C0WPOLL1')).toHaveLength(1);
    expect(repliesIn('C0WPOLL1')).toHaveLength(1);
  });
});

describe('a failed job retried from the watch card', () => {
  it('is listed once, by its newest attempt, when the pipeline fails again', async () => {
    await h.ask('alice', 'watch pipelines demo/web', /Watch #\d+/, { channel: 'C0WRETRY' });
    await nextMinute();
    ticks(1);
    await nextMinute();
    ticks(4);
    await nextMinute();
    const [first] = postsIn('C0WRETRY');
    const firstText = messageText(first as FakeMessage);
    const failedJob = Number(/\/-\/jobs\/(\d+)\|unit-tests>/.exec(firstText)?.[1]);
    expect(failedJob).toBeGreaterThan(0);

    await h.press('alice', buttonOf(first as FakeMessage, /^Retry$/), /Retried by <@U0ALICE>/);
    for (let i = 0; i < 6 && postsIn('C0WRETRY').length < 2; i++) {
      ticks(1);
      await nextMinute();
    }
    const cards = postsIn('C0WRETRY');
    expect(cards).toHaveLength(2);
    const again = messageText(cards[1] as FakeMessage);
    expect(again).toMatch(/Pipeline #\d+ failed/);
    // The retry failed as its job did: the card lists unit-tests once, by the retry, not the attempt it replaced.
    const listed = [...again.matchAll(/\/-\/jobs\/(\d+)\|unit-tests>/g)].map((m) => Number(m[1]));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toBeGreaterThan(failedJob);
  });
});

describe('polling that falls behind', () => {
  it('says so in one log line a minute, however many polls were late', async () => {
    for (const channel of ['C0WLATE1', 'C0WLATE2', 'C0WLATE3']) {
      await h.ask('alice', 'watch pipelines demo/web', /Watch #\d+/, { channel });
    }
    const from = h.bot.logs.length;
    const behind = () => h.bot.logs.slice(from).filter((l) => l.includes('watch polls are behind'));
    // The server was too slow for three minutes: every watch is polled late, once, and moves on a whole slot.
    h.clock.advance(4 * MINUTE);
    expect((await h.bot.bot.watches.poll()).polled).toBe(3);
    expect(behind()).toHaveLength(1);
    expect(behind()[0]).toContain('"behind":3');
    h.clock.advance(20_000);
    expect((await h.bot.bot.watches.poll()).polled).toBe(0);
    h.clock.advance(50_000);
    expect((await h.bot.bot.watches.poll()).polled).toBe(3);
    expect(behind()).toHaveLength(1);
  });
});
