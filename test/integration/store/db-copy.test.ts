import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBot } from '../../support/built-bot.js';
import { fakeClock } from '../../support/clock.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { freshPostgresUrl } from '../../support/postgres.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE, type StartedApp, startApp } from '../../support/start-app.js';
import { type RunningSimulator, startSim, TOKENS } from '../../support/start-sim.js';

// Moving an install from its SQLite file to PostgreSQL with `npm run db:copy`: the bot on the copy answers as the
// old one did (its tokens open, its digests go on from their cursors, new digests get new ids).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const clock = fakeClock();
const encryptionKey = crypto.randomBytes(32).toString('base64');
let sim: RunningSimulator;
let fake: FakeSlack;
const apps: StartedApp[] = [];
const dirs: string[] = [];

/** db-copy as `npm run db:copy` runs it, from the test run's build of the bot (test/support/built-bot.ts). */
async function dbCopy(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { dir } = await buildBot();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dir, 'db-copy.js'), ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => resolve({ code, out, err }));
  });
}

async function openIssue(title: string) {
  const res = await fetch(`${sim.url}/api/v4/projects/demo%2Fweb/issues`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': TOKENS.bob, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ title }).toString(),
  });
  expect(res.status).toBe(201);
}

async function ask(app: StartedApp, text: string, channel: string, answer: RegExp): Promise<string> {
  const it = await app.slack.command(PEOPLE.alice, text, { channel });
  const m = await it.waitForMessage((t) => answer.test(t));
  if (!m) expect.fail(`no answer to ${text}: ${it.text()}`);
  return messageText(m);
}

beforeAll(async () => {
  sim = await startSim(clock);
  fake = await startFakeSlack(`xoxb-test-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));
});
afterAll(async () => {
  for (const app of apps) await app.stop();
  await fake?.close();
  await sim?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe('npm run db:copy', () => {
  it('copies a SQLite install into PostgreSQL, refuses a non-empty target unless forced, and the bot goes on there', async () => {
    const old = await startApp({
      gitlabUrl: sim.url,
      now: clock.now,
      fake,
      encryptionKey,
      digests: { timer: 'manual' },
    });
    apps.push(old);
    dirs.push(old.dataDir);
    await old.connect(PEOPLE.alice, TOKENS.alice);
    await ask(old, 'use demo/web', 'C0COPY1', /demo\/web/);
    const id = Number(
      /Digest #(\d+)/.exec(await ask(old, 'digest events demo/web --cron "0 9 * * *"', 'C0COPY1', /Digest #\d+/))?.[1],
    );
    clock.set('2026-03-02T12:00:00Z');
    await openIssue('Posted before the move');
    expect(await old.bot.digests.run(id, 'manual')).toMatchObject({ kind: 'posted', items: 1 });
    await openIssue('Opened after the move');
    await old.stop();
    apps.splice(apps.indexOf(old), 1);

    const url = await freshPostgresUrl();
    const password = decodeURIComponent(new URL(url).password);
    const copied = await dbCopy('--from', old.dbPath, '--to', url);
    expect(copied.err).toBe('');
    expect(copied.code).toBe(0);
    expect(copied.out).toMatch(/^copied \d+ rows from /);
    for (const line of [
      'user_tokens: 1',
      'channel_defaults: 1',
      'digests: 1',
      'digest_runs: 0',
      'unfurl_consents: 0',
    ]) {
      expect(copied.out).toContain(`  ${line}\n`);
    }

    const again = await dbCopy('--from', old.dbPath, '--to', url);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/^db:copy: the target database is not empty \(.*user_tokens: 1 rows/);
    expect(again.err).toContain('nothing was copied. Give --force to replace what it holds.');
    expect(again.err + again.out).not.toContain(password);
    const forced = await dbCopy('--from', old.dbPath, '--to', url, '--force');
    expect(forced.code).toBe(0);

    const moved = await startApp({
      gitlabUrl: sim.url,
      now: clock.now,
      fake,
      encryptionKey,
      databaseUrl: url,
      digests: { timer: 'manual' },
    });
    apps.push(moved);
    expect(moved.engine.kind).toBe('postgres');
    // The token opens: a command as alice reads the server with it; the channel keeps its project.
    await ask(moved, 'job 8', 'C0COPY1', /Job #8 /);
    // The digest goes on from its cursor: only what came after its last post.
    const before = fake.messages.size;
    expect(await moved.bot.digests.run(id, 'manual')).toMatchObject({ kind: 'posted', items: 1 });
    const posted = [...fake.messages.values()].slice(before).filter((m) => m.channel === 'C0COPY1' && !m.ephemeral);
    expect(posted).toHaveLength(1);
    expect(messageText(posted[0] as (typeof posted)[number])).toContain('Opened after the move');
    expect(messageText(posted[0] as (typeof posted)[number])).not.toContain('Posted before the move');
    // A new digest gets the next id, as it would have on SQLite.
    const next = await ask(moved, 'digest todos --cron "0 8 * * *"', 'C0COPY1', /Digest #\d+/);
    expect(next).toContain(`Digest #${id + 1}`);
  }, 60_000);
});
