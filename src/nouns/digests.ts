import { DigestButtons, type DigestSurface } from '../buttons/digests.js';
import { InvalidInputError } from '../errors.js';
import type { RequestContext } from '../operations/context.js';
import type { RunOutcome } from '../operations/digest-service.js';
import { createDigestOperations, type DigestAction, type DigestOperations } from '../operations/digests.js';
import type { Digest } from '../store/digest-store.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import {
  buildDigestCard,
  buildDigestGone,
  buildDigestList,
  buildDigestNothingNew,
  buildDigestNotRun,
  buildDigestRan,
  buildDigestRemoved,
  buildDigestRunning,
  buildTodoHandled,
  runDetail,
} from '../views/digest-cards.js';
import { buildDigestChangedByOther } from '../views/digest-notices.js';
import { buildTodosDigest } from '../views/digest-posts.js';
import { digestSubject, removeConfirmation } from '../views/digests.js';
import { code, md } from '../views/mrkdwn.js';
import { done, type Notice, stale } from '../views/notice.js';
import { cardContext } from './support.js';
import { ephemeral, noun, type Platform, type Reply } from './types.js';

// Digests: todos, events and a project's weekly insights posted on a schedule. Creating one reads with the creator's token once (the project
// or person it follows); managing them answers from the bot's own state; a run reads with the owner's token.

const digestNoun = noun('digest', (deps) => createDigestOperations({ access: deps.access, digests: deps.digests }));

async function digestCard({
  ctx,
  platform,
  ops,
  digest,
  notice,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: DigestOperations;
  digest: Digest;
  notice?: Notice;
}): Promise<SlackMessage> {
  const timeZone = await platform.timeZoneOf(ctx.actor.userId);
  return buildDigestCard(digest, ops.nextRun(digest), await cardContext(ctx, platform, { notice, timeZone }));
}

/** The card of a digest just made by a `/gl digest <kind>` (or the one it changed: the same one asked for again). */
function madeCard({
  ctx,
  platform,
  ops,
  made,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: DigestOperations;
  made: { digest: Digest; created: boolean };
}): Promise<SlackMessage> {
  const { digest, created } = made;
  const notice = done(created ? 'create' : 'edit', { actorId: ctx.actor.userId, detail: label(digest.id) });
  return digestCard({ ctx, platform, ops, digest, notice });
}

async function digestList({
  ctx,
  platform,
  ops,
  notice,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: DigestOperations;
  notice?: Notice;
}): Promise<SlackMessage> {
  const { here, dms } = await ops.list(ctx);
  const timeZone = await platform.timeZoneOf(ctx.actor.userId);
  const rows = (digests: Digest[]) => digests.map((digest) => ({ digest, next: ops.nextRun(digest) }));
  return buildDigestList(rows(here), rows(dms), {
    slashCommand: platform.slashCommand,
    ctx: await cardContext(ctx, platform, { notice, timeZone }),
  });
}

/** What a person who asked for a run learns of it when it did not post where they are. */
async function outcomeMessage({
  ctx,
  platform,
  digest,
  outcome,
}: {
  ctx: RequestContext;
  platform: Platform;
  digest: Digest;
  outcome: RunOutcome;
}): Promise<SlackMessage | null> {
  switch (outcome.kind) {
    case 'posted':
    case 'settled':
      return digest.channelId === ctx.channelId ? null : buildDigestRan(digest, outcome.items);
    case 'empty':
      return buildDigestNothingNew(digest, outcome.since, await platform.timeZoneOf(ctx.actor.userId));
    default:
      return buildDigestNotRun(digest, runDetail(outcome, await platform.timeZoneOf(ctx.actor.userId)));
  }
}

const label = (id: number) => `digest #${id}`;

/** Redraws the surface a digest button sat on; a posted digest itself is left as posted. */
async function redraw({
  where,
  ctx,
  platform,
  ops,
  id,
  digest,
  notice,
}: {
  where: DigestSurface;
  ctx: RequestContext;
  platform: Platform;
  ops: DigestOperations;
  id: number;
  digest: Digest | null;
  notice: Notice;
}): Promise<Reply> {
  if (where === 'list') return { kind: 'update', message: await digestList({ ctx, platform, ops, notice }) };
  if (where === 'home') return { kind: 'home', view: await platform.redrawHome(ctx, { notice }) };
  if (!digest)
    return where === 'card' ? { kind: 'update', message: buildDigestGone(id) } : ephemeral(buildDigestGone(id));
  const card = await digestCard({ ctx, platform, ops, digest, notice });
  return where === 'card' ? { kind: 'update', message: card } : ephemeral(card);
}

