import { describe, expect, it } from 'vitest';
import type { DeliveredEvent } from '../../../src/delivery/hooks.js';
import { parsePrometheusText, total } from '../../support/prometheus-text.js';
import { useCiBot } from '../ci/harness.js';

// The delivery kernel's hooks, which the metrics bind to (and do: the second case reads them back): every run of a digest is told with its kind and outcome,
// a post with its lag from the slot it was due at; the leases held and the queue of runs come back to zero.

const delivered: DeliveredEvent[] = [];
const held: number[] = [];
const queued: number[] = [];
const h = useCiBot({
  digests: { timer: 'manual' },
  deliveryHooks: {
    delivered: (e) => delivered.push(e),
    leasesHeld: (e) => held.push(e.held),
    queueDepth: (e) => queued.push(e.depth),
  },
});

describe('the delivery kernel’s hooks', () => {
  it('tell each digest run by kind and outcome, the lag of a post from its slot, and leases and queue back to zero', async () => {
    h.clock.set('2026-03-02T08:00:00Z');
    const card = await h.ask('alice', 'digest todos --cron "0 9 * * *" --tz UTC', /Digest #/, { channel: 'C0HOOK1' });
    expect(card.text).toMatch(/Digest #\d+/);
    h.clock.set('2026-03-02T09:00:30Z');
    const runs = await h.bot.bot.digests.runDue();
    expect(runs.map((r) => r.outcome.kind)).toEqual(['posted']);
    expect(delivered).toEqual([{ kind: 'digest', outcome: 'posted', lagMs: 30_000 }]);
    expect(held.at(-1)).toBe(0);
    expect(queued.at(-1)).toBe(0);
    // Nothing due: nothing told.
    await h.bot.bot.digests.runDue();
    expect(delivered).toHaveLength(1);
  });

  it('reach the metrics too: deliveries by kind and outcome, the lag, leases held back to zero', async () => {
    const samples = parsePrometheusText((await h.bot.bot.metrics.registry?.metrics()) ?? '');
    expect(total(samples, 'glbot_deliveries_total', { kind: 'digest', outcome: 'posted' })).toBe(1);
    expect(total(samples, 'glbot_delivery_lag_seconds_count', { kind: 'digest' })).toBe(1);
    expect(total(samples, 'glbot_delivery_lag_seconds_sum', { kind: 'digest' })).toBe(30);
    expect(total(samples, 'glbot_leases_held', { kind: 'digest' })).toBe(0);
    expect(total(samples, 'glbot_queue_waiting', { queue: 'delivery_digest' })).toBe(0);
  });
});
