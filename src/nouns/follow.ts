import type { FollowCard, FollowService } from '../follow/service.js';
import { DONE_STATUSES, type Drawn } from '../follow/state.js';
import type { Project } from '../gitlab/project.js';
import type { SlackMessage } from '../views/blocks.js';
import { context } from '../views/blocks.js';
import { withFollowLine } from '../views/follow.js';
import { md } from '../views/mrkdwn.js';
import type { ButtonContext, CommandContext, Reply } from './types.js';

// Answers that follow what they show (COMMANDS.md "Following a pipeline or a job"): the card is answered as usual
// and a follow is started for it. With `--share` the card is posted in the channel (chat.postMessage, so that it
// can be redrawn with chat.update); otherwise it is the person's ephemeral answer, redrawn through its response_url.

export interface Followed {
  kind: 'pipeline' | 'job';
  project: Project;
  id: number;
  ref: string | null;
  status: string;
  drawn: Drawn;
}

/** The answer to a command whose card follows `what` (a plain answer when there is nothing left to follow). */
export async function answerFollowing(
  ctx: CommandContext,
  {
    follows,
    what,
    card,
    share,
  }: { follows: FollowService | undefined; what: Followed; card: SlackMessage; share: boolean },
): Promise<Reply> {
  if (!follows) return { kind: 'message', message: card, inChannel: share };
  // Asked to follow something that has already finished: the card as it is, saying there is nothing to follow.
  if (DONE_STATUSES.has(what.status)) {
    return {
      kind: 'message',
      message: withFollowLine(card, { kind: 'finished', status: what.status }),
      inChannel: share,
    };
  }
  let note: string | null = null;
  if (share && ctx.channelId) {
    const posted = await follows.postCard(ctx.channelId, withFollowLine(card, { kind: 'following', shared: true }));
    if ('ts' in posted) {
      await follows.start({ ...what, ctx, card: { kind: 'shared', channel: ctx.channelId, ts: posted.ts } });
      return { kind: 'none' };
    }
    // The bot may not post here (not a member, an archived channel): the person still gets a card that follows.
    note = `The card could not be posted in this channel (${posted.refused}); invite the bot to share it. It is shown to you alone.`;
  }
  const url = ctx.responseUrl ?? null;
  const usesSpent = ctx.responseUsesSpent?.() ?? 1;
  const followCard: FollowCard = url ? { kind: 'ephemeral', responseUrl: url, usesSpent } : { kind: 'none' };
  await follows.start({ ...what, ctx, card: followCard });
  const shown = withFollowLine(card, { kind: 'following', shared: false });
  if (note) shown.blocks = [...(shown.blocks ?? []), context([md`:warning: ${note}`])];
  return { kind: 'message', message: shown };
}

/**
 * After a Retry or Play click redrew the card it sat on: the card follows what it now shows. A card in the channel
 * is redrawn with chat.update; an ephemeral one through the click's response_url, whose first use was the redraw.
 * A row of a list, the Home tab or a modal is no card to follow.
 */
export async function followClicked(
  ctx: ButtonContext,
  {
    follows,
    what,
    card,
    inList,
  }: { follows: FollowService | undefined; what: Followed; card: SlackMessage; inList: boolean },
): Promise<Reply> {
  const update: Reply = { kind: 'update', message: card };
  if (!follows || inList || ctx.surface !== 'message' || !ctx.message || DONE_STATUSES.has(what.status)) return update;
  const shared = !ctx.message.ephemeral && ctx.channelId !== null;
  const followCard: FollowCard = shared
    ? { kind: 'shared', channel: ctx.channelId as string, ts: ctx.message.ts }
    : ctx.responseUrl
      ? { kind: 'ephemeral', responseUrl: ctx.responseUrl, usesSpent: 1 }
      : { kind: 'none' };
  await follows.start({ ...what, ctx, card: followCard });
  return { kind: 'update', message: withFollowLine(card, { kind: 'following', shared }) };
}
