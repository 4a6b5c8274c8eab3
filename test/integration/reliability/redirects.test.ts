import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { expectNoUnexpectedErrors, expectWithinLimits } from '../../support/slack-checks.js';
import { PEOPLE, type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Defect 3 of issue 28: a server that redirects API calls to another host. On d5eebc1 the bot followed a 302
// of a GET and even a 307 of `POST …/retry` to the other host (without the token), and showed its empty
// answer as "Jobs in demo/web: 0 shown". An API call redirected to another origin now fails with a sentence,
// and nothing reaches the other host; a redirect on the server itself is still followed.

/** A local server that records what reaches it and answers every call with an empty list. */
async function startElsewhere() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** The simulator behind a front that redirects some calls; the rest pass through unchanged. */
async function startRedirectingFront(sim: string, redirect: (method: string, path: string) => [number, string] | null) {
  const target = new URL(sim);
  const server = http.createServer((req, res) => {
    const to = redirect(req.method ?? 'GET', req.url ?? '/');
    if (to) {
      req.resume();
      res.writeHead(to[0], { location: to[1] });
      res.end();
      return;
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const WEB = '/api/v4/projects/demo%2Fweb';
let sim: RunningSimulator;
let elsewhere: Awaited<ReturnType<typeof startElsewhere>>;
let front: Awaited<ReturnType<typeof startRedirectingFront>>;
let bot: StartedApp;
const clock = fakeClock();

beforeAll(async () => {
  sim = await startSim(clock);
  elsewhere = await startElsewhere();
  front = await startRedirectingFront(sim.url, (method, path) => {
    if (method === 'GET' && path.split('?')[0] === `${WEB}/jobs`) return [302, `${elsewhere.url}${path}`];
    if (method === 'POST' && path === `${WEB}/jobs/8/retry`) return [307, `${elsewhere.url}${path}`];
    // On the server itself: followed as before.
    if (method === 'GET' && path === `${WEB}/jobs/7`) return [302, `${WEB}/jobs/8`];
    return null;
  });
  bot = await startApp({ gitlabUrl: front.url, now: clock.now });
  await bot.connect(PEOPLE.alice, TOKENS.alice);
});
afterAll(async () => {
  await bot?.stop({ removeData: true });
  front?.server.close();
  elsewhere?.server.close();
  await sim?.close();
});
beforeEach(() => {
  sim.reset();
  elsewhere.seen.length = 0;
});

const SAID = `The server at ${'URL'} redirected the request to another host; nothing was sent there.`;
const said = () => SAID.replace('URL', front.url);

describe('an API call the server redirects to another host', () => {
  it('is not followed for a read: the person is told, and the other host sees nothing', async () => {
    const it = await bot.slack.command(PEOPLE.alice, 'jobs demo/web');
    const answer = await it.waitForMessage((t) => t.includes('redirected'));
    expect(answer?.text).toContain(said());
    expect(it.text()).not.toMatch(/0 shown/);
    expect(elsewhere.seen).toEqual([]);
    expectWithinLimits(it);
    expectNoUnexpectedErrors(bot.logs);
  });

  it('is not followed for a write (a 307 of POST …/retry): nothing reaches the other host', async () => {
    const it = await bot.slack.command(PEOPLE.alice, 'job retry demo/web 8');
    const answer = await it.waitForMessage((t) => t.includes('redirected'));
    expect(answer?.text).toContain(said());
    expect(elsewhere.seen).toEqual([]);
    expect(sim.requests().filter((r) => r.method === 'POST')).toEqual([]);
    expectNoUnexpectedErrors(bot.logs);
  });

  it('is still followed when the redirect stays on the server', async () => {
    const it = await bot.slack.command(PEOPLE.alice, 'job demo/web 7');
    expect(await it.waitForMessage((t) => /Job #8 /.test(t))).not.toBeNull();
    expect(elsewhere.seen).toEqual([]);
  });
});
