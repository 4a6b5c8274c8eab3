import { WatchButtons, type WatchSurface } from '../buttons/watches.js';
import type { RequestContext } from '../operations/context.js';
import { createWatchOperations, type WatchAction, type WatchOperations } from '../operations/watches.js';
import type { Watch } from '../store/watch-store.js';
import type { SlackMessage } from '../views/blocks.js';
import { buildConfirmPrompt } from '../views/common.js';
import { done, type Notice, stale } from '../views/notice.js';
import {
  buildWatchCard,
  buildWatchGone,
  buildWatchList,
  buildWatchRemoved,
  removeWatchConfirmation,
} from '../views/watches.js';
import { cardContext } from './support.js';
import { ephemeral, noun, type Platform, type Reply } from './types.js';

// Pipeline watches: a channel told when a project's pipelines fail, and when they are fixed. Creating one reads
// with the creator's token (the project and its newest pipelines); managing them answers from the bot's own state.

const watchNoun = noun('watch', (deps) => createWatchOperations({ access: deps.access, watches: deps.watches }));

const label = (id: number) => `watch #${id}`;

async function watchCard(
  ctx: RequestContext,
  platform: Platform,
  watch: Watch,
  notice?: Notice,
): Promise<SlackMessage> {
  return buildWatchCard(watch, await cardContext(ctx, platform, { notice }));
}

async function watchList(
  ctx: RequestContext,
  platform: Platform,
  ops: WatchOperations,
  notice?: Notice,
): Promise<SlackMessage> {
  return buildWatchList(await ops.list(ctx), {
    slashCommand: platform.slashCommand,
    ctx: await cardContext(ctx, platform, { notice }),
  });
}

/** Redraws the surface a watch button sat on. */
async function redraw(
  where: WatchSurface,
  {
    ctx,
    platform,
    ops,
    id,
    watch,
    notice,
  }: { ctx: RequestContext; platform: Platform; ops: WatchOperations; id: number; watch: Watch | null; notice: Notice },
): Promise<Reply> {
  if (where === 'list') return { kind: 'update', message: await watchList(ctx, platform, ops, notice) };
  if (where === 'home') return { kind: 'home', view: await platform.redrawHome(ctx, { notice }) };
  return { kind: 'update', message: watch ? await watchCard(ctx, platform, watch, notice) : buildWatchGone(id) };
}

const stateWords = (action: WatchAction, id: number) =>
  stale(`Watch #${id} is already ${action === 'pause' ? 'paused' : 'active'}.`);

const manage = (action: Exclude<WatchAction, 'remove'>) =>
  watchNoun.on(WatchButtons[action], async (value, ctx, platform, ops): Promise<Reply> => {
    const w = await ops.get(value.w);
    if (!w)
      return redraw(value.s, {
        ctx,
        platform,
        ops,
        id: value.w,
        watch: null,
        notice: stale(`Watch #${value.w} was removed.`),
      });
    const r = await ops.manage(ctx, value.w, action);
    const notice = r.changed
      ? done(action, { actorId: ctx.actor.userId, detail: label(value.w) })
      : stateWords(action, value.w);
    return redraw(value.s, { ctx, platform, ops, id: value.w, watch: r.watch, notice });
  });

export const watches = watchNoun.define({
  commands: {
    async 'watch.pipelines'(command, ctx, platform, ops) {
      if (!ctx.channelId) throw new Error('a watch needs the channel it was asked for in');
      const project = await platform.resolveProject(ctx, command.target.project);
      const { watch, created } = await ops.create(ctx, {
        channelId: ctx.channelId,
        project,
        ref: command.flags.ref ?? null,
        statusFilter: command.flags.status ?? 'failed',
      });
      const notice = created
        ? done('create', { actorId: ctx.actor.userId, detail: label(watch.id) })
        : stale(`This channel already has watch #${watch.id} of these pipelines; nothing was changed.`);
      return ephemeral(await watchCard(ctx, platform, watch, notice));
    },
    async 'watch.list'(_command, ctx, platform, ops) {
      return ephemeral(await watchList(ctx, platform, ops));
    },
    async 'watch.pause'(command, ctx, platform, ops) {
      const r = await ops.manage(ctx, command.args.id, 'pause');
      const notice = r.changed
        ? done('pause', { actorId: ctx.actor.userId, detail: label(command.args.id) })
        : stateWords('pause', command.args.id);
      return ephemeral(await watchCard(ctx, platform, r.watch, notice));
    },
    async 'watch.resume'(command, ctx, platform, ops) {
      const r = await ops.manage(ctx, command.args.id, 'resume');
      const notice = r.changed
        ? done('resume', { actorId: ctx.actor.userId, detail: label(command.args.id) })
        : stateWords('resume', command.args.id);
      return ephemeral(await watchCard(ctx, platform, r.watch, notice));
    },
    async 'watch.remove'(command, ctx, _platform, ops) {
      const w = await ops.find(command.args.id);
      await ops.checkManage(ctx, w, 'remove');
      return ephemeral(buildConfirmPrompt(removeWatchConfirmation(w), WatchButtons.remove, { w: w.id, s: 'card' }));
    },
  },
  buttons: [
    manage('pause'),
    manage('resume'),
    watchNoun.on(WatchButtons.remove, async (value, ctx, platform, ops): Promise<Reply> => {
      const w = await ops.get(value.w);
      if (!w)
        return redraw(value.s, {
          ctx,
          platform,
          ops,
          id: value.w,
          watch: null,
          notice: stale(`Watch #${value.w} was already removed.`),
        });
      await ops.manage(ctx, w.id, 'remove');
      if (value.s === 'list' || value.s === 'home') {
        return redraw(value.s, {
          ctx,
          platform,
          ops,
          id: w.id,
          watch: null,
          notice: done('remove', { actorId: ctx.actor.userId, detail: label(w.id) }),
        });
      }
      return { kind: 'update', message: buildWatchRemoved(w, ctx.actor.userId) };
    }),
  ],
});
