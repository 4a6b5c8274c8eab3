import { describe, expect, it } from 'vitest';
import { offsetOf } from '../../../src/alerts/spread.js';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';
import { useBot } from '../../support/app-harness.js';
import { TOKENS } from '../../support/start-sim.js';

// How todo alert polls fall in time, through the whole app on the test's clock: each person at an offset of their
// own in the minute (not everyone at its start), once a minute; and when the server is too slow for the minute,
// everyone is polled less often, in turn, nobody twice before the others and nobody left out.

const MINUTE = 60_000;
/** While set, every call to the server takes this long on the test's clock (a slow server). */
let slowMs = 0;
let slowCalls = 0;
const h = useBot({
  alerts: { timer: 'manual', channelIntervalMs: 0, concurrency: 1, batch: 4 },
  transport: (url): Transport => {
    const inner = createTransport({ baseUrl: url });
    return {
      async request(options) {
        const response = await inner.request(options);
        if (slowCalls > 0) {
          slowCalls -= 1;
          h.clock.advance(slowMs);
        }
        return response;
      },
      get lastRateLimit() {
        return inner.lastRateLimit;
      },
      close: () => inner.close(),
    } as Transport;
  },
});

const TEAM = 'T0TEST';
const poll = () => h.bot.bot.alerts.pollDue();
const todoReads = (from: number) => h.calls(from).filter((c) => c.path === '/api/v4/todos').length;

/** People with alerts on and nothing new to any of them, each with a token of their own row. */
async function people(prefix: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);
  for (const userId of ids) {
    await h.bot.tokens.save({
      teamId: TEAM,
      userId,
      token: TOKENS.alice,
      serverUrl: h.sim.url,
      verifiedAt: h.clock.now(),
      username: 'alice',
    });
    await h.bot.bot.alerts.enable({ teamId: TEAM, userId, actions: ['assigned'], quiet: null, tz: 'UTC' }, 1e9);
  }
  return ids;
}

async function off(ids: string[]) {
  for (const userId of ids) await h.bot.bot.alerts.disable(TEAM, userId);
}

describe('todo alert polls over the minute', () => {
  it('polls each person once a minute at their own offset, spread across the minute, with one call each', async () => {
    h.clock.set('2026-03-02T10:00:00.000Z');
    const ids = await people('U0SPRD', 12);
    // Turned on: polled at once, then each moves into their own slot.
    expect((await poll()).map((p) => p.outcome.kind)).toEqual(Array(12).fill('idle'));
    const polls: { userId: string; at: number }[] = [];
    const from = h.calls().length;
    for (let step = 0; step < 30; step++) {
      h.clock.advance(5000);
      for (const p of await poll()) polls.push({ userId: p.userId, at: h.clock.now().getTime() });
    }
    // Nobody is polled again within half a minute of being turned on.
    const start = new Date('2026-03-02T10:00:00.000Z').getTime();
    expect(polls.filter((p) => p.at - start <= 30_000)).toEqual([]);
    // In the last full minute (90 s to 150 s) everyone once, in the 5 s step that holds their offset.
    const minute = polls.filter((p) => p.at - start > 90_000 && p.at - start <= 150_000);
    expect(minute.map((p) => p.userId).sort()).toEqual([...ids].sort());
    for (const p of minute) {
      const late = (((p.at - offsetOf(`${TEAM}:${p.userId}`, MINUTE)) % MINUTE) + MINUTE) % MINUTE;
      expect(late).toBeLessThan(5000);
    }
    // Spread: the minute's polls fall in many different steps, not all at its start.
    expect(new Set(minute.map((p) => p.at)).size).toBeGreaterThanOrEqual(5);
    // One read per poll.
    expect(todoReads(from)).toBe(polls.length);
    await off(ids);
  });

  it('when the server is too slow for the minute, polls everyone in turn, less often, and says so once a minute', async () => {
    h.clock.set('2026-03-02T12:00:00.000Z');
    const ids = await people('U0SLOW', 8);
    await poll();
    h.clock.advance(2 * MINUTE);
    const logFrom = h.bot.logs.length;
    // The server answers each call 20 s late for 32 calls: the 8 people take 160 s of the clock per round.
    slowMs = 20_000;
    slowCalls = 32;
    const polled = (await poll()).map((p) => p.userId);
    expect(slowCalls).toBe(0);
    // Said once a minute at most while behind (about 11 minutes of the clock), not once per poll.
    const lines = () => h.bot.logs.slice(logFrom).filter((l) => l.includes('todo alert polls are behind'));
    const said = lines().length;
    expect(said).toBeGreaterThanOrEqual(1);
    expect(said).toBeLessThanOrEqual(12);
    expect(lines()[0]).toMatch(/"overdue":\d/);
    // Each round polls everyone once before anyone a second time: nobody starved, nobody ahead of the others.
    const slowPhase = polled.slice(0, 32);
    for (let round = 0; round < 4; round++) {
      expect(slowPhase.slice(round * 8, round * 8 + 8).sort()).toEqual([...ids].sort());
    }
    // Back on time: nothing more is said, and each pass polls each person at most once.
    await poll();
    h.clock.advance(MINUTE);
    await poll();
    expect(lines()).toHaveLength(said);
    h.clock.advance(MINUTE);
    const counted = new Map<string, number>();
    for (const p of await poll()) counted.set(p.userId, (counted.get(p.userId) ?? 0) + 1);
    expect([...counted.values()].every((n) => n <= 1)).toBe(true);
    await off(ids);
  });
});
