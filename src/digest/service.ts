import { checkCron, checkZone, nextRunAfter } from '../delivery/cron.js';
import { createScheduledDelivery, type ScheduledDeliveryOptions } from '../delivery/scheduled.js';
import { InvalidInputError } from '../errors.js';
import type { RequestContext } from '../operations/context.js';
import type { DigestService } from '../operations/digest-service.js';
import type { Digest, DigestCursor, DigestStore } from '../store/digest-store.js';
import { md } from '../views/mrkdwn.js';
import { createDigestKind } from './kind.js';
import type { DigestSlack } from './slack.js';

// The one digest service of an app: the commands' and buttons' side of digests, on the delivery kernel
// (src/delivery/scheduled.ts) that runs them. Every change that affects when a digest runs is written to the
// database, which is what the replica that wins a slot's fire reads; it is also armed at once on this replica (so
// that its task exists here), and on every other by their sweep.

/**
 * What the digest service needs: what the kernel runs every kind with (its timing, pacing, leases and test seams,
 * declared once in delivery/scheduled.ts), and what digests read and say on top of it.
 */
export type DigestServiceOptions = Omit<ScheduledDeliveryOptions<Digest, DigestCursor>, 'kind' | 'slack'> & {
  store: DigestStore;
  /** A project's path by its id, read as the person (operations' project resolution). */
  projectPath: (ctx: RequestContext, id: number) => Promise<string>;
  slack: DigestSlack;
  slashCommand: string;
};

export function createDigestService(o: DigestServiceOptions): DigestService {
  const { store } = o;
  const log = o.logger.child({ component: 'digests' });
  const { store: _store, projectPath, slashCommand, ...scheduled } = o;
  const delivery = createScheduledDelivery({
    ...scheduled,
    kind: (access) =>
      createDigestKind({
        store,
        access,
        projectPath,
        serverUrl: o.serverUrl,
        slashCommand,
        hostImage: (image) => o.slack.hostImage(image),
        warn: (message, fields) => log.warn(message, fields),
      }),
  });
  const nextRun = (d: Digest) => (d.active ? nextRunAfter(d.cron, d.tz, o.now()) : null);

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
        digest = (await store.reschedule(same.id, { cron: cron.value, tz: zone.value, nextRunAt })) as Digest;
      } else {
        digest = await store.create({ ...fields, nextRunAt, cursor: { at: now.toISOString(), keys: [] } });
        created = true;
      }
      delivery.arm(digest);
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
        d = await store.reschedule(id, { cron: cron.value, tz: zone.value, nextRunAt });
        if (d) delivery.arm(d);
      }
      return d;
    },
    async pause(id, by) {
      const d = await store.pause(id, 'person', by);
      if (d) delivery.disarm(id);
      return d;
    },
    async resume(id) {
      const current = await store.get(id);
      if (!current) return null;
      const d = await store.resume(id, nextRunAfter(current.cron, current.tz, o.now()));
      if (d) delivery.arm(d);
      return d;
    },
    async remove(id) {
      delivery.disarm(id);
      return store.remove(id);
    },
    async run(id, reason = 'manual') {
      const outcome = await delivery.run(id, { scheduledFor: o.now(), reason });
      await delivery.flush();
      return outcome;
    },
    async runDue(reason = 'scheduled') {
      const now = o.now().getTime();
      const due = (await store.listActive()).filter((d) => d.nextRunAt !== null && d.nextRunAt.getTime() <= now);
      return delivery.runDue(reason, due);
    },
    resumeOwner: (teamId, userId, how = 'connected') => delivery.resumeOwner(teamId, userId, how),
    sweep: () => delivery.sweep(),
    start: () => delivery.start(),
    recovered: delivery.recovered,
    stop: () => delivery.stop(),
    isAdmin: (userId) => o.slack.isAdmin(userId),
    openDm: (userId) => o.slack.openDm(userId),
    async tellOwner(userId, message) {
      try {
        await o.slack.post(await o.slack.openDm(userId), message);
      } catch (err) {
        log.warn('could not tell a digest owner what someone else did to their digest', {
          user: userId,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },
    runAndTell(id, userId, describe) {
      void delivery
        .run(id, { scheduledFor: o.now(), reason: 'manual' })
        .then(async (outcome) => {
          await delivery.flush();
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
    taskOf: (id) => delivery.taskOf(id),
    isArmed: (id) => delivery.isArmed(id),
  };
}