const manage = (action: Exclude<DigestAction, 'remove'>) =>
  digestNoun.on(DigestButtons[action], async (value, ctx, platform, ops): Promise<Reply> => {
    const digest = await ops.get(value.d);
    if (!digest)
      return redraw({
        where: value.w,
        ctx,
        platform,
        ops,
        id: value.d,
        digest: null,
        notice: stale(`Digest #${value.d} was removed.`),
      });
    const result = await ops.manage(ctx, value.d, action);
    if (result.changed)
      await ops.tellOwner(ctx, result.digest, buildDigestChangedByOther(result.digest, ctx.actor.userId, action));
    const notice = result.changed
      ? done(action, { actorId: ctx.actor.userId, detail: label(value.d) })
      : stale(`Digest #${value.d} is already ${action === 'pause' ? 'paused' : 'running'}.`);
    return redraw({ where: value.w, ctx, platform, ops, id: value.d, digest: result.digest, notice });
  });

/** A todos digest drawn again after a Done, as it is now for the clicker (its owner). */
async function todosRedraw({
  ctx,
  platform,
  ops,
  digest,
  notice,
}: {
  ctx: RequestContext;
  platform: Platform;
  ops: DigestOperations;
  digest: Digest | null;
  notice: Notice;
}): Promise<Reply> {
  if (!digest) return ephemeral(buildTodoHandled(notice));
  const { todos, truncated } = await ops.pendingTodos(ctx);
  const ownerName = (await ctx.session.connection())?.username ?? null;
  return {
    kind: 'update',
    message: buildTodosDigest({
      digest: digest,
      todos,
      truncated,
      serverUrl: platform.serverUrl,
      now: ctx.now,
      ownerName,
      notice,
    }),
  };
}

