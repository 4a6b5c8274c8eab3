import { InvalidInputError } from '../errors.js';
import type { AwardTarget } from '../gitlab/award-emoji.js';
import { closestAwardEmoji, isKnownAwardEmoji } from '../gitlab/emoji-names.js';
import type { ProjectRef } from '../grammar/index.js';
import { createAwardOperations } from '../operations/awards.js';
import type { RequestContext } from '../operations/context.js';
import { buildAwardCard, buildAwarded, buildAwardList, buildUnawarded, unknownEmojiText } from '../views/awards.js';
import { pageSize } from '../views/lists.js';
import { cardContext } from './support.js';
import { ephemeral, noun, type Platform } from './types.js';

const n = noun('award', (d) => createAwardOperations(d));

/** The issue, merge request or snippet a command names (and its note, with `--note`), its project resolved. */
async function targetOf(
  ctx: RequestContext,
  s: Platform,
  cmd: {
    target: { kind: AwardTarget['kind']; project: ProjectRef | null; iid: number };
    flags: { note?: number };
  },
): Promise<AwardTarget> {
  const project = await s.resolveProject(ctx, cmd.target.project);
  return {
    kind: cmd.target.kind,
    project,
    iid: cmd.target.iid,
    ...(cmd.flags.note !== undefined ? { noteId: cmd.flags.note } : {}),
  };
}

export const awards = n.define({
  lists: {
    async 'award.list'(cmd, ctx, s, ops, place, notice) {
      const target = await targetOf(ctx, s, cmd);
      const perPage = pageSize(cmd.flags.perPage);
      const result = await ops.list(ctx, target, {
        ...(cmd.flags.page ? { page: cmd.flags.page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      return buildAwardList(result.items, target, result, { place, ctx: await cardContext(ctx, s, { notice }) });
    },
  },
  commands: {
    async 'award.show'(cmd, ctx, s, ops) {
      const target = await targetOf(ctx, s, cmd);
      const award = await ops.get(ctx, target, cmd.args.awardId);
      return {
        kind: 'message',
        message: buildAwardCard(award, target, await cardContext(ctx, s)),
        inChannel: cmd.share,
      };
    },
    async 'award.add'(cmd, ctx, s, ops) {
      const name = cmd.args.emoji;
      // Checked before the project is even looked up: a typo costs no call.
      if (!isKnownAwardEmoji(name)) throw new InvalidInputError(unknownEmojiText(name, closestAwardEmoji(name)));
      const target = await targetOf(ctx, s, cmd);
      const outcome = await ops.award(ctx, target, name);
      return ephemeral(buildAwarded(outcome, name, target, s.serverUrl));
    },
    async 'award.remove'(cmd, ctx, s, ops) {
      const target = await targetOf(ctx, s, cmd);
      await ops.remove(ctx, target, cmd.args.awardId);
      return ephemeral(buildUnawarded(cmd.args.awardId, target, ctx.actor.userId, s.serverUrl));
    },
  },
});
