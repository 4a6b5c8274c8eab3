import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Transport } from '../../src/gitlab/http.js';
import { type FakeClock, fakeClock, TEST_START } from './clock.js';
import { type FakeMessage, type FakeSlack, startFakeSlack } from './fake-slack.js';
import { expectNoUnexpectedErrors, findSurfaceProblems } from './slack-checks.js';
import { buttonsOf, type FoundButton, type Interaction, messageText } from './slack-driver.js';
import { PEOPLE, type PersonName, type StartAppOptions, type StartedApp, startApp } from './start-app.js';
import { type RunningSimulator, startSim, TOKENS } from './start-sim.js';

// The whole app under test, shared by the integration tests: the simulator on the test's clock and the bot wired
// to it and to a fake Slack, started once per test file and stopped after it.
//
// - `useApp()` is only that (and who is connected before the first test): files that look at the app from its
//   edges (receiver, replays, Slack's refusals) take it as it is.
// - `useBot()` adds what every command test owes: everyone of the demo connected, each test starting from the
//   demo data with an empty request log, and ending with the checks that every message fits Slack's limits and
//   reads cleanly, and that nothing went unexpectedly wrong.
// - `useRestartedApps()` is for files about restarts: tests start and stop bots on the same database themselves.

export interface UseAppOptions extends Omit<StartAppOptions, 'gitlabUrl' | 'now' | 'transport'> {
  /** The transport for calls made as people, made once the simulator's URL is known. */
  transport?: (simUrl: string) => Transport;
  /** Who is connected (the real connect flow, with their demo token) before the first test. */
  connected?: readonly (PersonName & keyof typeof TOKENS)[];
  /** The demo data with its four weeks of delivery history in demo/web (what insights chart). */
  history?: boolean;
}

export interface AppUnderTest {
  /** The time of the simulator and the bot alike. */
  clock: FakeClock;
  /** The simulator, once the file's beforeAll has started it. */
  readonly sim: RunningSimulator;
  /** The bot, once the file's beforeAll has started it. */
  readonly bot: StartedApp;
}

/** The simulator and the bot for one test file: started before its tests, stopped (data removed) after them. */
export function useApp(o: UseAppOptions = {}): AppUnderTest {
  const { transport, connected = [], history = false, ...options } = o;
  const clock = fakeClock();
  let sim: RunningSimulator | undefined;
  let bot: StartedApp | undefined;
  beforeAll(async () => {
    sim = await startSim(clock, { history });
    bot = await startApp({
      ...options,
      gitlabUrl: sim.url,
      now: clock.now,
      ...(transport ? { transport: transport(sim.url) } : {}),
    });
    for (const name of connected) {
      const { submission } = await bot.connect(PEOPLE[name], TOKENS[name]);
      expect(submission.ack.json).toMatchObject({ response_action: 'update' });
    }
  });
  afterAll(async () => {
    await bot?.stop({ removeData: true });
    await sim?.close();
  });
  return {
    clock,
    get sim() {
      return sim as RunningSimulator;
    },
    get bot() {
      return bot as StartedApp;
    },
  };
}

export interface Call {
  method: string;
  path: string;
  query: Record<string, unknown>;
  body: Record<string, unknown> | null;
  user: string | null;
  status: number;
}

export interface Seen {
  it: Interaction;
  message: FakeMessage;
  text: string;
}

