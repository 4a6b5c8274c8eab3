import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../support/app-harness.js';
import { PEOPLE, startApp } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

const app = useApp();

const databaseBytes = () =>
  Buffer.concat(fs.readdirSync(app.bot.dataDir).map((f) => fs.readFileSync(path.join(app.bot.dataDir, f))));

describe('connecting a token', () => {
  it('opens the modal at once, refuses a bad token with a field error, stores a good one sealed', async () => {
    app.sim.reset();
    const command = await app.bot.slack.command(PEOPLE.bob, 'connect');
    expect(command.ack.status).toBe(200);
    const opened = await command.waitFor((r) => r.method === 'views.open');
    expect(opened?.ok).toBe(true);
    expect(opened?.body.trigger_id).toBe(command.meta.triggerId);
    expect(app.sim.requests()).toEqual([]);
    const view = opened?.view as Record<string, unknown>;

    const bad = await app.bot.slack.submitView(PEOPLE.bob, view, { connect_token: 'glpat-not-a-real-token' });
    expect(bad.ack.json).toMatchObject({
      response_action: 'errors',
      errors: { connect_token: expect.stringMatching(/refused/) },
    });
    // Side by side: one read proves the api scope, the other says whose token it is.
    const sorted = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(app.sim.requests().map((r) => [r.method, r.path, r.status]))).toEqual(
      sorted([
        ['GET', '/api/v4/todos', 401],
        ['GET', '/api/v4/user', 401],
      ]),
    );
    expect(await app.bot.tokens.find('T0TEST', PEOPLE.bob.id)).toBeNull();

    app.sim.reset();
    const good = await app.bot.slack.submitView(PEOPLE.bob, view, { connect_token: TOKENS.bob });
    expect(good.ack.json).toMatchObject({ response_action: 'update' });
    expect(good.text()).toMatch(/connected/i);
    expect(sorted(app.sim.requests().map((r) => [r.method, r.path, r.query, r.user]))).toEqual(
      sorted([
        ['GET', '/api/v4/todos', { per_page: '1' }, 'bob'],
        ['GET', '/api/v4/user', {}, 'bob'],
      ]),
    );
    expect(JSON.stringify(good.ack.json)).toContain('as `@bob`');
    expect((await app.bot.tokens.find('T0TEST', PEOPLE.bob.id))?.status).toBe('valid');

    expect(databaseBytes().includes(Buffer.from(TOKENS.bob))).toBe(false);
    expect(app.bot.logs.join('\n')).not.toContain(TOKENS.bob);
    expect(JSON.stringify(app.bot.fake.records)).not.toContain(TOKENS.bob);

    const who = await app.bot.slack.command(PEOPLE.bob, 'whoami');
    const said = (await who.waitForMessage((t) => /connected/i.test(t))) ? who.text() : '';
    expect(said).toMatch(/You're connected to http:\/\/127\.0\.0\.1/);
    // Like `glab auth status`: which account the token belongs to.
    expect(said).toContain('as `@bob`');
    expect(JSON.stringify(good.ack.json)).not.toContain('replaces');

    // The same token again replaces nothing; another account's token says whose connection it replaces.
    const again = await app.bot.slack.submitView(PEOPLE.bob, view, { connect_token: TOKENS.bob });
    expect(JSON.stringify(again.ack.json)).not.toContain('replaces');
    const other = await app.bot.slack.submitView(PEOPLE.bob, view, { connect_token: TOKENS.eve });
    expect(JSON.stringify(other.ack.json)).toContain('as `@eve`');
    expect(JSON.stringify(other.ack.json)).toContain('This replaces your connection as `@bob`.');
    await app.bot.slack.submitView(PEOPLE.bob, view, { connect_token: TOKENS.bob });

    const bye = await app.bot.slack.command(PEOPLE.bob, 'disconnect');
    expect(await bye.waitForMessage((t) => /Disconnected/.test(t))).not.toBeNull();
    expect(await app.bot.tokens.find('T0TEST', PEOPLE.bob.id)).toBeNull();
    const after = await app.bot.slack.command(PEOPLE.bob, 'whoami');
    expect(await after.waitForMessage((t) => /not connected/i.test(t))).not.toBeNull();
  });

  it('gives a person without a token one message with a Connect button, and calls nothing', async () => {
    app.sim.reset();
    const it = await app.bot.slack.command(PEOPLE.carol, 'jobs demo/web --scope failed');
    // The ack comes first and empty; the one answer follows on the response_url.
    expect(it.ackMessage).toBeNull();
    expect(await it.waitForMessage((t) => /not connected/i.test(t))).not.toBeNull();
    expect(it.messages()).toHaveLength(1);
    expect(it.messages()[0]?.ephemeral).toBe(true);
    expect(it.text()).toMatch(/not connected/i);
    const connect = it.button(/^Connect$/);
    expect(connect).toBeDefined();
    expect(app.sim.requests()).toEqual([]);

    const click = await app.bot.slack.click(PEOPLE.carol, connect as NonNullable<typeof connect>);
    const opened = await click.waitFor((r) => r.method === 'views.open');
    expect(opened?.ok).toBe(true);
    expect((opened?.view?.callback_id as string) ?? '').toBe('gl:connect');
  });

  it('says when the server cannot be reached to check a token, and stores nothing', async () => {
    const offline = await startApp({ gitlabUrl: 'http://127.0.0.1:9' });
    try {
      const { submission } = await offline.connect(PEOPLE.bob, TOKENS.bob);
      expect(submission.ack.json).toMatchObject({
        response_action: 'errors',
        errors: {
          connect_token: expect.stringMatching(/Could not reach http:\/\/127\.0\.0\.1:9 .*Nothing was stored/),
        },
      });
      expect(await offline.tokens.find('T0TEST', PEOPLE.bob.id)).toBeNull();
    } finally {
      await offline.stop({ removeData: true });
    }
  });
});

