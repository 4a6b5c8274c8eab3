import { InvalidInputError } from '../errors.js';
import type { Transport } from '../gitlab/http.js';
import type { Logger } from '../logger.js';
import { createGitlabAccess } from '../operations/access.js';
import type { Digest, DigestStore, NewDigest } from '../store/digest-store.js';
import type { TokenStore } from '../store/token-store.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildResumedDm } from '../views/digest-notices.js';
import { md } from '../views/mrkdwn.js';
import { checkCron, checkZone, nextRunAfter } from './cron.js';
import { createMeteredTransport } from './metered-transport.js';
import { createChannelQueue, createLimiter, createTokenBudget, type PacingClock, realClock } from './pacing.js';
import { createRunner, type RunOutcome, type RunPoint, type RunReason } from './runner.js';
import { createDigestScheduler } from './scheduler.js';
import type { DigestSlack } from './slack.js';

// The one digest service of an app: the store, the runner and the scheduler behind the commands and buttons.
// Every change that affects when a digest runs re-arms it at once.

export interface DigestServiceOptions {
  store: DigestStore;
  tokens: TokenStore;
  slack: DigestSlack;
  /** The transport commands use; digests read through a paced wrapper of it. */
  transport: Transport;
  serverUrl: string;
  slashCommand: string;
  logger: Logger;
  now: () => Date;
  /** `manual` in tests: nothing fires by itself, runs are driven with the test's clock. Default `cron`. */
  timer?: 'cron' | 'manual';
  /** Runs under way at once (default 8). */
  concurrency?: number;
  /** Spread of scheduled runs over their minute (default 50 s). */
  spreadMs?: number;
  /** Slack's pace per channel (default 1000 ms between posts). */
  channelIntervalMs?: number;
  pacingClock?: PacingClock;
  /** The test seam: a named point of every run. */
  at?: (point: RunPoint) => void;
}

export interface DigestChanges {
  cron?: string;
  tz?: string;
  action?: string | null;
  targetType?: string | null;
}

export interface DigestService {
  /** Creates a digest, or changes the schedule of the same one (same owner, place and subject). */
  create(input: Omit<NewDigest, 'nextRunAt' | 'cursor'>): Promise<{ digest: Digest; created: boolean }>;
  get(id: number): Promise<Digest | null>;
  /** The digests posting in a channel, and the person's digests posting in their DM. */
  list(teamId: string, channelId: string | null, userId: string): Promise<{ here: Digest[]; dms: Digest[] }>;
  /** Every digest a person owns, wherever it posts. */
  listOwned(teamId: string, userId: string): Promise<Digest[]>;
  /** When an active digest runs next (null when paused). */
  nextRun(d: Digest): Date | null;
  /**
   * Changes a digest's schedule, zone or event filters (only what is given; a filter of null posts all events);
   * an active one is armed on its new schedule at once. Null when there is no such digest.
   */
  edit(id: number, changes: DigestChanges): Promise<Digest | null>;
  pause(id: number, by: string): Promise<Digest | null>;
  resume(id: number): Promise<Digest | null>;
  remove(id: number): Promise<boolean>;
  run(id: number, reason?: RunReason): Promise<RunOutcome>;
  /** Runs every active digest whose time has come by `now` (once each, whatever it missed). */
  runDue(reason?: RunReason): Promise<{ id: number; outcome: RunOutcome }[]>;
  /** After a person connects: their digests paused for a refused token run again. */
  resumeOwner(teamId: string, userId: string): Promise<Digest[]>;
  /** Arms every active digest, then settles interrupted runs and catches up missed ones (in the background). */
  start(): Promise<void>;
  /** Resolves when the start's settling and catching up is over. */
  readonly recovered: Promise<void>;
  stop(): Promise<void>;
  /** Whether a person is a Slack workspace admin (who may manage anyone's digests). */
  isAdmin(userId: string): Promise<boolean>;
  /** The DM channel between the bot and a person (where their DM digests post). */
  openDm(userId: string): Promise<string>;
  /**
   * Runs a digest in the background (a command's answer cannot wait for it), then tells the person who asked
   * what `describe` makes of the outcome, in the channel it names.
   */
  runAndTell(
    id: number,
    userId: string,
    describe: (outcome: RunOutcome) => Promise<{ channelId: string; message: SlackMessage | null } | null>,
  ): void;
  /** node-cron's task of a digest (tests look at it through node-cron's API). */
  taskOf(id: number): ReturnType<ReturnType<typeof createDigestScheduler>['task']>;
  isArmed(id: number): boolean;
}