export interface BotHarness {
  /** The time of the simulator and the bot alike; back at TEST_START before each test. */
  clock: FakeClock;
  sim: RunningSimulator;
  bot: StartedApp;
  /** The simulator's request log since the test began (from entry `from`), without sequence numbers and times. */
  calls(from?: number): Call[];
  /** Reads the simulator directly as a demo user (these reads land in its log too). */
  api(
    person: keyof typeof TOKENS,
    path: string,
    init?: { method?: string; form?: Record<string, string> },
  ): Promise<Response>;
  /** A slash command as `person`; waits for a message whose text matches `until`. */
  ask(person: PersonName, text: string, until: RegExp, o?: { channel?: string }): Promise<Seen>;
  /** A click as `person`; waits for a message (new or redrawn) whose text matches `until`. */
  press(person: PersonName, button: FoundButton, until: RegExp): Promise<Seen>;
  /** Sends a command without waiting for anything but the ack. */
  command(person: PersonName, text: string, o?: { channel?: string }): Promise<Interaction>;
  click(person: PersonName, button: FoundButton): Promise<Interaction>;
  /** Polls the simulator's log until `pred` holds (for calls still under way when the person was answered). */
  waitForCalls(pred: (calls: Call[]) => boolean, timeoutMs?: number): Promise<Call[]>;
  /**
   * Resolves once the bot has no request in flight (each one acknowledged has finished its work): the signal a test
   * waits for before it checks that something did not happen, instead of a real wait of some milliseconds.
   */
  idle(): Promise<void>;
}

/** One entry of the simulator's log as tests expect it: GET answers 200 unless told otherwise. */
export function call(
  method: string,
  path: string,
  user: string | null,
  o: { query?: Record<string, unknown>; body?: Record<string, unknown> | null; status?: number } = {},
): Call {
  return { method, path, query: o.query ?? {}, body: o.body ?? null, user, status: o.status ?? 200 };
}

export const WEB = '/api/v4/projects/demo%2Fweb';

const CONNECTED = ['alice', 'bob', 'eve', 'root'] as const;

/** A button of a message by its label, or a failed expectation that lists the labels there are. */
export function buttonOf(m: { message: FakeMessage } | FakeMessage, label: RegExp): FoundButton {
  const message = 'message' in m ? m.message : m;
  const found = buttonsOf(message).find((b) => label.test(b.text));
  if (!found) {
    expect.fail(
      `no button ${label} on the message; it has ${buttonsOf(message)
        .map((b) => `[${b.text}]`)
        .join(' ')}`,
    );
  }
  return found;
}

/** The text of the confirmation dialog Slack shows before a button runs, or null when it has none. */
export function confirmText(b: FoundButton): string | null {
  const c = b.confirm as { text?: { text?: string } } | undefined;
  return c?.text?.text ?? null;
}

