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

const n = noun('watch', (d) => createWatchOperations({ access: d.access, watches: d.watches }));

const label = (id: number) => `watch #${id}`;

async function watchCard(ctx: RequestContext, s: Platform, w: Watch, notice?: Notice): Promise<SlackMessage> {
  return buildWatchCard(w, await cardContext(ctx, s, { notice }));
}

async function watchList(
  ctx: RequestContext,
  s: Platform,
  ops: WatchOperations,
  notice?: Notice,
): Promise<SlackMessage> {
  return buildWatchList(await ops.list(ctx), {
    slashCommand: s.slashCommand,
    ctx: await cardContext(ctx, s, { notice }),
  });
}

/** Redraws the surface a watch button sat on. */
async function redraw(
  where: WatchSurface,
  ctx: RequestContext,
  s: Platform,
  ops: WatchOperations,
  id: number,
  w: Watch | null,
  notice: Notice,
): Promise<Reply> {
  if (where === 'list') return { kind: 'update', message: await watchList(ctx, s, ops, notice) };
  if (where === 'home') return { kind: 'home', view: await s.redrawHome(ctx, { notice }) };
  return { kind: 'update', message: w ? await watchCard(ctx, s, w, notice) : buildWatchGone(id) };
}

const stateWords = (action: WatchAction, id: number) =>
  stale(`Watch #${id} is already ${action === 'pause' ? 'paused' : 'active'}.`);

const manage = (action: Exclude<WatchAction, 'remove'>) =>
  n.on(WatchButtons[action], async (v, ctx, s, ops): Promise<Reply> => {
    const w = await ops.get(v.w);
    if (!w) return redraw(v.s, ctx, s, ops, v.w, null, stale(`Watch #${v.w} was removed.`));
    const r = await ops.manage(ctx, v.w, action);
    const notice = r.changed ? done(action, ctx.actor.userId, label(v.w)) : stateWords(action, v.w);
    return redraw(v.s, ctx, s, ops, v.w, r.watch, notice);
  });

export const watches = n.define({
  commands: {
    async 'watch.pipelines'(cmd, ctx, s, ops) {
      if (!ctx.channelId) throw new Error('a watch needs the channel it was asked for in');
      const project = await s.resolveProject(ctx, cmd.target.project);
      const { watch, created } = await ops.create(
        ctx,
        ctx.channelId,
        project,
        cmd.flags.ref ?? null,
        cmd.flags.status ?? 'failed',
      );
      const notice = created
        ? done('create', ctx.actor.userId, label(watch.id))
        : stale(`This channel already has watch #${watch.id} of these pipelines; nothing was changed.`);
      return ephemeral(await watchCard(ctx, s, watch, notice));
    },
    async 'watch.list'(_cmd, ctx, s, ops) {
      return ephemeral(await watchList(ctx, s, ops));
    },
    async 'watch.pause'(cmd, ctx, s, ops) {
      const r = await ops.manage(ctx, cmd.args.id, 'pause');
      const notice = r.changed ? done('pause', ctx.actor.userId, label(cmd.args.id)) : stateWords('pause', cmd.args.id);
      return ephemeral(await watchCard(ctx, s, r.watch, notice));
    },
    async 'watch.resume'(cmd, ctx, s, ops) {
      const r = await ops.manage(ctx, cmd.args.id, 'resume');
      const notice = r.changed
        ? done('resume', ctx.actor.userId, label(cmd.args.id))
        : stateWords('resume', cmd.args.id);
      return ephemeral(await watchCard(ctx, s, r.watch, notice));
    },
    async 'watch.remove'(cmd, ctx, _s, ops) {
      const w = await ops.find(cmd.args.id);
      await ops.checkManage(ctx, w, 'remove');
      return ephemeral(buildConfirmPrompt(removeWatchConfirmation(w), WatchButtons.remove, { w: w.id, s: 'card' }));
    },
  },
  buttons: [
    manage('pause'),
    manage('resume'),
    n.on(WatchButtons.remove, async (v, ctx, s, ops): Promise<Reply> => {
      const w = await ops.get(v.w);
      if (!w) return redraw(v.s, ctx, s, ops, v.w, null, stale(`Watch #${v.w} was already removed.`));
      await ops.manage(ctx, w.id, 'remove');
      if (v.s === 'list' || v.s === 'home') {
        return redraw(v.s, ctx, s, ops, w.id, null, done('remove', ctx.actor.userId, label(w.id)));
      }
      return { kind: 'update', message: buildWatchRemoved(w, ctx.actor.userId) };
    }),
  ],
});
