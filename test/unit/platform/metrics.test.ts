import { describe, expect, it } from 'vitest';
import { deliveryMetrics } from '../../../src/metrics/delivery-hooks.js';
import { createMetrics } from '../../../src/metrics/metrics.js';
import { createMeteredFetch, methodOf } from '../../../src/metrics/slack-fetch.js';
import { parsePrometheusText, total } from '../../support/prometheus-text.js';

const API = 'http://127.0.0.1:9/api/';

describe('metrics', () => {
  it('keeps each app in a registry of its own', async () => {
    const a = createMetrics({ defaults: false });
    const b = createMetrics({ defaults: false });
    a.command('job', 'show', 'ok');
    const read = async (m: typeof a) => parsePrometheusText(await (m.registry?.metrics() ?? ''));
    expect(total(await read(a), 'glbot_commands_total')).toBe(1);
    expect(total(await read(b), 'glbot_commands_total')).toBe(0);
  });

  it('records nothing and serves nothing when off', () => {
    const off = createMetrics({ enabled: false });
    expect(off.registry).toBeNull();
    expect(() => off.command('job', 'show', 'ok')).not.toThrow();
  });

  it('counts 401s and 429s of GitLab apart, and reads gauges only when scraped', async () => {
    const m = createMetrics({ defaults: false });
    m.gitlabCall({ method: 'GET', route: '/projects/:project/jobs', status: 429, seconds: 0.1 });
    m.gitlabCall({ method: 'GET', route: '/projects/:project/jobs', status: 401, seconds: 0.1 });
    m.gitlabCall({ method: 'GET', route: '/projects/:project/jobs', status: null, seconds: 10 });
    let reads = 0;
    m.watch({
      queues: () => {
        reads++;
        return { work_places: 4 };
      },
      pool: () => ({ total: 3, idle: 2, waiting: 0 }),
      leases: () => ({ digest: 2 }),
    });
    expect(reads).toBe(0);
    const s = parsePrometheusText((await m.registry?.metrics()) ?? '');
    expect(reads).toBe(1);
    expect(total(s, 'glbot_gitlab_rate_limited_total')).toBe(1);
    expect(total(s, 'glbot_gitlab_unauthorized_total')).toBe(1);
    expect(total(s, 'glbot_gitlab_calls_total', { status: 'none' })).toBe(1);
    expect(total(s, 'glbot_queue_waiting', { queue: 'work_places' })).toBe(4);
    expect(total(s, 'glbot_db_pool_connections', { state: 'idle' })).toBe(2);
    expect(total(s, 'glbot_leases_held', { kind: 'digest' })).toBe(2);
  });
});

describe('Slack Web API calls', () => {
  it('names a call by its method, and anything else by one bounded label', () => {
    expect(methodOf(`${API}chat.postMessage`, API)).toBe('chat.postMessage');
    expect(methodOf('https://files.slack.com/upload/v1/abc', API)).toBe('other');
    expect(methodOf(`${API}../../x`, API)).toBe('other');
  });

  it('counts each answer by outcome: ok, refused by Slack, rate limited, unreachable', async () => {
    const m = createMetrics({ defaults: false });
    const answers = [
      new Response('{"ok":true,"channel":"C1"}', { status: 200 }),
      new Response('{"ok":false,"error":"channel_not_found"}', { status: 200 }),
      new Response('', { status: 429, headers: { 'retry-after': '1' } }),
    ];
    const base = async () => {
      const next = answers.shift();
      if (!next) throw new TypeError('fetch failed');
      return next;
    };
    const fetch = createMeteredFetch(m, API, base);
    expect(await (await fetch(`${API}chat.postMessage`)).text()).toContain('"ok":true');
    await (await fetch(`${API}chat.postMessage`)).text();
    expect((await fetch(`${API}chat.update`)).status).toBe(429);
    await expect(fetch(`${API}chat.update`)).rejects.toThrow('fetch failed');
    const s = parsePrometheusText((await m.registry?.metrics()) ?? '');
    const of = (method: string, outcome: string) => total(s, 'glbot_slack_calls_total', { method, outcome });
    expect([of('chat.postMessage', 'ok'), of('chat.postMessage', 'error')]).toEqual([1, 1]);
    expect([of('chat.update', 'rate_limited'), of('chat.update', 'unreachable')]).toEqual([1, 1]);
    expect(total(s, 'glbot_slack_rate_limited_total', { method: 'chat.update' })).toBe(1);
  });
});

describe('scheduled deliveries', () => {
  it("count the kernel's runs by kind and outcome, their lag, and what this replica holds and keeps waiting", async () => {
    const m = createMetrics({ defaults: false });
    const hooks = deliveryMetrics(m);
    hooks.delivered({ kind: 'digest', outcome: 'posted', lagMs: 1500 });
    hooks.delivered({ kind: 'digest', outcome: 'empty', lagMs: null });
    hooks.leasesHeld({ kind: 'digest', held: 3 });
    hooks.leasesHeld({ kind: 'digest', held: 2 });
    hooks.queueDepth({ kind: 'alert', depth: 5 });
    const s = parsePrometheusText((await m.registry?.metrics()) ?? '');
    expect(total(s, 'glbot_deliveries_total', { kind: 'digest' })).toBe(2);
    expect(total(s, 'glbot_delivery_lag_seconds_count', { kind: 'digest' })).toBe(1);
    expect(total(s, 'glbot_delivery_lag_seconds_sum', { kind: 'digest' })).toBe(1.5);
    expect(total(s, 'glbot_leases_held', { kind: 'digest' })).toBe(2);
    expect(total(s, 'glbot_queue_waiting', { queue: 'delivery_alert' })).toBe(5);
  });
});