/** The app with everyone of the demo connected, reset before each test and checked after it (see the top). */
export function useBot(o: Omit<UseAppOptions, 'connected'> = {}): BotHarness {
  const app = useApp({ ...o, connected: CONNECTED });
  const { clock } = app;
  let fromSeq = 0;
  let fromLog = 0;
  let interactions: Interaction[] = [];

  const calls = (from = 0): Call[] =>
    app.sim
      .requests()
      .slice(from)
      .map(({ method, path, query, body, user, status }) => ({
        method,
        path,
        query: query as Record<string, unknown>,
        body: body as Record<string, unknown> | null,
        user,
        status,
      }));

  const waitForText = async (it: Interaction, until: RegExp, what: string): Promise<Seen> => {
    const message = await it.waitForMessage((text) => until.test(text));
    if (!message) {
      expect.fail(`${what}: no message matching ${until} arrived; the person saw:\n${it.text() || '(nothing)'}`);
    }
    return { it, message, text: messageText(message) };
  };

  const h: BotHarness = {
    clock,
    get sim() {
      return app.sim;
    },
    get bot() {
      return app.bot;
    },
    calls,
    api(person, path, init = {}) {
      return fetch(`${app.sim.url}/api/v4/${path}`, {
        method: init.method ?? 'GET',
        headers: {
          'PRIVATE-TOKEN': TOKENS[person],
          ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
      });
    },
    async command(person, text, opts = {}) {
      const it = await app.bot.slack.command(PEOPLE[person], text, opts);
      interactions.push(it);
      return it;
    },
    async click(person, button) {
      const it = await app.bot.slack.click(PEOPLE[person], button);
      interactions.push(it);
      return it;
    },
    async ask(person, text, until, opts = {}) {
      return waitForText(await h.command(person, text, opts), until, `${o.slashCommand ?? '/gl'} ${text}`);
    },
    async press(person, button, until) {
      return waitForText(await h.click(person, button), until, `${person} clicking [${button.text}]`);
    },
    async waitForCalls(pred, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const now = calls();
        if (pred(now)) return now;
        if (Date.now() > deadline) expect.fail(`the simulator's log never matched; it has ${JSON.stringify(now)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    async idle() {
      // The deadline only ends a test that would otherwise hang; nothing is decided by how soon the bot is idle.
      const deadline = Date.now() + 15_000;
      while (app.bot.bot.inFlight() > 0) {
        if (Date.now() > deadline) expect.fail(`the bot still has ${app.bot.bot.inFlight()} requests in flight`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    },
  };

  beforeEach(() => {
    clock.set(TEST_START);
    app.sim.reset();
    fromSeq = app.bot.fake.lastSeq;
    fromLog = app.bot.logs.length;
    interactions = [];
  });
  afterEach(() => {
    const { bot } = app;
    // Every command and click was acknowledged (Slack shows an error after 3 s otherwise).
    expect(interactions.map((it) => it.ack.status).filter((s) => s !== 200)).toEqual([]);
    const acks = interactions.flatMap((it) => (it.ackMessage ? [it.ackMessage] : []));
    expect(findSurfaceProblems(bot.fake.since(fromSeq), acks)).toEqual([]);
    expect(interactions.flatMap((it) => it.violations())).toEqual([]);
    expectNoUnexpectedErrors(bot.logs, fromLog);
  });
  return h;
}

export interface RestartedApps {
  /** The time of the simulator and every bot alike; back at TEST_START after each test. */
  clock: FakeClock;
  /** The simulator, once the file's beforeAll has started it. */
  readonly sim: RunningSimulator;
  /** The one fake Slack every bot of the file posts to, so that posts are counted across restarts. */
  readonly fake: FakeSlack;
  /**
   * Starts a bot on the file's simulator, fake Slack and encryption key (a `dataDir` of an earlier one restarts on
   * its database); every bot still running is stopped after each test, and every data directory removed at the end.
   */
  boot(o?: Omit<UseAppOptions, 'connected' | 'transport'> & { transport?: Transport }): Promise<StartedApp>;
  /** Stops a bot before its test ends (its data directory stays for the next boot). */
  stop(app: StartedApp): Promise<void>;
}

/**
 * The app for files about restarts: one simulator and fake Slack, and bots started and stopped by the tests
 * (`history`: the demo data with its four weeks of delivery history, as for useApp).
 */
export function useRestartedApps(o: { history?: boolean } = {}): RestartedApps {
  const clock = fakeClock();
  const encryptionKey = crypto.randomBytes(32).toString('base64');
  let sim: RunningSimulator | undefined;
  let fake: FakeSlack | undefined;
  const running: StartedApp[] = [];
  const dirs = new Set<string>();
  beforeAll(async () => {
    sim = await startSim(clock, { history: o.history ?? false });
    fake = await startFakeSlack(`xoxb-test-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));
  });
  afterEach(async () => {
    for (const app of running.splice(0)) await app.stop();
    clock.set(TEST_START);
    sim?.reset();
  });
  afterAll(async () => {
    await fake?.close();
    await sim?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });
  const apps: RestartedApps = {
    clock,
    get sim() {
      return sim as RunningSimulator;
    },
    get fake() {
      return fake as FakeSlack;
    },
    async boot(o = {}) {
      const app = await startApp({ encryptionKey, ...o, gitlabUrl: apps.sim.url, now: clock.now, fake: apps.fake });
      running.push(app);
      dirs.add(app.dataDir);
      return app;
    },
    async stop(app) {
      running.splice(running.indexOf(app), 1);
      await app.stop();
    },
  };
  return apps;
}
