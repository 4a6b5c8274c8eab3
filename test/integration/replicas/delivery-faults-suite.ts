import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBot } from '../../support/built-bot.js';
import type { FakeMessage } from '../../support/fake-slack.js';
import {
  openProcessWorld,
  type ProcessWorld,
  until,
  type WorldBot,
  type WorldEngine,
} from '../../support/process-world.js';
import { messageText } from '../../support/slack-driver.js';
import { PEOPLE } from '../../support/start-app.js';
import { TOKENS } from '../../support/start-sim.js';

// The three replica faults of issue 41, gone, on the built bot as two replicas of one database (SQLite file:
// delivery-faults.test.ts; PostgreSQL: delivery-faults-postgres.test.ts). Slots come every few seconds through the
// test seam of main.ts (DIGEST_TEST_TIMING: a seconds field before every schedule, short leases).
//   1. An item created or edited on one replica 5 s before a slot is posted in that slot on its new schedule by the
//      other: the one that changed it is frozen (SIGSTOP) until the slot is over, so the other fires it, and the
//      other's sweep is ten minutes away, so it knows of the change only from the database at the fire.
//   2. A replica frozen between its lease check (the fence) and its post (DIGEST_TEST_STOP_AT=after-fence) and
//      continued after the other took the run over posts nothing.
//   3. A 6 s burst of 401s during an idle person's run leaves their digest running once the server recovers, and
//      no DM tells them to reconnect.

interface RunLine {
  digest: number;
  scheduledFor: string;
  outcome: string;
  reason: string;
}

/** Every digest run the processes logged. */
function runsOf(bots: readonly WorldBot[]): RunLine[] {
  const out: RunLine[] = [];
  for (const bot of bots) {
    for (const line of bot.output().split('\n')) {
      if (line.includes('"msg":"digest run"')) out.push(JSON.parse(line) as RunLine);
    }
  }
  return out;
}

/** Digest posts in Slack (by their run mark), per digest id. */
function postsByDigest(world: ProcessWorld): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const m of world.fake.messages.values()) {
    const payload = m.metadata?.event_payload as { digest?: number; run?: string } | undefined;
    if (m.ephemeral || payload?.digest === undefined || payload.run === undefined) continue;
    out.set(Number(payload.digest), [...(out.get(Number(payload.digest)) ?? []), payload.run]);
  }
  return out;
}

