import { beforeEach, describe, expect, it } from 'vitest';
import { createTransport, type RequestOptions, type ResponseKind, type Transport } from '../../../src/gitlab/http.js';
import { createLogger } from '../../../src/log.js';
import { expectNoUnexpectedErrors, expectWithinLimits } from '../../support/slack-checks.js';
import { buttonsOf } from '../../support/slack-driver.js';
import { PEOPLE, startApp } from '../../support/start-app.js';
import { startSim, TOKENS } from '../../support/start-sim.js';
import { buttonOf, call, useCiBot, WEB } from './harness.js';

// What goes wrong reaches the person as a sentence that says what happened and what to do:
// every status of ARCHITECTURE §4's table that CI can meet, timeouts, rate limits, a server
// that is down, people without (valid) tokens, and buttons that are stale or forged.

/** Waits the transport took between attempts, as its 'gitlab retry' log lines name them (spent at once here). */
const waits: number[] = [];
const logger = createLogger({
  level: 'debug',
  sink: (line) => {
    const entry = JSON.parse(line) as { msg: string; waitMs?: number };
    if (entry.msg === 'gitlab retry') waits.push(entry.waitMs as number);
  },
});
let fast: Transport;
let short: Transport;
let active: 'fast' | 'short' = 'fast';

/** One transport for the bot, switched per test: a short timeout only where a test wants timeouts. */
const switching: Transport = {
  request<K extends ResponseKind = 'json'>(r: RequestOptions<K>) {
    return (active === 'fast' ? fast : short).request(r);
  },
  get lastRateLimit() {
    return fast.lastRateLimit;
  },
  close() {
    fast.close();
    short.close();
  },
};

const h = useCiBot({
  transport: (baseUrl) => {
    // A retry's wait is logged, then spent at once: no test sleeps a server's Retry-After.
    const sleep = async () => {};
    fast = createTransport({ baseUrl, retry: { limit: 1, maxTotalMs: 3000 }, logger, sleep });
    short = createTransport({ baseUrl, timeoutMs: 200, retry: { limit: 1, maxTotalMs: 3000 }, logger, sleep });
    return switching;
  },
});

beforeEach(() => {
  waits.length = 0;
  active = 'fast';
});

const UNAVAILABLE = (url: string, why: string) =>
  `The server at ${url} is unavailable: it ${why}. Try again in a minute; if it lasts, tell whoever runs it.`;