describe('the channel default project', () => {
  it('is set after one read as the caller, used by project-less commands, and cleared', async () => {
    await app.bot.connect(PEOPLE.alice, TOKENS.alice);
    app.sim.reset();
    const use = await app.bot.slack.command(PEOPLE.alice, 'use demo/web', { channel: 'C0USE' });
    expect(await use.waitForMessage((t) => /default project/.test(t))).not.toBeNull();
    expect(use.text()).toContain('demo/web');
    expect(app.sim.requests().map((r) => [r.method, r.path, r.user])).toEqual([
      ['GET', '/api/v4/projects/demo%2Fweb', 'alice'],
    ]);

    app.sim.reset();
    const jobs = await app.bot.slack.command(PEOPLE.alice, 'jobs --scope failed', { channel: 'C0USE' });
    await jobs.waitForMessage((t) => /Jobs in demo\/web/.test(t));
    expect(app.sim.requests()[0]).toMatchObject({
      method: 'GET',
      path: '/api/v4/projects/demo%2Fweb/jobs',
      query: { scope: ['failed'] },
    });

    const clear = await app.bot.slack.command(PEOPLE.alice, 'use --clear', { channel: 'C0USE' });
    expect(await clear.waitForMessage((t) => /no longer has a default project/.test(t))).not.toBeNull();
    app.sim.reset();
    const which = await app.bot.slack.command(PEOPLE.alice, 'jobs', { channel: 'C0USE' });
    expect(await which.waitForMessage((t) => /Which project\?/.test(t))).not.toBeNull();
    expect(app.sim.requests()).toEqual([]);
  });

  it('refuses an unknown project and keeps the channel without a default', async () => {
    await app.bot.connect(PEOPLE.alice, TOKENS.alice);
    const use = await app.bot.slack.command(PEOPLE.alice, 'use demo/no-such-project', { channel: 'C0UNKNOWN' });
    expect(await use.waitForMessage((t) => /not found, or you have no access/.test(t))).not.toBeNull();
    const which = await app.bot.slack.command(PEOPLE.alice, 'jobs', { channel: 'C0UNKNOWN' });
    expect(await which.waitForMessage((t) => /Which project\?/.test(t))).not.toBeNull();
  });
});

describe('unexpected errors', () => {
  it('reach app.error once, with the reference id the person is shown', async () => {
    const broken = await startApp({ gitlabUrl: app.sim.url });
    broken.db.close();
    try {
      const it = await broken.slack.command(PEOPLE.alice, 'whoami');
      const m = await it.waitForMessage((t) => /reference/.test(t));
      const ref = /reference `?([0-9a-f]{8})/.exec(m?.text ?? it.text())?.[1];
      expect(ref).toMatch(/^[0-9a-f]{8}$/);
      // The person is told first; app.error logs right after.
      const logged = () => broken.logs.filter((l) => l.includes('unexpected error'));
      // Waits for the line (a deadline only against a hang; the verdict is on what was logged).
      for (const end = Date.now() + 15_000; logged().length === 0 && Date.now() < end; )
        await new Promise((r) => setTimeout(r, 20));
      const lines = logged();
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 'error', ref });
      // The reference is the request's id: the request's own lines carry it too.
      const ofRequest = broken.logs.map((l) => JSON.parse(l) as { req?: string; msg: string });
      expect(ofRequest.filter((l) => l.req === ref).map((l) => l.msg)).toContain('command received');
      const counted = await broken.bot.metrics.registry?.getSingleMetric('glbot_commands_total')?.get();
      expect(counted?.values).toContainEqual({
        labels: { noun: 'whoami', verb: 'default', outcome: 'error' },
        value: 1,
      });
    } finally {
      await broken.bot.stop();
      await broken.fake.close();
      fs.rmSync(broken.dataDir, { recursive: true, force: true });
    }
  });
});
