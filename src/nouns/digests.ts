import { DigestButtons, type DigestSurface } from '../buttons/digests.js';
import type { RunOutcome } from '../digest/runner.js';
import { InvalidInputError } from '../errors.js';
import type { RequestContext } from '../operations/context.js';
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
import { buildTodosDigest } from '../views/digest-posts.js';
import { digestSubject, removeConfirmation } from '../views/digests.js';
import { code, md } from '../views/mrkdwn.js';
import { done, type Notice, stale } from '../views/notice.js';
import { cardContext } from './support.js';
import { ephemeral, noun, type Platform, type Reply } from './types.js';

// Digests: todos and events posted on a schedule. Creating one reads with the creator's token once (the project
// or person it follows); managing them answers from the bot's own state; a run reads with the owner's token.

const n = noun('digest', (d) => createDigestOperations({ access: d.access, digests: d.digests }));

async function digestCard(
  ctx: RequestContext,
  s: Platform,
  ops: DigestOperations,
  d: Digest,
  notice?: Notice,
): Promise<SlackMessage> {
  const timeZone = await s.timeZoneOf(ctx.actor.userId);
  return buildDigestCard(d, ops.nextRun(d), await cardContext(ctx, s, { notice, timeZone }));
}

async function digestList(
  ctx: RequestContext,
  s: Platform,
  ops: DigestOperations,
  notice?: Notice,
): Promise<SlackMessage> {
  const { here, dms } = await ops.list(ctx);
  const timeZone = await s.timeZoneOf(ctx.actor.userId);
  const rows = (ds: Digest[]) => ds.map((digest) => ({ digest, next: ops.nextRun(digest) }));
  return buildDigestList(rows(here), rows(dms), {
    slashCommand: s.slashCommand,
    ctx: await cardContext(ctx, s, { notice, timeZone }),
  });
}

/** What a person who asked for a run learns of it when it did not post where they are. */
async function outcomeMessage(
  ctx: RequestContext,
  s: Platform,
  d: Digest,
  outcome: RunOutcome,
): Promise<SlackMessage | null> {
  switch (outcome.kind) {
    case 'posted':
    case 'settled':
      return d.channelId === ctx.channelId ? null : buildDigestRan(d, outcome.items);
    case 'empty':
      return buildDigestNothingNew(d, outcome.since, await s.timeZoneOf(ctx.actor.userId));
    default:
      return buildDigestNotRun(d, runDetail(outcome, await s.timeZoneOf(ctx.actor.userId)));
  }
}

const label = (id: number) => `digest #${id}`;

/** Redraws the surface a digest button sat on; a posted digest itself is left as posted. */
async function redraw(
  where: DigestSurface,
  ctx: RequestContext,
  s: Platform,
  ops: DigestOperations,
  id: number,
  d: Digest | null,
  notice: Notice,
): Promise<Reply> {
  if (where === 'list') return { kind: 'update', message: await digestList(ctx, s, ops, notice) };
  if (where === 'home') return { kind: 'home', view: await s.redrawHome(ctx, { notice }) };
  if (!d) return where === 'card' ? { kind: 'update', message: buildDigestGone(id) } : ephemeral(buildDigestGone(id));
  const card = await digestCard(ctx, s, ops, d, notice);
  return where === 'card' ? { kind: 'update', message: card } : ephemeral(card);
}

const manage = (action: Exclude<DigestAction, 'remove'>) =>
  n.on(DigestButtons[action], async (v, ctx, s, ops): Promise<Reply> => {
    const d = await ops.get(v.d);
    if (!d) return redraw(v.w, ctx, s, ops, v.d, null, stale(`Digest #${v.d} was removed.`));
    const r = await ops.manage(ctx, v.d, action);
    const notice = r.changed
      ? done(action, ctx.actor.userId, label(v.d))
      : stale(`Digest #${v.d} is already ${action === 'pause' ? 'paused' : 'running'}.`);
    return redraw(v.w, ctx, s, ops, v.d, r.digest, notice);
  });

/** A todos digest drawn again after a Done, as it is now for the clicker (its owner). */
async function todosRedraw(
  ctx: RequestContext,
  s: Platform,
  ops: DigestOperations,
  d: Digest | null,
  notice: Notice,
): Promise<Reply> {
  if (!d) return ephemeral(buildTodoHandled(notice));
  const { todos, truncated } = await ops.pendingTodos(ctx);
  const ownerName = (await ctx.session.connection())?.username ?? null;
  return {
    kind: 'update',
    message: buildTodosDigest({ digest: d, todos, truncated, serverUrl: s.serverUrl, now: ctx.now, ownerName, notice }),
  };
}

