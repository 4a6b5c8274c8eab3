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

const awardNoun = noun('award', (deps) => createAwardOperations(deps));

/** The issue, merge request or snippet a command names (and its note, with `--note`), its project resolved. */
async function targetOf(
  ctx: RequestContext,
  platform: Platform,
  command: {
    target: { kind: AwardTarget['kind']; project: ProjectRef | null; iid: number };
    flags: { note?: number };
  },
): Promise<AwardTarget> {
  const project = await platform.resolveProject(ctx, command.target.project);
  return {
    kind: command.target.kind,
    project,
    iid: command.target.iid,
    ...(command.flags.note !== undefined ? { noteId: command.flags.note } : {}),
  };
}

export const awards = awardNoun.define({
  lists: {
    async 'award.list'(command, ctx, platform, ops, place, notice) {
      const target = await targetOf(ctx, platform, command);
      const perPage = pageSize(command.flags.perPage);
      const result = await ops.list(ctx, target, {
        ...(command.flags.page ? { page: command.flags.page } : {}),
        ...(perPage ? { perPage } : {}),
      });
      return buildAwardList(result.items, target, result, { place, ctx: await cardContext(ctx, platform, { notice }) });
    },
  },
  commands: {
    async 'award.show'(command, ctx, platform, ops) {
      const target = await targetOf(ctx, platform, command);
      const award = await ops.get(ctx, target, command.args.awardId);
      return {
        kind: 'message',
        message: buildAwardCard(award, target, await cardContext(ctx, platform)),
        inChannel: command.share,
      };
    },
    async 'award.add'(command, ctx, platform, ops) {
      const name = command.args.emoji;
      // Checked before the project is even looked up: a typo costs no call.
      if (!isKnownAwardEmoji(name)) throw new InvalidInputError(unknownEmojiText(name, closestAwardEmoji(name)));
      const target = await targetOf(ctx, platform, command);
      const outcome = await ops.award(ctx, target, name);
      return ephemeral(buildAwarded(outcome, { name, target, serverUrl: platform.serverUrl }));
    },
    async 'award.remove'(command, ctx, platform, ops) {
      const target = await targetOf(ctx, platform, command);
      await ops.remove(ctx, target, command.args.awardId);
      return ephemeral(
        buildUnawarded(command.args.awardId, { target, actorId: ctx.actor.userId, serverUrl: platform.serverUrl }),
      );
    },
  },
});
