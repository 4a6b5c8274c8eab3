import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransport } from '../../../src/gitlab/http.js';
import { createWorkTurns } from '../../../src/slack/transport/turns.js';
import { findUnreadable } from '../../support/slack-checks.js';
import { type Interaction, messageText } from '../../support/slack-driver.js';
import type { PersonName } from '../../support/start-app.js';
import { useCiBot } from '../ci/harness.js';

// Load and faults, functional (nothing here measures time): 500 commands, 100 in flight, against a
// simulator that answers one call in five with 500, 502, 503 or 429 (with Retry-After) and slows one in
// twenty by half a second. Every command is acknowledged, every person answered exactly once with a
// sentence, nothing is rejected unhandled, and no write reaches the server twice.

// The app's own transport (its retries and work turns), except that the wait before a retry (a server's Retry-After,
// a back-off step) is spent at once: the same attempts in the same order, without seconds of sleeping.
const turns = createWorkTurns();
const h = useCiBot({
  transport: (baseUrl) => createTransport({ baseUrl, nextTurn: () => turns.next(), sleep: async () => {} }),
});

const COMMANDS = 500;
const IN_FLIGHT = 100;
const PEOPLE: PersonName[] = ['alice', 'bob', 'root', 'eve'];

/** The mix: reads of each CI noun, and writes whose body names the command that sent them. */
const KINDS: ((i: number) => string)[] = [
  () => 'jobs demo/web',
  () => 'job demo/web 8',
  () => 'pipelines demo/web --status failed',
  (i) => `schedule create demo/web "load ${i}" main "0 2 * * *"`,
  () => 'schedules demo/web',
  () => 'job trace demo/web 8 --lines 20',
  () => 'deployments demo/web',
  (i) => `schedule create demo/web "load ${i}" main "30 3 * * 1-5"`,
];

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => {
  unhandled.push(reason);
};
beforeAll(() => {
  process.on('unhandledRejection', onUnhandled);
});
afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
});

describe('500 commands, 100 in flight, against a failing and slow server', () => {
  it('acks every command, answers each once with a sentence, and sends no write twice', async () => {
    h.sim.setFaults({
      errorRate: 0.2,
      errorStatuses: [500, 502, 503, 429],
      retryAfter: 1,
      spikeRate: 0.05,
      spikeMs: 500,
    });
    const sent: { i: number; channel: string; text: string; it: Interaction }[] = [];
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < COMMANDS; i = next++) {
        // A channel per command: what reaches it is that command's answer and nothing else's.
        const channel = `C0LOAD${i}`;
        const text = (KINDS[i % KINDS.length] as (i: number) => string)(i);
        const person = PEOPLE[Math.floor(i / KINDS.length) % PEOPLE.length] as PersonName;
        const it = await h.command(person, text, { channel });
        sent.push({ i, channel, text, it });
        await it.waitForMessage(() => true, 60_000);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    // Everything the bot started has finished: a second answer would have arrived by now.
    for (let i = 0; h.bot.bot.inFlight() > 0; i++) {
      if (i > 6000) expect.fail('the bot never finished');
      await new Promise((r) => setTimeout(r, 10));
    }
    h.sim.setFaults({});

    expect(sent).toHaveLength(COMMANDS);
    expect(sent.filter((s) => s.it.ack.status !== 200)).toEqual([]);
    const messages = [...h.bot.fake.messages.values()];
    const problems: string[] = [];
    for (const s of sent) {
      const answers = messages.filter((m) => m.channel === s.channel && !m.deleted);
      if (answers.length !== 1) {
        problems.push(`#${s.i} ${s.text}: ${answers.length} answers`);
        continue;
      }
      const said = messageText(answers[0] as { text?: string; blocks?: unknown[] });
      if (!/\w/.test(said)) problems.push(`#${s.i} ${s.text}: an empty answer`);
      if (/Something went wrong/.test(said)) problems.push(`#${s.i} ${s.text}: ${said.slice(0, 200)}`);
      for (const u of findUnreadable(said)) problems.push(`#${s.i} ${s.text}: shows ${u}`);
    }
    expect(problems).toEqual([]);
    expect(unhandled).toEqual([]);
    expect(h.bot.logs.filter((l) => /unexpected error|unhandled/i.test(l))).toEqual([]);

    // No write reached the server twice: each schedule's description is its command's own, and only a 429
    // (which says the write was not done) may be followed by another attempt.
    const writes = h.calls().filter((c) => c.method !== 'GET' && c.status !== 429);
    const seen = new Map<string, number>();
    for (const w of writes) {
      const key = `${w.method} ${w.path} ${JSON.stringify(w.body)}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    expect([...seen].filter(([, n]) => n > 1)).toEqual([]);
    // The faults did happen, and some writes got through.
    const statuses = new Set(h.calls().map((c) => c.status));
    for (const s of [500, 502, 503, 429, 201]) expect(statuses).toContain(s);
  }, 180_000);
});
