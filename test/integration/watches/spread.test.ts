import { describe, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';
import { useBot } from '../../support/app-harness.js';

// How watch polls fall in time, through the whole app on the test's clock: each watch keeps its own place in the
// minute (when it was made), so watches made at different moments are polled at different moments, once a minute;
// and when the server is too slow, every watch is polled in turn, and how far behind is said between batches
// of a long cycle, once a minute, not once per poll nor only when the cycle ends.

const MINUTE = 60_000;
/** While above 0, each call to the server takes `slowMs` on the test's clock (a slow server). */
let slowMs = 0;
let slowCalls = 0;
const h = useBot({
  watches: { timer: 'manual', channelIntervalMs: 0, concurrency: 1, batch: 2 },
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

async function watchIn(channel: string): Promise<number> {
  const made = await h.ask('alice', 'watch pipelines demo/web', /Watch #\d+/, { channel });
  return Number(/Watch #(\d+)/.exec(made.text)?.[1]);
}

async function removeAll() {
  for (const { id } of h.bot.db.prepare('SELECT id FROM watches').all() as { id: number }[]) {
    await h.bot.bot.watches.remove(id);
  }
}

describe('watch polls over the minute', () => {
  it('polls each watch once a minute at its own moment, spread across the minute', async () => {
    h.clock.set('2026-03-02T10:00:00.000Z');
    const ids: number[] = [];
    for (const [i, channel] of ['C0WSPR1', 'C0WSPR2', 'C0WSPR3'].entries()) {
      if (i > 0) h.clock.advance(20_000);
      ids.push(await watchIn(channel));
    }
    const start = new Date('2026-03-02T10:00:00.000Z').getTime();
    const polledAt = new Map<number, number[]>(ids.map((id) => [id, []]));
    for (let step = 0; step < 36; step++) {
      h.clock.advance(5000);
      const before = new Map(
        (h.bot.db.prepare('SELECT id, last_poll_at FROM watches').all() as { id: number; last_poll_at: string }[]).map(
          (r) => [r.id, r.last_poll_at],
        ),
      );
      await h.bot.bot.watches.poll();
      for (const r of h.bot.db.prepare('SELECT id, last_poll_at FROM watches').all() as {
        id: number;
        last_poll_at: string | null;
      }[]) {
        if (r.last_poll_at && r.last_poll_at !== before.get(r.id)) polledAt.get(r.id)?.push(h.clock.now().getTime());
      }
    }
    // Made 20 s apart, polled 20 s apart: at 60 s, 80 s and 100 s after the first was made, then a minute later.
    expect(ids.map((id) => polledAt.get(id)?.map((t) => (t - start) / 1000))).toEqual([
      [60, 120, 180],
      [80, 140, 200],
      [100, 160, 220],
    ]);
    await removeAll();
  });

  it('when the server is too slow, polls every watch in turn and says how far behind between batches', async () => {
    h.clock.set('2026-03-02T12:00:00.000Z');
    for (const channel of ['C0WSLO1', 'C0WSLO2', 'C0WSLO3', 'C0WSLO4']) await watchIn(channel);
    h.clock.advance(2 * MINUTE);
    const from = h.bot.logs.length;
    const lines = () => h.bot.logs.slice(from).filter((l) => l.includes('watch polls are behind'));
    // Each read takes 40 s: two batches of two take 160 s.
    slowMs = 40_000;
    slowCalls = 4;
    const cycle = await h.bot.bot.watches.poll();
    expect(slowCalls).toBe(0);
    // All four once (160 s), then the two polled first, due again meanwhile, before the cycle ends: in turn.
    expect(cycle.polled).toBe(6);
    // One line after the first batch (a minute had turned) and one after the second: each says what its minute saw.
    expect(lines()).toHaveLength(2);
    expect(lines()[0]).toContain('"behind":2');
    expect(lines()[1]).toContain('"behind":2');
    // Back on time, nothing more is said and nobody is polled before their next moment.
    expect((await h.bot.bot.watches.poll()).polled).toBe(0);
    expect(lines()).toHaveLength(2);
    await removeAll();
  });
});