export const digests = n.define({
  commands: {
    async 'digest.todos'(cmd, ctx, s, ops) {
      const tz = cmd.flags.tz ?? (await s.timeZoneOf(ctx.actor.userId));
      const here = cmd.flags.here === true && ctx.channelId !== null;
      const channelId = here && ctx.channelId ? ctx.channelId : await ops.dmOf(ctx);
      const { digest, created } = await ops.create(
        ctx,
        { kind: 'todos', channelId, inDm: !here, cron: cmd.flags.cron, tz },
        s.people,
      );
      return ephemeral(
        await digestCard(ctx, s, ops, digest, done(created ? 'create' : 'edit', ctx.actor.userId, label(digest.id))),
      );
    },
    async 'digest.events'(cmd, ctx, s, ops) {
      const tz = cmd.flags.tz ?? (await s.timeZoneOf(ctx.actor.userId));
      if (!ctx.channelId) throw new Error('an events digest needs the channel it was asked for in');
      const filters = {
        ...(cmd.flags.action ? { action: cmd.flags.action } : {}),
        ...(cmd.flags.targetType ? { targetType: cmd.flags.targetType } : {}),
      };
      const input = cmd.flags.user
        ? { kind: 'user_events' as const, user: cmd.flags.user }
        : { kind: 'project_events' as const, project: await s.resolveProject(ctx, cmd.target.project) };
      const { digest, created } = await ops.create(
        ctx,
        { ...input, ...filters, channelId: ctx.channelId, inDm: false, cron: cmd.flags.cron, tz },
        s.people,
      );
      return ephemeral(
        await digestCard(ctx, s, ops, digest, done(created ? 'create' : 'edit', ctx.actor.userId, label(digest.id))),
      );
    },
    async 'digest.list'(_cmd, ctx, s, ops) {
      return ephemeral(await digestList(ctx, s, ops));
    },
    async 'digest.edit'(cmd, ctx, s, ops) {
      const { cron, tz, action, targetType } = cmd.flags;
      if (cron === undefined && tz === undefined && action === undefined && targetType === undefined) {
        throw new InvalidInputError(
          md`Say what to change: ${code('--cron')}, ${code('--tz')}, ${code('--action')} or ${code('--target-type')}. Nothing was changed.`,
        );
      }
      const anyAsNone = (v: string | undefined) => (v === undefined ? undefined : v === 'any' ? null : v);
      const d = await ops.edit(ctx, cmd.args.id, {
        ...(cron !== undefined ? { cron } : {}),
        ...(tz !== undefined ? { tz } : {}),
        ...(action !== undefined ? { action: anyAsNone(action) } : {}),
        ...(targetType !== undefined ? { targetType: anyAsNone(targetType) } : {}),
      });
      return ephemeral(await digestCard(ctx, s, ops, d, done('edit', ctx.actor.userId, label(d.id))));
    },
    async 'digest.pause'(cmd, ctx, s, ops) {
      const r = await ops.manage(ctx, cmd.args.id, 'pause');
      const notice = r.changed
        ? done('pause', ctx.actor.userId, label(cmd.args.id))
        : stale(`Digest #${cmd.args.id} is already paused.`);
      return ephemeral(await digestCard(ctx, s, ops, r.digest, notice));
    },
    async 'digest.resume'(cmd, ctx, s, ops) {
      const r = await ops.manage(ctx, cmd.args.id, 'resume');
      const notice = r.changed
        ? done('resume', ctx.actor.userId, label(cmd.args.id))
        : stale(`Digest #${cmd.args.id} is already running.`);
      return ephemeral(await digestCard(ctx, s, ops, r.digest, notice));
    },
    async 'digest.remove'(cmd, ctx, _s, ops) {
      const d = await ops.find(cmd.args.id);
      await ops.checkManage(ctx, d, 'remove');
      return ephemeral(buildConfirmPrompt(removeConfirmation(d), DigestButtons.remove, { d: d.id, w: 'card' }));
    },
    async 'digest.run'(cmd, ctx, s, ops) {
      const d = await ops.find(cmd.args.id);
      await ops.checkRun(ctx, d);
      // The answer rides on the command's acknowledgement, which cannot wait for a run: the run goes on after
      // it, and the person hears of it only when it did not post where they are.
      const channelId = ctx.channelId;
      ops.runAndTell(ctx, d.id, async (outcome) =>
        channelId ? { channelId, message: await outcomeMessage(ctx, s, d, outcome) } : null,
      );
      return ephemeral(buildDigestRunning(d));
    },
  },
  buttons: [
    manage('pause'),
    manage('resume'),
    n.on(DigestButtons.run, async (v, ctx, s, ops): Promise<Reply> => {
      const d = await ops.get(v.d);
      if (!d) return redraw(v.w, ctx, s, ops, v.d, null, stale(`Digest #${v.d} was removed.`));
      await ops.checkRun(ctx, d);
      const outcome = await ops.run(d.id);
      const after = (await ops.get(d.id)) ?? d;
      const notice = done('digest-run', ctx.actor.userId, runDetail(outcome, await s.timeZoneOf(ctx.actor.userId)));
      return redraw(v.w, ctx, s, ops, v.d, after, notice);
    }),
    n.on(DigestButtons.remove, async (v, ctx, s, ops): Promise<Reply> => {
      const d = await ops.get(v.d);
      if (!d) return redraw(v.w, ctx, s, ops, v.d, null, stale(`Digest #${v.d} was already removed.`));
      await ops.manage(ctx, d.id, 'remove');
      if (v.w === 'list' || v.w === 'home') {
        return redraw(v.w, ctx, s, ops, d.id, null, done('remove', ctx.actor.userId, label(d.id)));
      }
      const removed = buildDigestRemoved(d, ctx.actor.userId);
      return v.w === 'card' ? { kind: 'update', message: removed } : ephemeral(removed);
    }),
    n.on(DigestButtons.done, async (v, ctx, s, ops): Promise<Reply> => {
      const d = await ops.get(v.d);
      const changed = await ops.todoDone(ctx, d, v.t);
      const notice = changed ? done('done', ctx.actor.userId, `todo #${v.t}`) : stale(`Todo #${v.t} is already done.`);
      return todosRedraw(ctx, s, ops, d, notice);
    }),
    n.on(DigestButtons.alldone, async (v, ctx, s, ops): Promise<Reply> => {
      const d = await ops.get(v.d);
      await ops.allDone(ctx, d);
      return todosRedraw(ctx, s, ops, d, done('alldone', ctx.actor.userId, d ? digestSubject(d) : undefined));
    }),
  ],
});