export const digests = digestNoun.define({
  commands: {
    async 'digest.todos'(command, ctx, platform, ops) {
      const tz = command.flags.tz ?? (await platform.timeZoneOf(ctx.actor.userId));
      const here = command.flags.here === true && ctx.channelId !== null;
      const channelId = here && ctx.channelId ? ctx.channelId : await ops.dmOf(ctx);
      const { digest, created } = await ops.create(
        ctx,
        { kind: 'todos', channelId, inDm: !here, cron: command.flags.cron, tz },
        platform.people,
      );
      return ephemeral(await madeCard({ ctx, platform, ops, made: { digest, created } }));
    },
    async 'digest.events'(command, ctx, platform, ops) {
      const tz = command.flags.tz ?? (await platform.timeZoneOf(ctx.actor.userId));
      if (!ctx.channelId) throw new Error('an events digest needs the channel it was asked for in');
      const filters = {
        ...(command.flags.action ? { action: command.flags.action } : {}),
        ...(command.flags.targetType ? { targetType: command.flags.targetType } : {}),
      };
      const input = command.flags.user
        ? { kind: 'user_events' as const, user: command.flags.user }
        : { kind: 'project_events' as const, project: await platform.resolveProject(ctx, command.target.project) };
      const { digest, created } = await ops.create(
        ctx,
        { ...input, ...filters, channelId: ctx.channelId, inDm: false, cron: command.flags.cron, tz },
        platform.people,
      );
      return ephemeral(await madeCard({ ctx, platform, ops, made: { digest, created } }));
    },
    async 'digest.insights'(command, ctx, platform, ops) {
      const tz = command.flags.tz ?? (await platform.timeZoneOf(ctx.actor.userId));
      if (!ctx.channelId) throw new Error('an insights digest needs the channel it was asked for in');
      const project = await platform.resolveProject(ctx, command.target.project);
      const { digest, created } = await ops.create(
        ctx,
        {
          kind: 'insights',
          project,
          ...(command.flags.env !== undefined ? { environment: command.flags.env } : {}),
          channelId: ctx.channelId,
          inDm: false,
          cron: command.flags.cron,
          tz,
        },
        platform.people,
      );
      return ephemeral(await madeCard({ ctx, platform, ops, made: { digest, created } }));
    },
    async 'digest.list'(_command, ctx, platform, ops) {
      return ephemeral(await digestList({ ctx, platform, ops }));
    },
    async 'digest.edit'(command, ctx, platform, ops) {
      const { cron, tz, action, targetType } = command.flags;
      if (cron === undefined && tz === undefined && action === undefined && targetType === undefined) {
        throw new InvalidInputError(
          md`Say what to change: ${code('--cron')}, ${code('--tz')}, ${code('--action')} or ${code('--target-type')}. Nothing was changed.`,
        );
      }
      const anyAsNone = (given: string | undefined) =>
        given === undefined ? undefined : given === 'any' ? null : given;
      const digest = await ops.edit(ctx, command.args.id, {
        ...(cron !== undefined ? { cron } : {}),
        ...(tz !== undefined ? { tz } : {}),
        ...(action !== undefined ? { action: anyAsNone(action) } : {}),
        ...(targetType !== undefined ? { targetType: anyAsNone(targetType) } : {}),
      });
      await ops.tellOwner(ctx, digest, buildDigestChangedByOther(digest, ctx.actor.userId, 'edit'));
      return ephemeral(
        await digestCard({
          ctx,
          platform,
          ops,
          digest,
          notice: done('edit', { actorId: ctx.actor.userId, detail: label(digest.id) }),
        }),
      );
    },
    async 'digest.pause'(command, ctx, platform, ops) {
      const result = await ops.manage(ctx, command.args.id, 'pause');
      if (result.changed)
        await ops.tellOwner(ctx, result.digest, buildDigestChangedByOther(result.digest, ctx.actor.userId, 'pause'));
      const notice = result.changed
        ? done('pause', { actorId: ctx.actor.userId, detail: label(command.args.id) })
        : stale(`Digest #${command.args.id} is already paused.`);
      return ephemeral(await digestCard({ ctx, platform, ops, digest: result.digest, notice }));
    },
    async 'digest.resume'(command, ctx, platform, ops) {
      const result = await ops.manage(ctx, command.args.id, 'resume');
      if (result.changed)
        await ops.tellOwner(ctx, result.digest, buildDigestChangedByOther(result.digest, ctx.actor.userId, 'resume'));
      const notice = result.changed
        ? done('resume', { actorId: ctx.actor.userId, detail: label(command.args.id) })
        : stale(`Digest #${command.args.id} is already running.`);
      return ephemeral(await digestCard({ ctx, platform, ops, digest: result.digest, notice }));
    },
    async 'digest.remove'(command, ctx, _platform, ops) {
      const digest = await ops.find(command.args.id);
      await ops.checkManage(ctx, digest, 'remove');
      return ephemeral(
        buildConfirmPrompt(removeConfirmation(digest), DigestButtons.remove, { d: digest.id, w: 'card' }),
      );
    },
    async 'digest.run'(command, ctx, platform, ops) {
      const digest = await ops.find(command.args.id);
      await ops.checkRun(ctx, digest);
      // The answer rides on the command's acknowledgement, which cannot wait for a run: the run goes on after
      // it, and the person hears of it only when it did not post where they are.
      const channelId = ctx.channelId;
      ops.runAndTell(ctx, digest.id, async (outcome) =>
        channelId ? { channelId, message: await outcomeMessage({ ctx, platform, digest, outcome }) } : null,
      );
      return ephemeral(buildDigestRunning(digest));
    },
  },
  buttons: [
    manage('pause'),
    manage('resume'),
    digestNoun.on(DigestButtons.run, async (value, ctx, platform, ops): Promise<Reply> => {
      const digest = await ops.get(value.d);
      if (!digest)
        return redraw({
          where: value.w,
          ctx,
          platform,
          ops,
          id: value.d,
          digest: null,
          notice: stale(`Digest #${value.d} was removed.`),
        });
      await ops.checkRun(ctx, digest);
      const outcome = await ops.run(digest.id);
      const after = (await ops.get(digest.id)) ?? digest;
      const notice = done('digest-run', {
        actorId: ctx.actor.userId,
        detail: runDetail(outcome, await platform.timeZoneOf(ctx.actor.userId)),
      });
      return redraw({ where: value.w, ctx, platform, ops, id: value.d, digest: after, notice });
    }),
    digestNoun.on(DigestButtons.remove, async (value, ctx, platform, ops): Promise<Reply> => {
      const digest = await ops.get(value.d);
      if (!digest)
        return redraw({
          where: value.w,
          ctx,
          platform,
          ops,
          id: value.d,
          digest: null,
          notice: stale(`Digest #${value.d} was already removed.`),
        });
      const removal = await ops.manage(ctx, digest.id, 'remove');
      if (removal.changed)
        await ops.tellOwner(ctx, digest, buildDigestChangedByOther(digest, ctx.actor.userId, 'remove'));
      if (value.w === 'list' || value.w === 'home') {
        return redraw({
          where: value.w,
          ctx,
          platform,
          ops,
          id: digest.id,
          digest: null,
          notice: done('remove', { actorId: ctx.actor.userId, detail: label(digest.id) }),
        });
      }
      const removed = buildDigestRemoved(digest, ctx.actor.userId);
      return value.w === 'card' ? { kind: 'update', message: removed } : ephemeral(removed);
    }),
    digestNoun.on(DigestButtons.done, async (value, ctx, platform, ops): Promise<Reply> => {
      const digest = await ops.get(value.d);
      const changed = await ops.todoDone(ctx, digest, value.t);
      const notice = changed
        ? done('done', { actorId: ctx.actor.userId, detail: `todo #${value.t}` })
        : stale(`Todo #${value.t} is already done.`);
      return todosRedraw({ ctx, platform, ops, digest, notice });
    }),
    digestNoun.on(DigestButtons.alldone, async (value, ctx, platform, ops): Promise<Reply> => {
      const digest = await ops.get(value.d);
      await ops.allDone(ctx, digest);
      return todosRedraw({
        ctx,
        platform,
        ops,
        digest,
        notice: done('alldone', { actorId: ctx.actor.userId, detail: digest ? digestSubject(digest) : undefined }),
      });
    }),
  ],
});