describe('statuses of the error table', () => {
  const statuses: [number, RegExp, number][] = [
    [403, /You don't have permission for that \(403\), or it is not possible in its current state\./, 1],
    [404, /Job #8 in demo\/web was not found, or you have no access to it \(404\)\. Check the name/, 1],
    [500, /is unavailable: it answered 500\. Try again in a minute/, 1],
    [502, /is unavailable: it answered 502\. Try again in a minute/, 2],
    [503, /is unavailable: it answered 503\. Try again in a minute/, 2],
  ];

  it.each(statuses)(
    'turns a %i on a read into a sentence (retried only when it may help)',
    async (status, words, n) => {
      h.sim.setFaults({ errorRate: 1, errorStatus: status });
      const seen = await h.ask('alice', 'job demo/web 8', words);
      expect(h.calls()).toEqual(Array.from({ length: n }, () => call('GET', `${WEB}/jobs/8`, 'alice', { status })));
      expect(seen.message).toMatchObject({ ephemeral: true, visibleTo: 'U0ALICE' });
      expect(seen.it.messages()).toHaveLength(1);
      expectWithinLimits(seen.it);
    },
  );

  const onRetry: [number, RegExp][] = [
    [
      403,
      /Job #8 in demo\/web cannot be retried: only finished jobs can, and only by developers of the project \(403\)\./,
    ],
    [404, /Job #8 in demo\/web was not found, or you have no access to it \(404\)/],
    [500, /is unavailable: it answered 500/],
    [502, /is unavailable: it answered 502/],
    [503, /is unavailable: it answered 503/],
  ];

  it.each(onRetry)('turns a %i on a button into a sentence and leaves the card as it was', async (status, words) => {
    const card = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    const drawn = h.calls().length; // the first card of a failed job also reads why it failed, then keeps it
    h.sim.setFaults({ errorRate: 1, errorStatus: status });
    const seen = await h.press('alice', buttonOf(card, /^Retry$/), words);
    // A POST is not repeated on a server error: it may have been done. A refused one is looked into
    // (was the card out of date?), and the refusal stands when the job as it is now cannot be read either.
    const lookedInto = status === 403 ? [call('GET', `${WEB}/jobs/8`, 'alice', { status })] : [];
    expect(h.calls(drawn)).toEqual([call('POST', `${WEB}/jobs/8/retry`, 'alice', { status }), ...lookedInto]);
    expect(seen.message.key).not.toBe(card.message.key);
    expect(h.bot.fake.messages.get(card.message.key)?.version).toBe(1);
  });

  it('retries a 429 after its Retry-After, then says the server is rate limiting', async () => {
    h.sim.setFaults({ errorRate: 1, errorStatus: 429, retryAfter: 1 });
    const seen = await h.ask('alice', 'job demo/web 8', /rate limiting/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/jobs/8`, 'alice', { status: 429 }),
      call('GET', `${WEB}/jobs/8`, 'alice', { status: 429 }),
    ]);
    expect(waits).toEqual([1000]);
    expect(seen.text).toContain(
      'The server is rate limiting requests (429); the bot retried 1 time and gave up. Try again in 1 s.',
    );

    h.sim.setFaults({});
    const card = await h.ask('bob', 'job demo/web 13', /Job #13 /);
    h.sim.setFaults({ errorRate: 1, errorStatus: 429, retryAfter: 2 });
    const click = await h.press('bob', buttonOf(card, /^Play$/), /rate limiting/);
    // 429 means the server did not act: even a POST is tried again.
    expect(waits).toEqual([1000, 2000]);
    expect(h.calls(3)).toEqual([
      call('POST', `${WEB}/jobs/13/play`, 'bob', { status: 429 }),
      call('POST', `${WEB}/jobs/13/play`, 'bob', { status: 429 }),
    ]);
    expect(click.text).toContain('Try again in 2 s.');
  });

  it('says how long to wait when the server asks for a longer wait than a command may take', async () => {
    h.sim.setFaults({ errorRate: 1, errorStatus: 429, retryAfter: 120 });
    const seen = await h.ask('alice', 'job demo/web 8', /rate limiting/);
    // The wait is not taken: it would outlast the command, so the person is told at once.
    expect(h.calls()).toEqual([call('GET', `${WEB}/jobs/8`, 'alice', { status: 429 })]);
    expect(waits).toEqual([]);
    expect(seen.text).toContain(
      'The server is rate limiting requests (429) and asks for a longer wait than a command can take; nothing was done. Try again in 120 s.',
    );
    expect(seen.text).not.toContain('gave up');
  });

  it('acknowledges first, then says the server did not answer in time', async () => {
    active = 'short';
    h.sim.setFaults({ latencyMs: 600 });
    const it = await h.command('alice', 'job demo/web 8');
    expect(it.ack.status).toBe(200);
    // The ack came back while the answer still waited on the server.
    expect(it.records((r) => r.kind === 'response_url')).toEqual([]);
    const seen = await it.waitForMessage((t) => /did not answer in time/.test(t));
    expect(seen?.text).toBe(UNAVAILABLE(h.sim.url, 'did not answer in time'));
    expect(seen?.ephemeral).toBe(true);
    // A read is tried twice; the server logs each once its delay is over.
    const calls = await h.waitForCalls((c) => c.length === 2);
    expect(calls).toEqual([call('GET', `${WEB}/jobs/8`, 'alice'), call('GET', `${WEB}/jobs/8`, 'alice')]);
  });

  it('acknowledges a button first, and does not repeat a POST that timed out', async () => {
    const card = await h.ask('alice', 'job demo/web 8', /Job #8 /);
    const drawn = h.calls().length; // why job 8 failed was read by an earlier card and is kept: the card read the job
    active = 'short';
    h.sim.setFaults({ latencyMs: 600 });
    const click = await h.click('alice', buttonOf(card, /^Retry$/));
    expect(click.ack.status).toBe(200);
    expect(click.records((r) => r.kind === 'response_url')).toEqual([]);
    const seen = await click.waitForMessage((t) => /did not answer in time/.test(t));
    const calls = await h.waitForCalls((c) => c.length === drawn + 1);
    expect(calls.slice(drawn)).toEqual([call('POST', `${WEB}/jobs/8/retry`, 'alice', { status: 201 })]);
    // The server did retry the job after all: "try again" would run it twice.
    expect(seen?.text).toBe(
      `The server at ${h.sim.url} is unavailable: it did not answer in time. The change may have been made anyway: look before you try again.`,
    );
    expect(h.bot.fake.messages.get(card.message.key)?.version).toBe(1);
  });
});

const labels = (m: Parameters<typeof buttonsOf>[0]) => buttonsOf(m).map((b) => b.text);

describe('refusals the server means', () => {
  it('says a job that is not manual cannot be played, from a command and from a stale Play button', async () => {
    const typed = await h.ask('alice', 'job play demo/web 8', /cannot be played/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/jobs/8/play`, 'alice', { status: 400 })]);
    expect(typed.text).toContain('Job #8 in demo/web cannot be played: only manual jobs can be played.');

    // A Play button drawn before someone else started the job: the card is redrawn as the job is now.
    const card = await h.ask('alice', 'job demo/web 13 --share', /Job #13 /);
    const play = buttonOf(card, /^Play$/);
    await h.press('bob', play, /Started by/);
    const again = await h.press('alice', play, /No longer manual/);
    expect(h.calls(1)).toEqual([
      call('GET', `${WEB}/jobs/13`, 'alice'),
      call('POST', `${WEB}/jobs/13/play`, 'bob'),
      call('POST', `${WEB}/jobs/13/play`, 'alice', { status: 400 }),
      call('GET', `${WEB}/jobs/13`, 'alice'),
    ]);
    expect(again.text).toContain('No longer manual: it was started by @bob. Nothing was changed.');
    expect(again.text).toMatch(/\*Status\*\n:large_yellow_circle: pending/);
    expect(again.message.key).toBe(card.message.key);
    expect(labels(again.message)).toEqual(['Cancel', 'Trace', 'Open in GitLab']);
  });

  it('says an unknown job was not found, or there is no access', async () => {
    const seen = await h.ask('alice', 'job retry demo/web 9999', /was not found/);
    expect(h.calls()).toEqual([call('POST', `${WEB}/jobs/9999/retry`, 'alice', { status: 404 })]);
    expect(seen.text).toContain(
      ':mag: Job #9999 in demo/web was not found, or you have no access to it (404). Check the name and your membership.',
    );
  });

  it('does not let eve learn anything about a job of a private project she is not in', async () => {
    const alice = await h.ask('alice', 'job demo/secret 39', /Job #39 /);
    expect(alice.text).toContain('unit-tests');
    const from = h.calls().length;

    const job = await h.ask('eve', 'job demo/secret 39', /was not found/);
    const trace = await h.ask('eve', 'job trace demo/secret 39', /was not found/);
    const list = await h.ask('eve', 'jobs demo/secret', /was not found/);
    expect(h.calls(from)).toEqual([
      call('GET', '/api/v4/projects/demo%2Fsecret/jobs/39', 'eve', { status: 404 }),
      call('GET', '/api/v4/projects/demo%2Fsecret/jobs/39/trace', 'eve', { status: 404 }),
      call('GET', '/api/v4/projects/demo%2Fsecret/jobs', 'eve', { status: 404 }),
    ]);
    expect(job.text).toContain(
      'Job #39 in demo/secret was not found, or you have no access to it (404). Check the name and your membership.',
    );
    expect(list.text).toContain('Project demo/secret was not found, or you have no access to it (404).');
    for (const seen of [job, trace, list]) {
      expect(seen.text).not.toMatch(/unit-tests|failed|compile|Alice|pipeline/i);
      expect(buttonsOf(seen.message)).toEqual([]);
    }
  });

  it("says a guest may not act on a public project's jobs, in words that name the job", async () => {
    const retry = await h.ask('eve', 'job retry demo/web 8', /cannot be retried/);
    const play = await h.ask('eve', 'job play demo/web 13', /cannot be played/);
    const cancel = await h.ask('eve', 'pipeline retry demo/web 2', /cannot be retried/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/jobs/8/retry`, 'eve', { status: 403 }),
      call('POST', `${WEB}/jobs/13/play`, 'eve', { status: 403 }),
      call('POST', `${WEB}/pipelines/2/retry`, 'eve', { status: 403 }),
    ]);
    expect(retry.text).toContain('Job #8 in demo/web cannot be retried');
    expect(retry.text).toContain('(403)');
    expect(play.text).toContain('Job #13 in demo/web cannot be played');
    expect(cancel.text).toContain('Pipeline #2 in demo/web cannot be retried');
  });

  it('tells a guest that schedules and deployments need the Reporter role', async () => {
    const schedules = await h.ask('eve', 'schedules demo/web', /Reporter/);
    const schedule = await h.ask('eve', 'schedule demo/web 1', /Reporter/);
    const deployments = await h.ask('eve', 'deployments demo/web', /Reporter/);
    const deployment = await h.ask('eve', 'deployment demo/web 1', /Reporter/);
    expect(h.calls()).toEqual([
      call('GET', `${WEB}/pipeline_schedules`, 'eve', { status: 403 }),
      call('GET', `${WEB}/pipeline_schedules/1`, 'eve', { status: 403 }),
      call('GET', `${WEB}/deployments`, 'eve', { status: 403 }),
      call('GET', `${WEB}/deployments/1`, 'eve', { status: 403 }),
    ]);
    expect(schedules.text).toContain(
      'You may not see the pipeline schedules of demo/web (403): that needs at least the Reporter role in the project.',
    );
    expect(schedule.text).toContain(
      'You may not see schedule #1 in demo/web (403): that needs at least the Reporter role in the project.',
    );
    expect(deployments.text).toContain(
      'You may not see the deployments of demo/web (403): that needs at least the Reporter role in the project.',
    );
    expect(deployment.text).toContain(
      'You may not see deployment 1 in demo/web (403): that needs at least the Reporter role in the project.',
    );
  });

  it('says why a pipeline cannot start on a ref that does not exist', async () => {
    const seen = await h.ask('alice', 'pipeline run demo/web no-such-branch', /no branch or tag/);
    expect(h.calls()).toEqual([
      call('POST', `${WEB}/pipeline`, 'alice', { body: { ref: 'no-such-branch' }, status: 400 }),
    ]);
    // Named, not the server's raw 400 ("base Reference not found"): issue 29.
    expect(seen.text).toContain('demo/web has no branch or tag `no-such-branch` (400), so no pipeline was started.');
  });
});

describe('people without a usable token', () => {
  it('gives a clicker without a token the connect prompt and calls nothing', async () => {
    const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    const seen = await h.press('carol', buttonOf(card, /^Retry$/), /not connected/);
    expect(h.calls(2)).toEqual([]);
    expect(seen.text).toContain("You're not connected yet");
    expect(buttonsOf(seen.message).map((b) => b.text)).toContain('Connect');
    expect(seen.message).toMatchObject({ ephemeral: true, visibleTo: 'U0CAROL' });
    expect(h.bot.fake.messages.get(card.message.key)?.version).toBe(1);
  });

  it('marks a refused token revoked once, asks to reconnect, and then only asks the server about it again', async () => {
    const { tokens } = h.bot;
    await tokens.save({
      teamId: 'T0TEST',
      userId: PEOPLE.eve.id,
      token: 'glpat-revoked-by-an-admin',
      serverUrl: h.sim.url,
      verifiedAt: h.clock.now(),
      username: null,
    });
    try {
      const seen = await h.ask('eve', 'job demo/web 8', /refused/);
      // The 401 is checked with a plain read, and again after a short wait, before the token is called revoked.
      expect(h.calls()).toEqual([
        call('GET', `${WEB}/jobs/8`, null, { status: 401 }),
        call('GET', '/api/v4/todos', null, { query: { per_page: '1' }, status: 401 }),
        call('GET', '/api/v4/todos', null, { query: { per_page: '1' }, status: 401 }),
      ]);
      expect(seen.text).toContain(`Your token was refused by ${h.sim.url}`);
      expect(seen.text).toContain('Connect a new one');
      expect(buttonsOf(seen.message).map((b) => b.text)).toContain('Connect');
      expect((await tokens.find('T0TEST', PEOPLE.eve.id))?.status).toBe('revoked');

      // A token marked revoked is asked about once more on each use (issue 28): one plain read, and nothing else.
      const recheck = call('GET', '/api/v4/todos', null, { query: { per_page: '1' }, status: 401 });
      const again = await h.ask('eve', 'jobs demo/web', /refused/);
      expect(again.it.messages()).toHaveLength(1);
      const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
      await h.press('eve', buttonOf(card, /^Retry$/), /refused/);
      // Why job 8 failed (its trace) was read by an earlier card and is kept.
      expect(h.calls(3)).toEqual([recheck, call('GET', `${WEB}/jobs/8`, 'alice'), recheck]);
      expect(h.bot.logs.filter((l) => l.includes('refused by the server; marked revoked'))).toHaveLength(1);
    } finally {
      await h.bot.connect(PEOPLE.eve, TOKENS.eve);
    }
  });
});

describe('stale and forged buttons', () => {
  const forgeries: [string, (b: ReturnType<typeof buttonOf>) => ReturnType<typeof buttonOf>, RegExp][] = [
    ['a value that is not JSON', (b) => ({ ...b, value: '{"p":"demo/web","j":8' }), /not valid JSON/],
    ['a value of the wrong shape', (b) => ({ ...b, value: '{"p":"demo/web","j":"8; rm -rf"}' }), /expected shape/],
    ['a value with extra keys', (b) => ({ ...b, value: '{"p":"demo/web","j":8,"sudo":true}' }), /expected shape/],
    ['an unknown action', (b) => ({ ...b, action_id: 'gl:job.explode' }), /unknown button "job\.explode"/],
    [
      'a Next page carrying an action instead of a list',
      (b) => ({ ...b, action_id: 'gl:list.page', value: '{"q":"job retry demo/web 8","n":1}' }),
      /cannot be read again/,
    ],
  ];

  it.each(forgeries)('answers %s with "out of date", changes nothing and calls nothing', async (_what, forge, why) => {
    const card = await h.ask('alice', 'job demo/web 8 --share', /Job #8 /);
    const seen = await h.press('bob', forge(buttonOf(card, /^Retry$/)), /out of date/);
    expect(seen.text).toMatch(why);
    expect(seen.text).toContain('Nothing was changed; run the command again for a fresh card.');
    expect(h.calls(2)).toEqual([]);
    expect(h.bot.fake.messages.get(card.message.key)?.version).toBe(1);
    expect(seen.message).toMatchObject({ ephemeral: true, visibleTo: 'U0BOB' });
  });
});

describe('a server that is down', () => {
  it('says it could not be reached, for commands and for buttons, without error codes', async () => {
    const sim = await startSim(h.clock);
    const bot = await startApp({
      gitlabUrl: sim.url,
      now: h.clock.now,
      transport: createTransport({ baseUrl: sim.url, retry: { limit: 1, maxTotalMs: 3000 } }),
    });
    try {
      await bot.connect(PEOPLE.alice, TOKENS.alice);
      const card = await bot.slack.command(PEOPLE.alice, 'job demo/web 8');
      const shown = await card.waitForMessage((t) => /Job #8 /.test(t));
      expect(shown).not.toBeNull();
      const retry = buttonsOf(shown as NonNullable<typeof shown>).find((b) => b.text === 'Retry');
      await sim.close();
      const fromSeq = bot.fake.lastSeq;

      const typed = await bot.slack.command(PEOPLE.alice, 'pipelines demo/web');
      const said = await typed.waitForMessage((t) => /could not be reached/.test(t));
      expect(said?.text).toBe(UNAVAILABLE(sim.url, 'could not be reached'));
      const click = await bot.slack.click(PEOPLE.alice, retry as NonNullable<typeof retry>);
      expect(await click.waitForMessage((t) => /could not be reached/.test(t))).not.toBeNull();

      expectWithinLimits(bot.fake, fromSeq);
      expectNoUnexpectedErrors(bot.logs);
    } finally {
      await bot.stop({ removeData: true });
    }
  });
});