export function createDigestService(o: DigestServiceOptions): DigestService {
  const { store, logger } = o;
  const log = logger.child({ component: 'digests' });
  const budget = createTokenBudget({ clock: o.pacingClock ?? realClock });
  const transport = createMeteredTransport(o.transport, budget);
  const access = createGitlabAccess({
    serverUrl: o.serverUrl,
    tokens: o.tokens,
    transport,
    checkTransport: transport,
    logger: log,
  });
  let stopping = false;
  const scheduler = createDigestScheduler({
    mode: o.timer ?? 'cron',
    logger: log,
    ...(o.spreadMs !== undefined ? { spreadMs: o.spreadMs } : {}),
    fire: (id, slot) => runner.run(id, { scheduledFor: slot, reason: 'scheduled' }),
  });
  const runner = createRunner({
    store,
    slack: o.slack,
    access,
    tokens: o.tokens,
    serverUrl: o.serverUrl,
    slashCommand: o.slashCommand,
    logger: log,
    now: o.now,
    channels: createChannelQueue({
      intervalMs: o.channelIntervalMs ?? 1000,
      ...(o.pacingClock ? { clock: o.pacingClock } : {}),
    }),
    limiter: createLimiter(o.concurrency ?? 8),
    ...(o.at ? { at: o.at } : {}),
    onPaused: (paused) => {
      for (const d of paused) scheduler.disarm(d.id);
    },
  });

  const nextRun = (d: Digest) => (d.active ? nextRunAfter(d.cron, d.tz, o.now()) : null);
  let markRecovered: () => void = () => {};
  const recovered = new Promise<void>((resolve) => {
    markRecovered = resolve;
  });

  async function recover(): Promise<void> {
    const runs: Promise<unknown>[] = [];
    const settling = new Set<number>();
    for (const run of await store.openRuns()) {
      if (settling.has(run.digestId)) continue;
      settling.add(run.digestId);
      runs.push(runner.run(run.digestId, { scheduledFor: run.scheduledFor, reason: 'recover' }));
    }
    // A digest whose time passed while the bot was down runs once, however many times it missed.
    const now = o.now().getTime();
    for (const d of await store.listActive()) {
      if (settling.has(d.id) || d.nextRunAt === null || d.nextRunAt.getTime() > now) continue;
      runs.push(runner.run(d.id, { scheduledFor: d.nextRunAt, reason: 'catch-up' }));
    }
    await Promise.allSettled(runs);
    await runner.flush();
  }

  return {
    async create(input) {
      const cron = checkCron(input.cron);
      if (!cron.ok) throw new InvalidInputError(md`The cron expression ${input.cron} ${cron.problem}.`);
      const zone = checkZone(input.tz);
      if (!zone.ok) throw new InvalidInputError(md`The time zone ${input.tz} ${zone.problem}.`);
      const now = o.now();
      const nextRunAt = nextRunAfter(cron.value, zone.value, now);
      const fields = { ...input, cron: cron.value, tz: zone.value };
      const same = await store.findSame({ ...fields, nextRunAt, cursor: { at: now.toISOString(), keys: [] } });
      let digest: Digest;
      let created = false;
      if (same) {
        digest = (await store.reschedule(same.id, cron.value, zone.value, nextRunAt)) as Digest;
      } else {
        digest = await store.create({ ...fields, nextRunAt, cursor: { at: now.toISOString(), keys: [] } });
        created = true;
      }
      scheduler.arm(digest);
      return { digest, created };
    },
    get: (id) => store.get(id),
    async list(teamId, channelId, userId) {
      const here = channelId ? await store.listForChannel(teamId, channelId) : [];
      const dms = (await store.listForOwner(teamId, userId)).filter((d) => d.inDm && d.channelId !== channelId);
      return { here, dms };
    },
    listOwned: (teamId, userId) => store.listForOwner(teamId, userId),
    nextRun,
    async edit(id, changes) {
      const current = await store.get(id);
      if (!current) return null;
      const cron = checkCron(changes.cron ?? current.cron);
      if (!cron.ok) throw new InvalidInputError(md`The cron expression ${changes.cron ?? ''} ${cron.problem}.`);
      const zone = checkZone(changes.tz ?? current.tz);
      if (!zone.ok) throw new InvalidInputError(md`The time zone ${changes.tz ?? ''} ${zone.problem}.`);
      let d: Digest | null = current;
      if (changes.action !== undefined || changes.targetType !== undefined) {
        const action = changes.action === undefined ? current.action : changes.action;
        const targetType = changes.targetType === undefined ? current.targetType : changes.targetType;
        d = await store.refilter(id, action, targetType);
      }
      if (cron.value !== current.cron || zone.value !== current.tz) {
        const nextRunAt = current.active ? nextRunAfter(cron.value, zone.value, o.now()) : null;
        d = await store.reschedule(id, cron.value, zone.value, nextRunAt);
        if (d) scheduler.arm(d);
      }
      return d;
    },
    async pause(id, by) {
      const d = await store.pause(id, 'person', by);
      if (d) scheduler.disarm(id);
      return d;
    },
    async resume(id) {
      const current = await store.get(id);
      if (!current) return null;
      const d = await store.resume(id, nextRunAfter(current.cron, current.tz, o.now()));
      if (d) scheduler.arm(d);
      return d;
    },
    async remove(id) {
      scheduler.disarm(id);
      return store.remove(id);
    },
    async run(id, reason = 'manual') {
      const outcome = await runner.run(id, { scheduledFor: o.now(), reason });
      await runner.flush();
      return outcome;
    },
    async runDue(reason = 'scheduled') {
      const now = o.now().getTime();
      const due = (await store.listActive()).filter((d) => d.nextRunAt !== null && d.nextRunAt.getTime() <= now);
      const out: { id: number; outcome: RunOutcome }[] = [];
      // In slices, so that thousands of due digests do not all wait in memory at once.
      const slice = Math.max(1, (o.concurrency ?? 8) * 4);
      for (let i = 0; i < due.length; i += slice) {
        const part = due.slice(i, i + slice);
        const outcomes = await Promise.all(
          part.map((d) => runner.run(d.id, { scheduledFor: d.nextRunAt ?? o.now(), reason })),
        );
        part.forEach((d, j) => {
          out.push({ id: d.id, outcome: outcomes[j] as RunOutcome });
        });
      }
      await runner.flush();
      return out;
    },
    async resumeOwner(teamId, userId) {
      const resumed = await store.resumeOwner(teamId, userId, ['token'], (d) => nextRunAfter(d.cron, d.tz, o.now()));
      for (const d of resumed) scheduler.arm(d);
      if (resumed.length > 0) {
        try {
          const dm = await o.slack.openDm(userId);
          await o.slack.post(dm, buildResumedDm(resumed));
        } catch (err) {
          log.warn('could not tell a person their digests resumed', { user: userId, error: String(err) });
        }
      }
      return resumed;
    },
    async start() {
      for (const d of await store.listActive()) scheduler.arm(d);
      log.info('digests armed', scheduler.size);
      void recover().then(
        () => markRecovered(),
        (err: unknown) => {
          log.error('could not settle and catch up digests at start', { error: String(err) });
          markRecovered();
        },
      );
    },
    recovered,
    async stop() {
      if (stopping) return;
      stopping = true;
      scheduler.stop();
      await runner.idle();
    },
    isAdmin: (userId) => o.slack.isAdmin(userId),
    openDm: (userId) => o.slack.openDm(userId),
    runAndTell(id, userId, describe) {
      void runner
        .run(id, { scheduledFor: o.now(), reason: 'manual' })
        .then(async (outcome) => {
          await runner.flush();
          return describe(outcome);
        })
        .then((said) => (said?.message ? o.slack.postEphemeral(said.channelId, userId, said.message) : undefined))
        .catch((err: unknown) => {
          log.warn('could not tell a person how the digest run they asked for went', {
            digest: id,
            user: userId,
            error: err instanceof Error ? err.message : String(err),
          });
        });
    },
    taskOf: (id) => scheduler.task(id),
    isArmed: (id) => scheduler.isArmed(id),
  };
}
