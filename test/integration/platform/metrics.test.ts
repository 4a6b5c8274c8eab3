import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/free-port.js';
import { fakeClock } from '../../support/clock.js';
import { parsePrometheusText, total } from '../../support/prometheus-text.js';
import { PEOPLE, type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// What an operator scrapes (issue 45): /metrics on the bot's port to the token only, or on a port of its own;
// commands and GitLab calls counted as they happen, by bounded labels.

const clock = fakeClock();
const METRICS_TOKEN = crypto.randomBytes(24).toString('base64url');
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSim(clock);
});
afterAll(async () => {
  await sim?.close();
});

const scrape = (url: string, token?: string) =>
  fetch(`${url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

describe('with METRICS_TOKEN set', () => {
  let bot: StartedApp;
  beforeAll(async () => {
    bot = await startApp({ gitlabUrl: sim.url, now: clock.now, env: { METRICS_TOKEN } });
    await bot.connect(PEOPLE.alice, TOKENS.alice);
  }, 60_000);
  afterAll(async () => {
    await bot?.stop({ removeData: true });
  });

  it('answers /metrics with Prometheus text to that token only', async () => {
    const none = await scrape(bot.url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await none.text()).not.toContain('glbot_');
    expect((await scrape(bot.url, `${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await fetch(`${bot.url}/metrics`, { headers: { authorization: METRICS_TOKEN } })).status).toBe(401);

    const res = await scrape(bot.url, METRICS_TOKEN);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheusText(await res.text());
    // Node's and the process's own figures are there too.
    expect(total(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('counts three /gl commands and the GitLab calls they made, by route template, never a raw path', async () => {
    const before = parsePrometheusText(await (await scrape(bot.url, METRICS_TOKEN)).text());
    const calls = sim.requests().length;
    for (const text of ['job demo/web 8', 'job demo/web 8', 'pipeline demo/web 1']) {
      const asked = await bot.slack.command(PEOPLE.alice, text, { channel: 'C0METRICS' });
      expect(await asked.waitForMessage((t) => /#\d+/.test(t))).not.toBeNull();
    }
    const made = sim.requests().length - calls;
    const after = parsePrometheusText(await (await scrape(bot.url, METRICS_TOKEN)).text());

    expect(total(after, 'glbot_commands_total') - total(before, 'glbot_commands_total')).toBe(3);
    expect(total(after, 'glbot_commands_total', { noun: 'job', verb: 'show', outcome: 'ok' })).toBe(
      total(before, 'glbot_commands_total', { noun: 'job', verb: 'show', outcome: 'ok' }) + 2,
    );
    expect(made).toBeGreaterThanOrEqual(3);
    expect(total(after, 'glbot_gitlab_calls_total') - total(before, 'glbot_gitlab_calls_total')).toBe(made);
    expect(
      total(after, 'glbot_gitlab_calls_total', { method: 'GET', route: '/projects/:project/jobs/:job', status: '200' }),
    ).toBeGreaterThanOrEqual(2);
    expect(total(after, 'glbot_ack_seconds_count', { kind: 'command' })).toBeGreaterThanOrEqual(3);
    expect(total(after, 'glbot_answer_seconds_count', { kind: 'command' })).toBeGreaterThanOrEqual(3);
    // Bounded labels: no Slack user, no project path, no token.
    const labels = after.flatMap((s) => Object.values(s.labels)).join('\n');
    expect(labels).not.toMatch(/demo\/web|demo%2Fweb|U0ALICE|sim-alice-token/);
  });

  it('counts a usage error as refused and a refused token as a 401', async () => {
    const before = parsePrometheusText(await (await scrape(bot.url, METRICS_TOKEN)).text());
    const typo = await bot.slack.command(PEOPLE.alice, 'frobnicate demo/web', { channel: 'C0METRICS' });
    expect(await typo.waitForMessage((t) => /frobnicate|help/i.test(t))).not.toBeNull();
    sim.revoke('alice');
    try {
      const refused = await bot.slack.command(PEOPLE.alice, 'job demo/web 8', { channel: 'C0METRICS' });
      await refused.waitForMessage((t) => /connect|revoked|permission/i.test(t));
    } finally {
      sim.revoke('alice', { restore: true });
    }
    const after = parsePrometheusText(await (await scrape(bot.url, METRICS_TOKEN)).text());
    const refusedNow = (s: typeof after) => total(s, 'glbot_commands_total', { outcome: 'refused' });
    expect(refusedNow(after) - refusedNow(before)).toBe(2);
    expect(total(after, 'glbot_commands_total', { noun: 'unknown', verb: 'unknown', outcome: 'refused' })).toBe(1);
    expect(total(after, 'glbot_gitlab_unauthorized_total')).toBeGreaterThan(
      total(before, 'glbot_gitlab_unauthorized_total'),
    );
  });

  it('counts the Slack Web API calls it made by method and outcome', async () => {
    const samples = parsePrometheusText(await (await scrape(bot.url, METRICS_TOKEN)).text());
    // The connect flow opened a modal.
    expect(total(samples, 'glbot_slack_calls_total', { method: 'views.open', outcome: 'ok' })).toBeGreaterThan(0);
  });

  it('answers /healthz and /readyz with 200', async () => {
    expect((await fetch(`${bot.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${bot.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', mode: 'http' });
  });
});

describe('without METRICS_TOKEN', () => {
  it('has no /metrics on the bot port; METRICS_PORT serves them on a port of its own, without a token', async () => {
    const port = await freePort();
    const bot = await startApp({ gitlabUrl: sim.url, now: clock.now, env: { METRICS_PORT: `127.0.0.1:${port}` } });
    try {
      expect((await scrape(bot.url)).status).toBe(404);
      expect((await scrape(bot.url, 'anything-at-all-here')).status).toBe(404);
      expect(bot.bot.metricsPort()).toBe(port);
      const own = await scrape(`http://127.0.0.1:${port}`);
      expect(own.status).toBe(200);
      expect(await own.text()).toContain('glbot_commands_total');
      expect((await fetch(`http://127.0.0.1:${port}/slack/events`, { method: 'POST' })).status).toBe(404);
    } finally {
      await bot.stop({ removeData: true });
    }
    // Stopped with the app.
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  }, 60_000);
});
