import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buttonOf, useBot, WEB } from '../../support/app-harness.js';
import type { FakeMessage, FakeRecord } from '../../support/fake-slack.js';
import { buttonsOf, messageText } from '../../support/slack-driver.js';

// Cards that follow their pipeline or job (COMMANDS.md "Following a pipeline or a job"), through the whole app:
// signed requests → the simulator (its runner moved on by `tick`) → the fake Slack, on the test's clock. Polls are
// driven by the test (`pollDue`), each after the poll interval has passed on that clock.

const POLL_MS = 5000;
const SHARE_EVERY_MS = 12_000;
const h = useBot({ follows: { timer: 'manual', pollMs: POLL_MS, shareEveryMs: SHARE_EVERY_MS } });

const ALICE_DM = 'D0ALICE';
const BOB_DM = 'D0BOB';

/** Messages from before the test began (the fake Slack lives as long as the file). */
const older = new Set<string>();
beforeEach(() => {
  for (const key of h.bot.fake.messages.keys()) older.add(key);
});
afterEach(async () => {
  await h.bot.engine.run('DELETE FROM follows');
  h.sim.setFaults({});
});

/** The simulator's runner moves on one step, the poll interval passes, and the bot polls what is due. */
async function step(o: { tick?: boolean; ms?: number } = {}): Promise<number> {
  if (o.tick !== false) h.sim.tick();
  h.clock.advance(o.ms ?? POLL_MS);
  return h.bot.bot.follows.pollDue();
}

/** Steps until nothing is followed any more (or `max` steps). */
async function stepUntilDone(max = 12): Promise<number> {
  for (let i = 1; i <= max; i++) {
    await step();
    if ((await h.bot.bot.follows.store.countActive()) === 0) return i;
  }
  return expect.fail(`still followed after ${max} steps`);
}

