import crypto from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../support/clock.js';
import { slashCommandBody } from '../../support/payloads.js';
import { type SpawnedBot, spawnBot } from '../../support/spawn-bot.js';
import { PEOPLE } from '../../support/start-app.js';
import { type RunningSimulator, startSim } from '../../support/start-sim.js';

// Probes of issue 28: Socket Mode when Slack refuses the app-level token and when the socket drops. On
// d5eebc1 a token refused while reconnecting after a drop ended the process (Bolt's reconnection let the
// error escape unhandled), and /healthz said "ok" for seconds after the socket was gone.

let sim: RunningSimulator | undefined;
let bot: SpawnedBot | undefined;
afterEach(async () => {
  await bot?.close();
  await sim?.close();
  bot = undefined;
  sim = undefined;
});

const appToken = () => `xapp-1-probe-${crypto.randomBytes(6).toString('hex')}`;

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) expect.fail(`${what} never happened; last ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function commandOverSocket(b: SpawnedBot, text: string) {
  const responseUrl = b.fake.registerResponseUrl({ channel: 'C0SOCK', user: PEOPLE.carol.id });
  const body = slashCommandBody({
    user: PEOPLE.carol,
    command: '/gl',
    text,
    channel: 'C0SOCK',
    responseUrl,
    triggerId: b.fake.issueTrigger(),
  });
  return b.fake.socketMode.send('slash_commands', Object.fromEntries(new URLSearchParams(body)));
}

describe('Socket Mode with an app-level token Slack refuses', () => {
  it('at start: the bot stops with one line naming SLACK_APP_TOKEN, and shows no token', async () => {
    sim = await startSim(fakeClock());
    const wrong = appToken();
    bot = await spawnBot({
      gitlabUrl: sim.url,
      appToken: appToken(),
      env: { SLACK_APP_TOKEN: wrong },
      waitHealthy: false,
    });
    expect(await bot.exited).toBe(1);
    const said = bot.output();
    expect(said).toContain('The bot could not start: Slack refused SLACK_APP_TOKEN (invalid_auth).');
    expect(said).not.toContain(wrong);
  }, 60_000);

  it('after a dropped socket: /readyz says so, the bot stays up and reconnects once Slack takes the token', async () => {
    sim = await startSim(fakeClock());
    bot = await spawnBot({ gitlabUrl: sim.url, appToken: appToken() });
    const b = bot;
    b.fake.refuseAppToken();
    b.fake.socketMode.dropAll();
    const refused = await until(
      () => b.health(),
      (h) => h.status === 503 && h.body?.status !== 'not connected to Slack',
      'a 503 naming the refused token',
    );
    expect(refused.body).toEqual({ status: 'Slack refused SLACK_APP_TOKEN (invalid_auth)', mode: 'socket' });
    // It keeps trying, and stays up meanwhile.
    const opened = b.fake.calls('apps.connections.open').length;
    await until(
      async () => b.fake.calls('apps.connections.open').length,
      (n) => n >= opened + 1,
      'another attempt',
    );
    expect((await b.health()).status).toBe(503);

    b.fake.refuseAppToken(false);
    await until(
      () => b.health(),
      (h) => h.status === 200,
      'a reconnection',
    );
    const ack = await commandOverSocket(b, 'help');
    expect(ack).not.toBeNull();
    expect(b.output()).toContain('connected to Slack again');
    expect(b.output()).not.toMatch(/unhandled|processTicksAndRejections/i);
    expect(b.child.exitCode).toBeNull();
  }, 60_000);
});

describe('Socket Mode when the socket drops', () => {
  it('says so on /readyz at once, reconnects, and takes commands on the new socket', async () => {
    sim = await startSim(fakeClock());
    bot = await spawnBot({ gitlabUrl: sim.url, appToken: appToken() });
    const b = bot;
    b.fake.socketMode.holdHello = true;
    b.fake.socketMode.dropAll();
    const down = await until(
      () => b.health(),
      (h) => h.status === 503,
      'a 503',
    );
    expect(down.body).toEqual({ status: 'not connected to Slack', mode: 'socket' });
    b.fake.socketMode.releaseHello();
    await until(
      () => b.health(),
      (h) => h.status === 200,
      'a reconnection',
    );
    expect(await commandOverSocket(b, 'help')).not.toBeNull();
    expect(b.fake.socketMode.connections).toBe(2);
  }, 60_000);
});
