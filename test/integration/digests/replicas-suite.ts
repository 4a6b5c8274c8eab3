import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../../src/sim/index.js';
import { SCHEMA_VERSION } from '../../../src/store/database.js';
import { type BuiltBot, buildBot, startBuiltBot } from '../../support/built-bot.js';
import { type FakeSlack, startFakeSlack } from '../../support/fake-slack.js';
import { freshPostgresUrl } from '../../support/postgres.js';
import { messageText, SlackDriver } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// Two bot processes on one database (one SQLite file: replicas.test.ts, or one PostgreSQL database:
// replicas-postgres.test.ts), with the simulator and the fake Slack: every digest — nine todos digests and one weekly
// insights digest, whose chart is an image of its post — is posted exactly once per slot across both, one replica killed with SIGKILL leaves nothing behind, and one
// restarted posts nothing twice. Slots come every few seconds through the test seam of main.ts
// (DIGEST_TEST_TIMING: a seconds field before every schedule, short leases and sweeps); the fires, leases and
// lanes are the production ones. (A slot every second leaves a busy machine too little time to post all ten
// digests of a slot before the next: slots then overlap and none completes.)

/** The suite on one engine: `sqlite` (one file) or `postgres` (one database of the run's server). */
export function replicaDigestTests(engine: 'sqlite' | 'postgres'): void {
  const SLOT_SECONDS = 2;
  const DIGESTS = 10;

  let build: { dir: string; remove(): void };
  let dataDir: string;
  let sim: RunningSimulator;
  let fake: FakeSlack;
  const signingSecret = crypto.randomBytes(16).toString('hex');
  const encryptionKey = crypto.randomBytes(32).toString('base64');
  const running: BuiltBot[] = [];
  /** Output of every replica that ran, killed ones included. */
  const outputs: (() => string)[] = [];
  const onPostgres = engine === 'postgres';
  /** The PostgreSQL database both replicas share (onPostgres). */
  let databaseUrl = '';

  async function replica(env: Record<string, string> = {}): Promise<BuiltBot & { slack: SlackDriver }> {
    const bot = await startBuiltBot(build.dir, {
      ...env,
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: fake.apiUrl,
      GITLAB_URL: sim.url,
      TOKEN_ENCRYPTION_KEY: encryptionKey,
      ...(onPostgres ? { DATABASE_URL: databaseUrl } : { DATABASE_PATH: path.join(dataDir, 'bot.db') }),
      LOG_LEVEL: 'info',
      DIGEST_TEST_TIMING: JSON.stringify({ seconds: `*/${SLOT_SECONDS}`, spreadMs: 500, leaseMs: 2000, sweepMs: 400 }),
    });
    running.push(bot);
    outputs.push(bot.output);
    return { ...bot, slack: new SlackDriver({ botUrl: bot.url, signingSecret, fake, command: '/gl' }) };
  }

  async function stop(bot: BuiltBot): Promise<void> {
    running.splice(running.indexOf(bot), 1);
    if (bot.child.exitCode !== null || bot.child.signalCode !== null) return;
    bot.child.kill('SIGTERM');
    expect((await bot.exited).code).toBe(0);
  }

  interface RunLine {
    digest: number;
    scheduledFor: string;
    outcome: string;
    reason: string;
  }

  /** Digest runs logged so far, and how far into each replica's output (by index in `outputs`) they were read. */
  const runLines: RunLine[] = [];
  const readUpTo: number[] = [];

  /**
   * Every digest run any replica logged. The waits below ask many times a second: each output's complete lines are
   * read once, as it grows (a line still arriving is read when it is whole).
   */
  function runs(): RunLine[] {
    outputs.forEach((output, i) => {
      const out = output();
      const from = readUpTo[i] ?? 0;
      const to = out.lastIndexOf('\n') + 1;
      if (to <= from) return;
      for (const l of out.slice(from, to).split('\n'))
        if (l.includes('"msg":"digest run"')) runLines.push(JSON.parse(l) as RunLine);
      readUpTo[i] = to;
    });
    return runLines;
  }

  /** Posts of each slot: how many digests were posted for it (counting a digest twice if it was). */
  function postedPerSlot(): Map<string, number> {
    const out = new Map<string, number>();
    for (const r of runs()) if (r.outcome === 'posted') out.set(r.scheduledFor, (out.get(r.scheduledFor) ?? 0) + 1);
    return out;
  }

  /** Slots all of whose digests were posted, in order. */
  const completeSlots = () =>
    [...postedPerSlot()]
      .filter(([, n]) => n >= DIGESTS)
      .map(([slot]) => slot)
      .sort();

  async function until<T>(what: string, check: () => T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = check();
      if (found) return found;
      if (Date.now() > deadline) expect.fail(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Digest posts in Slack by digest id (from their run metadata), and how many runs each key has. */
  function postsByDigest(): Map<number, string[]> {
    const out = new Map<number, string[]>();
    for (const m of fake.messages.values()) {
      const payload = m.metadata?.event_payload as { digest?: number; run?: string } | undefined;
      if (m.ephemeral || payload?.digest === undefined || payload.run === undefined) continue;
      out.set(payload.digest, [...(out.get(payload.digest) ?? []), payload.run]);
    }
    return out;
  }

  /**
   * The insights digest's chart: every post of it shows a file Slack hosts (its own: no two posts share one), and no
   * file was ever shared into a channel by an upload.
   */
  function expectChartsShownOnce(id: number): void {
    const fileIds: string[] = [];
    for (const m of fake.messages.values()) {
      const payload = m.metadata?.event_payload as { digest?: number } | undefined;
      if (m.ephemeral || payload?.digest !== id) continue;
      const image = ((m.blocks ?? []) as { type: string; slack_file?: { id: string } }[]).find(
        (b) => b.type === 'image',
      );
      const file = fake.files.get(image?.slack_file?.id ?? '');
      expect(file?.bytes?.length ?? 0).toBeGreaterThan(1000);
      fileIds.push(file?.id ?? '');
    }
    expect(fileIds.length).toBeGreaterThan(0);
    expect(new Set(fileIds).size).toBe(fileIds.length);
    expect([...fake.messages.values()].filter((m) => (m.files ?? []).length > 0)).toEqual([]);
  }

  /** Nothing posted twice: one post per (digest, slot) in the logs, and Slack holds exactly the posts logged. */
  async function expectEachPostedOnce(ids: number[]): Promise<void> {
    // A run of the next slot may be in Slack already while its "digest run" line is still on its way through the
    // child's stdout: wait for the lines to catch up. A post that was never logged as posted still fails below.
    const logged = () => runs().filter((r) => r.outcome === 'posted');
    const caughtUp = () => {
      const byDigest = postsByDigest();
      return ids.every((id) => (byDigest.get(id) ?? []).length <= logged().filter((r) => r.digest === id).length);
    };
    for (let waited = 0; !caughtUp() && waited < 5_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    const posted = logged();
    const pairs = posted.map((r) => `${r.digest}@${r.scheduledFor}`);
    expect(pairs.length).toBe(new Set(pairs).size);
    const byDigest = postsByDigest();
    for (const id of ids) {
      const inSlack = byDigest.get(id) ?? [];
      expect(new Set(inSlack).size).toBe(inSlack.length);
      expect(inSlack.length).toBe(posted.filter((r) => r.digest === id).length);
    }
  }

  beforeAll(async () => {
    build = await buildBot();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-replicas-'));
    if (onPostgres) databaseUrl = await freshPostgresUrl();
    sim = await startSimulator({ port: 0, seed: 'demo', history: true });
    fake = await startFakeSlack(`xoxb-replicas-${crypto.randomBytes(8).toString('hex')}`, Object.values(PEOPLE));
  }, 240_000);

  afterAll(async () => {
    for (const bot of running) bot.child.kill('SIGKILL');
    await fake?.close();
    await sim?.close();
    build?.remove();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** One row in schema_version, at the latest version, and the tables of the last steps made once. */
  async function expectOnePostgresSchema(): Promise<void> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const versions = await client.query('SELECT version FROM schema_version');
      expect(versions.rows).toEqual([{ version: SCHEMA_VERSION }]);
      const tables = await client.query(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
      );
      expect(tables.rows).toContainEqual({ name: 'cron_fires' });
    } finally {
      await client.end();
    }
  }

  describe(`two replicas on one ${onPostgres ? 'PostgreSQL database' : 'SQLite file'}`, () => {
    const ids: number[] = [];

    it('started together on an empty database come up with one schema', async () => {
      const [a, b] = await Promise.all([replica(), replica()]);
      if (onPostgres) await expectOnePostgresSchema();
      else {
        const db = new Database(path.join(dataDir, 'bot.db'), { readonly: true });
        try {
          expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
          const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all();
          expect(tables).toContainEqual({ name: 'cron_fires' });
        } finally {
          db.close();
        }
      }

      // Alice connects on one; digests are made on both (two schedules, so both replicas may win fires).
      if (!a || !b) throw new Error('two replicas');
      const command = await a.slack.command(PEOPLE.alice, 'connect');
      const opened = await command.waitFor((r) => r.method === 'views.open' && r.ok, 10_000);
      if (!opened?.view) throw new Error(`no connect modal: ${command.text()}`);
      const input = (opened.view.blocks as { type: string; block_id: string }[]).find((x) => x.type === 'input');
      const submitted = await a.slack.submitView(PEOPLE.alice, opened.view, { [input?.block_id ?? '']: TOKENS.alice });
      expect(submitted.ack.json).toMatchObject({ response_action: 'update' });
      // Made at once, half on each replica, each in a channel of its own (its card is the one posted there).
      const made = await Promise.all(
        Array.from({ length: DIGESTS }, async (_, i) => {
          const on = i % 2 ? b : a;
          const zone = i % 2 ? 'Europe/Berlin' : 'UTC';
          const channel = `C0REP${String(i).padStart(2, '0')}`;
          // The first is the project's weekly insights (on every slot here): a kind of digest like the others.
          const asked = i === 0 ? 'digest insights demo/web' : 'digest todos --here';
          const command = await on.slack.command(PEOPLE.alice, `${asked} --cron "* * * * *" --tz ${zone}`, {
            channel,
          });
          const card = await command.waitForMessage((t, m) => m.channel === channel && /Digest #\d+/.test(t), 30_000);
          return Number(/Digest #(\d+)/.exec(card ? messageText(card) : '')?.[1]);
        }),
      );
      ids.push(...made);
      expect(new Set(ids).size).toBe(DIGESTS);
    }, 120_000);

    it('post every digest due in the same slot exactly once across both', async () => {
      // Three slots after every digest was armed on both replicas (a sweep arms on the other within 400 ms).
      const seen = completeSlots().length;
      await until('three more complete slots', () => completeSlots().length >= seen + 3, 60_000);
      await expectEachPostedOnce(ids);
      expectChartsShownOnce(ids[0] as number);
      const fired = runs().filter((r) => r.reason === 'scheduled');
      expect(fired.every((r) => ['posted', 'skipped'].includes(r.outcome))).toBe(true);
    }, 90_000);

    it('one killed with SIGKILL just before a slot: the other posts all of them, once', async () => {
      const [a] = running;
      if (!a) throw new Error('no replica');
      // Right after a slot is complete, some seconds before the next.
      const before = completeSlots().length;
      await until('a slot to complete', () => completeSlots().length > before, 30_000);
      a.child.kill('SIGKILL');
      expect(await a.exited).toEqual({ code: null, signal: 'SIGKILL' });
      running.splice(running.indexOf(a), 1);
      const afterKill = completeSlots().length;
      await until('two more complete slots on the survivor', () => completeSlots().length >= afterKill + 2, 60_000);
      await expectEachPostedOnce(ids);
    }, 90_000);

    it('the killed one restarted posts nothing twice', async () => {
      await replica();
      const seen = completeSlots().length;
      await until('two more complete slots on both', () => completeSlots().length >= seen + 2, 60_000);
      await expectEachPostedOnce(ids);
    }, 90_000);

    it('one killed in the middle of a run: another takes the run over once its lease runs out, and posts it once', async () => {
      const doomed = await replica({ DIGEST_TEST_KILL_AT: 'before-post' });
      const id = ids[0] as number;
      const postsOf = () => runs().filter((r) => r.digest === id && r.outcome === 'posted').length;
      const postedBefore = postsOf();
      // A person's run on it: it takes the lease, writes the intent, and dies before the post.
      await doomed.slack.command(PEOPLE.alice, `digest run ${id}`, { channel: 'C0REP00' }).catch(() => null);
      expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
      running.splice(running.indexOf(doomed), 1);
      // Taken over by whichever comes first once the lease has run out: a survivor's sweep ('recover') or its next
      // slot ('scheduled'); either settles the dead replica's intent before it posts.
      await until('the run to be taken over', () => postsOf() > postedBefore);
      const seen = completeSlots().length;
      await until('one more complete slot', () => completeSlots().length >= seen + 1, 60_000);
      await Promise.all([...running].map(stop));
      await expectEachPostedOnce(ids);
      expectChartsShownOnce(ids[0] as number);
      for (const out of outputs) expect(out()).not.toContain(TOKENS.alice);
    }, 90_000);
  });
}