/** Waits until `n` follows are stored (a shared card's follow is stored once its post answered). */
async function following(n: number): Promise<void> {
  for (const end = Date.now() + 15_000; Date.now() < end; ) {
    if ((await h.bot.bot.follows.store.countActive()) === n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(await h.bot.bot.follows.store.countActive()).toBe(n);
}

const posted = (channel: string): FakeMessage[] =>
  [...h.bot.fake.messages.values()].filter(
    (m) => m.channel === channel && !m.ephemeral && !m.deleted && !older.has(m.key),
  );

const records = (from: number, pred: (r: FakeRecord) => boolean) => h.bot.fake.since(from, pred);

const pipelineIdOf = (text: string) => Number(/Pipeline #(\d+) · /.exec(text)?.[1]);

/** No response_url was used more often than Slack allows. */
function expectNoUsedUpUrls(from: number): void {
  expect(records(from, (r) => r.kind === 'response_url' && r.error === 'used_url')).toEqual([]);
  for (const entry of h.bot.fake.responseUrls.values()) expect(entry.uses).toBeLessThanOrEqual(5);
}

describe('an ephemeral card that follows its pipeline', () => {
  it('/gl pipeline run: redrawn through its response_url at the changes that matter, never more than 5 uses, then one DM', async () => {
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('alice', 'pipeline run demo/web main', /Started by/);
    const id = pipelineIdOf(seen.text);
    expect(seen.message.ephemeral).toBe(true);
    expect(seen.text).toContain('Kept up to date at each stage until it finishes; the result comes by DM.');
    // Nothing is read before the poll interval has passed.
    h.clock.advance(POLL_MS - 1);
    expect(await h.bot.bot.follows.pollDue()).toBe(0);

    const steps = await stepUntilDone();
    expect(steps).toBeGreaterThan(3);
    // Every read was alice's, of this pipeline and its jobs.
    const reads = h.calls(1);
    expect(reads.length).toBe(2 * steps);
    for (const r of reads) expect([`${WEB}/pipelines/${id}`, `${WEB}/pipelines/${id}/jobs`]).toContain(r.path);
    expect(new Set(reads.map((r) => r.user))).toEqual(new Set(['alice']));

    // The card: the answer, started, each stage done, finished: five uses, no more.
    const redraws = records(from, (r) => r.kind === 'response_url' && r.body.replace_original === true);
    expect(redraws.length).toBe(4);
    expectNoUsedUpUrls(from);
    expect(seen.message.version).toBe(5);
    const card = messageText(seen.message);
    expect(card).toMatch(/\*Status\*\n:white_check_mark: success/);
    expect(card).toContain('Finished; no longer followed.');

    const dms = posted(ALICE_DM);
    expect(dms).toHaveLength(1);
    const dm = messageText(dms[0] as FakeMessage);
    expect(dm).toMatch(new RegExp(`Pipeline #${id} on \`main\`> passed in \\d+s\\.`));
    expect(dm).toContain(`<${h.sim.url}/demo/web/pipelines/${id}|`);
    // Done: nothing is read or sent any more.
    const after = h.calls().length;
    expect(await step()).toBe(0);
    expect(h.calls(after)).toEqual([]);
    expect(posted(ALICE_DM)).toHaveLength(1);
  });

  it('redraws in the zone the card was answered in, not UTC (issue 47)', async () => {
    const seen = await h.ask('alice', 'pipeline run demo/web main', /Started by/);
    // alice is in Europe/Berlin: the card's times read an hour after UTC's.
    const zoned = /\*Created\*\n(\d{1,2} \w{3} \d{4}, \d\d:\d\d)/.exec(seen.text)?.[1];
    expect(zoned).toBeDefined();
    await stepUntilDone();
    const redrawn = messageText(seen.message);
    expect(redrawn).toContain('Finished; no longer followed.');
    expect(redrawn).toContain(`*Created*\n${zoned}`);
    expect(redrawn).not.toMatch(/\*Created\*\n[^·\n]*UTC/);
  });

  it('keeps the last use for the end when more stages finish than uses are left', async () => {
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('alice', 'pipeline run demo/web main', /Started by/);
    // Nothing is looked at until several steps have passed: the card then meets the pipeline further on.
    for (let i = 0; i < 3; i++) h.sim.tick();
    await stepUntilDone();
    expectNoUsedUpUrls(from);
    expect(messageText(seen.message)).toContain('Finished; no longer followed.');
    expect(posted(ALICE_DM)).toHaveLength(1);
  });

  it('/gl pipeline retry: follows the retried pipeline; a failed end is DM’d with its failed jobs and their Retry', async () => {
    const seen = await h.ask('alice', 'pipeline retry demo/web 2', /Retried by/);
    expect(seen.text).toContain('Kept up to date at each stage');
    // Its unit tests fail again.
    await stepUntilDone();
    const dms = posted(ALICE_DM);
    expect(dms).toHaveLength(1);
    const dm = dms[0] as FakeMessage;
    expect(messageText(dm)).toMatch(/Pipeline #2 on `chore\/webpack-5`> failed/);
    expect(messageText(dm)).toMatch(/:x: <[^|]+\/-\/jobs\/\d+\|unit-tests> \(test\)/);
    // Why it failed, under the failed job, with its Trace.
    expect(messageText(dm)).toContain('AssertionError: expected 59.96 to be 59.97 // Object.is equality');
    expect(messageText(dm)).toContain("from vitest's failed tests");
    expect(buttonsOf(dm).map((b) => b.text)).toEqual(['Retry', 'Trace']);
    // Its Retry retries the failed job, with the token of whoever clicks it.
    const from = h.calls().length;
    await h.click('alice', buttonOf(dm, /^Retry$/));
    await h.waitForCalls((c) => c.slice(from).some((r) => r.method === 'POST' && /\/jobs\/\d+\/retry$/.test(r.path)));
  });

  it('/gl pipeline <id> --follow and /gl job <id> --follow follow what they show; a finished one is not followed', async () => {
    const run = await h.ask('bob', 'pipeline run demo/web main', /Started by/);
    const id = pipelineIdOf(run.text);
    await h.bot.engine.run('DELETE FROM follows');
    const followed = await h.ask('alice', `pipeline demo/web ${id} --follow`, /Pipeline #/);
    expect(followed.text).toContain('Kept up to date');
    await step();
    const jobs = (await (await h.api('alice', `projects/demo%2Fweb/pipelines/${id}/jobs`)).json()) as {
      id: number;
      status: string;
    }[];
    const job = jobs.find((j) => j.status === 'running') ?? jobs[0];
    const jobCard = await h.ask('alice', `job demo/web ${job?.id} --follow`, /Job #|compile/);
    expect(jobCard.text).toContain('Kept up to date');
    expect(await h.bot.bot.follows.store.countActive()).toBe(2);
    await stepUntilDone();
    const dms = posted(ALICE_DM).map(messageText);
    expect(dms).toHaveLength(2);
    expect(dms.some((t) => /Job #\d+ `compile` on `main`> passed/.test(t))).toBe(true);
    expect(dms.some((t) => new RegExp(`Pipeline #${id} on \`main\`> passed`).test(t))).toBe(true);
    expect(posted(BOB_DM)).toHaveLength(0);

    const done = await h.ask('alice', `pipeline demo/web ${id} --follow`, /Pipeline #/);
    expect(done.text).not.toContain('Kept up to date');
    expect(done.text).toContain('Already finished (success): there is nothing to follow.');
    expect(await h.bot.bot.follows.store.countActive()).toBe(0);
  });

  it('typed /gl job retry and /gl job play follow the new job as the buttons do', async () => {
    await h.bot.engine.run('DELETE FROM follows');
    const retried = await h.ask('bob', 'job retry demo/web 8', /Retried by/);
    expect(retried.text).toContain('Kept up to date at each stage');
    const newJob = Number(/Job #(\d+)/.exec(retried.text)?.[1]);
    expect(newJob).toBeGreaterThan(8);
    const played = await h.ask('alice', 'job play demo/web 13', /Started by/);
    expect(played.text).toContain('Kept up to date at each stage');
    expect(await h.bot.bot.follows.store.countActive()).toBe(2);
    await stepUntilDone();
    expect(posted(BOB_DM).map(messageText)).toContainEqual(expect.stringMatching(new RegExp(`Job #${newJob} `)));
    expect(posted(ALICE_DM).map(messageText)).toContainEqual(expect.stringMatching(/Job #13 /));
  });
});

describe('the DM at the end of following a failed job', () => {
  it('says why it failed and offers Retry for that job, which retries it as whoever clicks', async () => {
    await h.bot.engine.run('DELETE FROM follows');
    const retried = await h.ask('bob', 'job retry demo/web 8', /Retried by/);
    const newJob = Number(/Job #(\d+)/.exec(retried.text)?.[1]);
    await stepUntilDone();
    const [dm] = posted(BOB_DM);
    const text = messageText(dm as FakeMessage);
    expect(text).toMatch(new RegExp(`Job #${newJob} \`unit-tests\` on \`chore/webpack-5\`> failed`));
    expect(text).toContain('*Why it failed*');
    expect(text).toContain('AssertionError: expected 59.96 to be 59.97 // Object.is equality');
    expect(text).toContain("from vitest's failed tests");
    expect(buttonsOf(dm as FakeMessage).map((b) => b.text)).toEqual(['Trace', 'Retry']);
    // Alice clicks the Retry in Bob's DM: the job is retried with her token, not the follower's.
    const from = h.calls().length;
    const click = await h.press('alice', buttonOf(dm as FakeMessage, /^Retry$/), /Retried by/);
    expect(h.calls(from).filter((c) => c.method === 'POST')).toEqual([
      expect.objectContaining({ path: `${WEB}/jobs/${newJob}/retry`, user: 'alice', status: 201 }),
    ]);
    expect(click.text).toContain('Retried by <@U0ALICE>');
  });
});

describe('a shared card', () => {
  it('--share posts the card in the channel and redraws it with chat.update only when it changed, at most every few seconds', async () => {
    const from = h.bot.fake.lastSeq;
    const it = await h.command('alice', 'pipeline run demo/web main --share', { channel: 'C0FOLLOW' });
    const post = await it.waitForMessage((t) => /Pipeline #\d+ · main/.test(t));
    expect(post?.ephemeral).toBe(false);
    expect(post?.channel).toBe('C0FOLLOW');
    expect(messageText(post as FakeMessage)).toContain('Kept up to date until it finishes');
    await following(1);
    const updates = () => records(from, (r) => r.method === 'chat.update' && r.ok).length;

    // Changed, and the card was drawn longer ago than the pace: redrawn.
    h.clock.advance(SHARE_EVERY_MS);
    await step({ ms: 0 });
    expect(updates()).toBe(1);
    // Nothing changed: not redrawn.
    await step({ tick: false });
    expect(updates()).toBe(1);
    // Changed again, but within the pace: it waits for it, and is redrawn once it has passed.
    await step();
    expect(updates()).toBe(1);
    h.clock.advance(SHARE_EVERY_MS);
    await h.bot.bot.follows.pollDue();
    expect(updates()).toBe(2);

    for (let i = 0; i < 12 && (await h.bot.bot.follows.store.countActive()) > 0; i++)
      await step({ ms: SHARE_EVERY_MS });
    expect(await h.bot.bot.follows.store.countActive()).toBe(0);
    const card = messageText(post as FakeMessage);
    expect(card).toMatch(/\*Status\*\n:white_check_mark: success/);
    expect(card).toContain('Finished; no longer followed.');
    expect(posted(ALICE_DM)).toHaveLength(1);
    // The channel's card is the only post there: redrawn in place, never posted again.
    expect(posted('C0FOLLOW')).toHaveLength(1);
  });

  it('a Retry click on a job card follows the new job; a Play click follows the started job', async () => {
    const card = await h.ask('alice', 'job demo/web 8 --share', /unit-tests/, { channel: 'C0FOLLOW' });
    const retried = await h.press('bob', buttonOf(card, /^Retry$/), /Retried by/);
    expect(retried.text).toContain('Kept up to date');
    const newJob = Number(/Job #(\d+)/.exec(retried.text)?.[1]);
    expect(newJob).toBeGreaterThan(8);

    const manual = await h.ask('alice', 'job demo/web 13', /Play/);
    const played = await h.press('alice', buttonOf(manual, /^Play$/), /Started by/);
    expect(played.message.ephemeral).toBe(true);
    expect(played.text).toContain('Kept up to date at each stage');
    expect(await h.bot.bot.follows.store.countActive()).toBe(2);

    const from = h.calls().length;
    await stepUntilDone();
    // Each follow reads with the token of the person who clicked.
    const reads = h.calls(from);
    expect(reads.filter((r) => r.path === `${WEB}/jobs/${newJob}`).every((r) => r.user === 'bob')).toBe(true);
    expect(reads.filter((r) => r.path === `${WEB}/jobs/13`).every((r) => r.user === 'alice')).toBe(true);
    expect(posted(BOB_DM).map(messageText)).toEqual([expect.stringMatching(new RegExp(`Job #${newJob} `))]);
    expect(posted(ALICE_DM).map(messageText)).toEqual([expect.stringMatching(/Job #13 /)]);
    // The shared card was redrawn in place with chat.update.
    expect(messageText(retried.message)).toContain('Finished; no longer followed.');
    expect(retried.message.key).toBe(card.message.key);
  });

  it('a Retry click on a pipeline card follows the pipeline', async () => {
    const card = await h.ask('alice', 'pipeline demo/web 2', /Pipeline #2 /);
    const retried = await h.press('alice', buttonOf(card, /^Retry$/), /Retried by/);
    expect(retried.text).toContain('Kept up to date');
    await stepUntilDone();
    expect(posted(ALICE_DM).map(messageText)).toEqual([expect.stringMatching(/Pipeline #2 on /)]);
  });
});

describe('the times of a shared card (issue 47)', () => {
  // One card in a channel, redrawn by alice (Europe/Berlin), by bob (America/New_York) and by the follow: its
  // times are Slack's date markup, which each reader's client draws in their own zone, and the same text each time.
  const created = (text: string) =>
    /\*Created\*\n(<!date\^\d+\^\{date_short_pretty\} \{time\}\|[^>]*>)/.exec(text)?.[1];

  it('are the same text whoever redraws it, in whatever zone, and in the follow’s redraws', async () => {
    const card = await h.ask('alice', 'pipeline demo/web 2 --share', /Pipeline #2 /, { channel: 'C0ZONES' });
    const first = created(card.text);
    expect(first).toMatch(/\|\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC>$/);

    const retried = await h.press('alice', buttonOf(card, /^Retry$/), /Retried by <@U0ALICE>/);
    expect(retried.message.key).toBe(card.message.key);
    expect(created(retried.text)).toBe(first);

    const from = h.bot.fake.lastSeq;
    const canceled = await h.press('bob', buttonOf(retried, /^Cancel$/), /Canceled by <@U0BOB>/);
    expect(canceled.message.key).toBe(card.message.key);
    expect(created(canceled.text)).toBe(first);

    await stepUntilDone();
    const updates = records(from, (r) => r.method === 'chat.update' && r.ok);
    expect(updates.length).toBeGreaterThan(0);
    const redrawn = messageText(card.message);
    expect(redrawn).toContain('no longer followed');
    expect(created(redrawn)).toBe(first);
    // Nobody's zone is written on it: no time in Berlin's or New York's hours, only the markup's UTC fallback.
    expect(redrawn).not.toMatch(/Europe\/Berlin|America\/New_York/);
  });
});

describe('when following stops early', () => {
  it('stops after an hour with a DM saying it is still running', async () => {
    const from = h.bot.fake.lastSeq;
    const seen = await h.ask('alice', 'pipeline run demo/web main', /Started by/);
    const id = pipelineIdOf(seen.text);
    await step({ tick: false });
    h.clock.advance(60 * 60 * 1000);
    await step({ tick: false });
    expect(await h.bot.bot.follows.store.countActive()).toBe(0);
    expect(posted(ALICE_DM).map(messageText)).toEqual([
      expect.stringContaining(
        `Stopped following <${h.sim.url}/demo/web/pipelines/${id}|Pipeline #${id} on \`main\`>: an hour has passed`,
      ),
    ]);
    // Slack's 30 minutes of the response_url are long over: the card is left as it was, the DM says it all.
    expect(records(from, (r) => r.kind === 'response_url' && r.body.replace_original === true)).toEqual([]);
    expect(messageText(seen.message)).toContain('Kept up to date at each stage');
  });

  it('pauses when the server refuses the follower’s token, says so once, asks again after 1, 2, 4 minutes, and goes on when it is accepted', async () => {
    await h.ask('alice', 'pipeline run demo/web main', /Started by/);
    h.sim.revoke('alice');
    try {
      await step();
      expect(await h.bot.bot.follows.store.countActive()).toBe(1);
      const dms = () => posted(ALICE_DM).map(messageText);
      expect(dms()).toEqual([
        expect.stringContaining('so following is paused until the server accepts your token again'),
      ]);
      expect(dms()[0]).not.toContain('connect again');
      expect(dms()[0]).toContain('the bot asks it again by itself (after 1, 2, 4… minutes)');
      // The loop sees the paused follower at its next look (the first wait starts), then asks the server about the
      // token, still refused, each time twice as long after: no read of the pipeline meanwhile, and no second DM.
      const askedAt: number[] = [];
      for (let s = 30; s <= 9 * 60; s += 30) {
        const before = h.calls().length;
        await step({ tick: false, ms: 30_000 });
        const calls = h.calls(before);
        expect(calls.filter((c) => c.path.includes('/pipelines/'))).toEqual([]);
        if (calls.length > 0) askedAt.push(s);
      }
      expect(askedAt).toEqual([90, 150, 270, 510]);
      expect(dms()).toHaveLength(1);
      // Accepted again: the next re-check (8 minutes after the last) makes the follow due in the same look, and it
      // goes on to its end, told once.
      h.sim.revoke('alice', { restore: true });
      h.clock.advance(8 * 60_000 - 30_000);
      const resumedFrom = h.calls().length;
      await step({ tick: false, ms: 30_000 });
      expect(h.calls(resumedFrom).some((c) => c.path.includes('/pipelines/'))).toBe(true);
      await stepUntilDone();
      expect(dms()).toEqual([
        expect.stringContaining('so following is paused until the server accepts your token again'),
        expect.stringMatching(/Pipeline #\d+ on `main`/),
      ]);
    } finally {
      h.sim.revoke('alice', { restore: true });
      await h.bot.tokens.save({
        teamId: 'T0TEST',
        userId: 'U0ALICE',
        token: 'sim-alice-token',
        serverUrl: h.sim.url,
        verifiedAt: h.clock.now(),
        username: 'alice',
      });
    }
  });
  it('reads a follow whose token stays refused once more at its deadline, and stops it then with one DM', async () => {
    await h.ask('alice', 'pipeline run demo/web main', /Started by/);
    h.sim.revoke('alice');
    try {
      await step();
      const dms = () => posted(ALICE_DM).map(messageText);
      expect(dms()).toHaveLength(1);
      // Re-checked, still refused, until the hour is nearly up: the follow waits; at its deadline it stops.
      for (let m = 0; m < 59; m++) await step({ tick: false, ms: 60_000 });
      expect(await h.bot.bot.follows.store.countActive()).toBe(1);
      await step({ tick: false, ms: 60_000 });
      expect(await h.bot.bot.follows.store.countActive()).toBe(0);
      expect(dms()).toEqual([
        expect.stringContaining('so following is paused until the server accepts your token again'),
        expect.stringContaining('the server refused your token (401)'),
      ]);
      expect(dms()[1]).toContain('Stopped following');
    } finally {
      h.sim.revoke('alice', { restore: true });
      await h.bot.tokens.save({
        teamId: 'T0TEST',
        userId: 'U0ALICE',
        token: 'sim-alice-token',
        serverUrl: h.sim.url,
        verifiedAt: h.clock.now(),
        username: 'alice',
      });
    }
  });
});

describe('the words', () => {
  it('refuses --share on a write that does not follow, and --follow where it does not go, with a clear message', async () => {
    const cancel = await h.ask('alice', 'pipeline cancel demo/web 7 --share', /--share/);
    expect(cancel.text).toContain('`--share` only goes with commands that read');
    const list = await h.ask('alice', 'pipelines demo/web --follow', /--follow/);
    expect(list.text).toMatch(/--follow/);
    expect(h.calls()).toEqual([]);
    expect(await h.bot.bot.follows.store.countActive()).toBe(0);
  });

  it('help shows --follow and --share where they go', async () => {
    const help = await h.ask('alice', 'help pipeline', /pipeline/);
    expect(help.text).toContain('--follow');
    expect(help.text).toContain('post the card in the channel, where it keeps itself up to date');
  });
});

it('reads nothing more than a command would when nothing is followed', async () => {
  expect(await step()).toBe(0);
  expect(h.calls()).toEqual([]);
});