/** Whether the process is stopped (Linux: its state in /proc). */
const isStopped = (bot: WorldBot) => {
  try {
    return fs.readFileSync(`/proc/${bot.child.pid}/stat`, 'utf8').split(') ')[1]?.startsWith('T') === true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function makeTodosDigest(bot: WorldBot, channel: string, cron: string): Promise<number> {
  const command = await bot.slack.command(PEOPLE.alice, `digest todos --here --cron "${cron}" --tz UTC`, { channel });
  const card = await command.waitForMessage((t, m) => m.channel === channel && /Digest #\d+/.test(t), 30_000);
  const id = Number(/Digest #(\d+)/.exec(card ? messageText(card) : '')?.[1]);
  if (!Number.isInteger(id)) expect.fail(`no digest card: ${command.text()}`);
  return id;
}

async function editCron(bot: WorldBot, id: number, cron: string, channel: string): Promise<void> {
  const command = await bot.slack.command(PEOPLE.alice, `digest edit ${id} --cron "${cron}"`, { channel });
  const answer = await command.waitForMessage((t) => t.includes(`#${id}`), 30_000);
  if (!answer) expect.fail(`no answer to the edit: ${command.text()}`);
}

/** Every (digest, slot) posted at most once, and Slack holds exactly the posts the runs logged. */
function expectEachPostedOnce(world: ProcessWorld, bots: readonly WorldBot[], ids: readonly number[]): void {
  const posted = runsOf(bots).filter((r) => r.outcome === 'posted' && ids.includes(r.digest));
  const pairs = posted.map((r) => `${r.digest}@${r.scheduledFor}`);
  expect(pairs.length).toBe(new Set(pairs).size);
  const inSlack = postsByDigest(world);
  for (const id of ids) {
    const runs = inSlack.get(id) ?? [];
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs.length).toBe(posted.filter((r) => r.digest === id).length);
  }
}

export function deliveryFaultTests(engine: WorldEngine): void {
  let build: { dir: string; remove(): void } | undefined;
  beforeAll(async () => {
    build = await buildBot();
  }, 240_000);
  afterAll(() => build?.remove());

  const world = async (timing: Record<string, unknown>, onTestFinished: (f: () => Promise<void>) => void) => {
    const w = await openProcessWorld({
      buildDir: build?.dir as string,
      engine,
      env: { DIGEST_TEST_TIMING: JSON.stringify(timing) },
    });
    onTestFinished(() => w.close());
    await w.connect(PEOPLE.alice, TOKENS.alice);
    return w;
  };

  // The cases run at once, each in a world of its own (its database, simulator and fake Slack): most of a case is
  // waiting for its slots, which would otherwise hold one of the suite's workers for a minute a file.
  describe.concurrent(`two replicas on ${engine === 'postgres' ? 'one PostgreSQL database' : 'one SQLite file'}`, () => {
    for (const changer of [0, 1]) {
      it(`a digest created or edited on the ${changer === 0 ? 'first' : 'second'} replica 5 s before a slot the other fires is posted in that slot, on its new schedule`, async ({
        onTestFinished,
      }) => {
        const SLOT_MS = 10_000;
        const w = await world({ seconds: `*/${SLOT_MS / 1000}`, spreadMs: 300, leaseMs: 3000, sweepMs: 600_000 }, (f) =>
          onTestFinished(f),
        );
        const first = await w.start();
        // Known to both at their start: one schedule every slot, one that never comes in the test. Three sets of
        // digests to edit, for three tries: a try whose changes are not all made before its slot (a busy machine)
        // leaves the changing replica running and tries again at the next slot.
        const every = await makeTodosDigest(first, 'C0FLT00', '* * * * *');
        const sets: { editedIn: number; editedOut: number }[] = [];
        for (let i = 0; i < 3; i++) {
          sets.push({
            editedIn: await makeTodosDigest(first, `C0FLT1${i}`, '0 0 1 1 *'),
            editedOut: await makeTodosDigest(first, `C0FLT2${i}`, '* * * * *'),
          });
        }
        const second = await w.start();
        const [changing, firing] = changer === 0 ? [first, second] : [second, first];
        const bots = [first, second];

        let tried: { created: number; editedIn: number; editedOut: number; slot: number } | null = null;
        for (const [i, set] of sets.entries()) {
          // 5 s before a slot (of every SLOT_MS), on the replica that is then frozen until the slot is over.
          await sleep((SLOT_MS * 2 - ((Date.now() + 5000) % SLOT_MS)) % SLOT_MS);
          const slot = Math.ceil(Date.now() / SLOT_MS) * SLOT_MS;
          const created = await makeTodosDigest(changing, `C0FLT3${i}`, '* * * * *');
          await Promise.all([
            editCron(changing, set.editedIn, '* * * * *', `C0FLT1${i}`),
            editCron(changing, set.editedOut, '0 0 1 1 *', `C0FLT2${i}`),
          ]);
          if (Date.now() < slot - 500) {
            tried = { created, ...set, slot };
            break;
          }
        }
        if (!tried) expect.fail('no try made its changes before its slot');
        const { created, editedIn, editedOut, slot } = tried;
        changing.child.kill('SIGSTOP');
        onTestFinished(async () => {
          changing.child.kill('SIGCONT');
        });
        const postedIn = (id: number) =>
          runsOf([firing]).find(
            (r) => r.digest === id && r.outcome === 'posted' && Math.abs(Date.parse(r.scheduledFor) - slot) < 1000,
          );
        const near = () =>
          JSON.stringify(runsOf(bots).filter((r) => Math.abs(Date.parse(r.scheduledFor) - slot) < SLOT_MS * 1.5));
        await until('the slot to be posted by the replica that was not frozen', () => postedIn(every), 30_000).catch(
          (err: unknown) =>
            expect.fail(`${String(err)}; slot ${new Date(slot).toISOString()}; runs near it: ${near()}`),
        );
        await until('the digests changed before the slot to be posted in it', () =>
          [created, editedIn].every((id) => postedIn(id)),
        );
        // Moved away from the schedule: not run for it.
        await sleep(1000);
        expect(
          runsOf(bots).filter(
            (r) => r.digest === editedOut && r.outcome === 'posted' && Date.parse(r.scheduledFor) >= slot - 500,
          ),
        ).toEqual([]);
        changing.child.kill('SIGCONT');
        await sleep(SLOT_MS);
        expectEachPostedOnce(w, bots, [every, ...sets.flatMap((x) => [x.editedIn, x.editedOut]), created]);
        await Promise.all(bots.map((b) => w.stop(b)));
      }, 120_000);
    }

    it('a replica frozen between its lease check and its post, continued after the other took the run over, posts nothing', async ({
      onTestFinished,
    }) => {
      const w = await world({ seconds: '*/2', spreadMs: 200, leaseMs: 2000, sweepMs: 300 }, (f) => onTestFinished(f));
      const frozen = await w.start({ DIGEST_TEST_STOP_AT: 'after-fence' });
      const other = await w.start();
      const bots = [frozen, other];
      const id = await makeTodosDigest(other, 'C0STP00', '* * * * *');
      await until(
        'a run of the frozen replica to stop between its fence and its post',
        () => isStopped(frozen),
        60_000,
      );
      const postedBefore = runsOf([other]).filter((r) => r.digest === id && r.outcome === 'posted').length;
      await until('the other replica to take the run over and post it', () =>
        runsOf([other]).some((r) => r.digest === id && r.outcome === 'posted' && r.reason === 'recover')
          ? true
          : runsOf([other]).filter((r) => r.digest === id && r.outcome === 'posted').length > postedBefore,
      );
      frozen.child.kill('SIGCONT');
      await until('the frozen replica to find its lease gone', () =>
        frozen.output().includes('a digest run lost its lease before posting'),
      );
      await sleep(4000);
      expectEachPostedOnce(w, bots, [id]);
      await Promise.all(bots.map((b) => w.stop(b)));
    }, 120_000);

    it('a 6 s burst of 401s during an idle person’s run leaves their digest running once the server recovers', async ({
      onTestFinished,
    }) => {
      const w = await world({ seconds: '*/2', spreadMs: 200, leaseMs: 2000, sweepMs: 300, recheckMs: 500 }, (f) =>
        onTestFinished(f),
      );
      const [a, b] = [await w.start(), await w.start()];
      const bots = [a, b];
      const id = await makeTodosDigest(a, 'C0BUR00', '* * * * *');
      const posted = () => runsOf(bots).filter((r) => r.digest === id && r.outcome === 'posted');
      await until('a first post', () => posted().length > 0, 30_000);
      w.sim.setFaults({ errorRate: 1, errorStatus: 401 });
      await sleep(6000);
      w.sim.setFaults({});
      const recovered = Date.now();
      await until(
        'the digest to post again after the server recovered',
        () => posted().some((r) => Date.parse(r.scheduledFor) > recovered),
        30_000,
      );
      const aliceDms = [...w.fake.messages.values()].filter(
        (m: FakeMessage) => m.channel === `D${PEOPLE.alice.id.slice(1)}` && !m.ephemeral,
      );
      for (const dm of aliceDms) {
        expect(messageText(dm)).not.toMatch(/Connect again to resume|Connect a new token and/);
      }
      expectEachPostedOnce(w, bots, [id]);
      await Promise.all(bots.map((bot) => w.stop(bot)));
    }, 120_000);
  });
}
