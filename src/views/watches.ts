import type { Button } from '@slack/types';
import { AccountButtons } from '../buttons/common.js';
import { WatchButtons, type WatchSurface } from '../buttons/watches.js';
import type { Refusal } from '../errors.js';
import type { Watch, WatchPauseReason } from '../store/watch-store.js';
import {
  actions,
  type Block,
  button,
  type Confirmation,
  context,
  fields,
  header,
  message,
  type SlackMessage,
  section,
} from './blocks.js';
import { type CardContext, type TimeContext, when } from './common.js';
import { channelRef } from './digests.js';
import { code, joinMd, link, type Md, md, mention, type Text } from './mrkdwn.js';
import { noticeBlocks } from './notice.js';

// A pipeline watch as its people manage it: what it is, its card, a channel's list, the words when it is refused
// or paused. The cards it posts are in watch-posts.ts.

/** "failed pipelines of demo/web", "finished pipelines of demo/web on `main`". */
export function watchSubject(w: Pick<Watch, 'statusFilter' | 'project' | 'ref'>): Md {
  return md`${w.statusFilter === 'failed' ? 'failed' : 'finished'} pipelines of ${w.project.path}${w.ref ? md` on ${code(w.ref)}` : ''}`;
}

const PAUSED_WHY: Record<WatchPauseReason, string> = {
  person: 'paused by a person',
  token: "the creator's token was refused; it resumes when the server accepts it again",
  forbidden: 'the server refused the read (403)',
  not_found: 'the server did not find the project (404)',
  channel: 'Slack refused the post in its channel',
};

function stateLine(w: Watch): Text {
  if (w.active) return 'active';
  return md`paused${w.pausedBy ? md` by ${mention(w.pausedBy)}` : ''} (${PAUSED_WHY[w.pausedReason ?? 'person']})`;
}

function lastPollText(w: Watch, at: TimeContext): Text {
  if (!w.lastPollAt) return 'not yet';
  return md`${w.lastResult ?? 'ok'} ${when(w.lastPollAt.toISOString(), at)}`;
}

export function removeWatchConfirmation(w: Watch): Confirmation {
  return {
    title: 'Remove this watch?',
    question: md`Remove watch #${w.id} (${watchSubject(w)} in ${channelRef(w.channelId)})? The channel is no longer told, and the cards it posted are no longer marked fixed.`,
    confirm: 'Remove',
    yes: `Yes, remove watch #${w.id}`,
  };
}

/** Pause or Resume, Remove; `where` tells the handler what to redraw. */
export function watchButtons(w: Watch, where: WatchSurface, slot?: number): Button[] {
  const v = { w: w.id, s: where };
  return [
    w.active
      ? button({ text: 'Pause', def: WatchButtons.pause, value: v, slot })
      : button({ text: 'Resume', def: WatchButtons.resume, value: v, style: 'primary', slot }),
    button({
      text: 'Remove',
      def: WatchButtons.remove,
      value: v,
      style: 'danger',
      confirm: removeWatchConfirmation(w),
      slot,
    }),
  ];
}

export function buildWatchCard(w: Watch, c: CardContext): SlackMessage {
  const blocks: Block[] = [
    section(md`:eyes: *Watch #${w.id}* · ${watchSubject(w)} → ${channelRef(w.channelId)}`),
    fields([
      md`*State*\n${stateLine(w)}`,
      md`*Last poll*\n${lastPollText(w, c)}`,
      md`*Created by*\n${mention(w.creatorId)}`,
      md`*Posts*\n${w.statusFilter === 'failed' ? 'failures, and their fix' : 'every ending, and the fix of a failure'}`,
    ]),
    context([md`Polled every minute · reads with ${mention(w.creatorId)}'s token`]),
    ...noticeBlocks(c.notice),
    actions(watchButtons(w, 'card')),
  ];
  return message(md`Watch #${w.id}: ${watchSubject(w)}, ${w.active ? 'active' : 'paused'}`, blocks);
}

/** A watch as a row; its last poll in the reader's zone. */
export function watchRow(w: Watch, at: TimeContext): Text {
  const state = w.active ? md`last poll: ${lastPollText(w, at)}` : md`:double_vertical_bar: ${stateLine(w)}`;
  return md`*#${w.id}* ${watchSubject(w)} → ${channelRef(w.channelId)} · by ${mention(w.creatorId)}\n${state}`;
}

/** Rows that fit one message: two blocks each (the row and its buttons) inside Slack's 50. */
export const WATCH_LIST_ROWS = 20;

export function buildWatchList(watches: readonly Watch[], o: { slashCommand: string; ctx: CardContext }): SlackMessage {
  const blocks: Block[] = [header('Watches'), ...noticeBlocks(o.ctx.notice)];
  if (watches.length === 0) {
    blocks.push(
      section(
        md`No watches in this channel. Start one with ${code(`${o.slashCommand} watch pipelines group/project`)}.`,
      ),
    );
  }
  const shown = watches.slice(0, WATCH_LIST_ROWS);
  shown.forEach((w, i) => {
    blocks.push(section(watchRow(w, o.ctx)), actions(watchButtons(w, 'list', i)));
  });
  const footer = [`${watches.length} in this channel`];
  const left = watches.length - shown.length;
  if (left > 0) footer.push(`${left} more not shown: pause, resume or remove them by id`);
  blocks.push(context([footer.join(' · ')]));
  return message(`Watches: ${watches.length} in this channel`, blocks);
}

export function buildWatchRemoved(w: Watch, actorId: string): SlackMessage {
  const text = md`Watch #${w.id} (${watchSubject(w)} in ${channelRef(w.channelId)}) was removed by ${mention(actorId)}.`;
  return message(text, [section(md`:wastebasket: ${text}`)]);
}

export function buildWatchGone(id: number): SlackMessage {
  const text = md`Watch #${id} no longer exists. Nothing was changed.`;
  return message(text, [section(md`:hourglass: ${text}`)]);
}

export function watchRefusal(r: Refusal, label: string): Md | null {
  switch (r.reason) {
    case 'not_owner':
      return md`${label}: only its creator or a workspace admin may ${r.action} it.`;
    case 'gone':
      return md`${label} no longer exists.`;
    default:
      return null;
  }
}

// ── what the bot says when it pauses watches ───────────────────────────────────────────────────────────────

/**
 * One DM to the creator when the server refuses their token: every watch it paused, and a Connect button. A refusal
 * may be the server's trouble, so the watches wait for the server to accept the token again and resume by themselves
 * when it does; only a creator with no token at all (`confirmed`) is told to connect.
 */
export function buildWatchTokenPauseDm(paused: readonly Watch[], serverUrl: string, confirmed = false): SlackMessage {
  const list = joinMd(
    paused.map((w) => md`• #${w.id} ${watchSubject(w)} → ${channelRef(w.channelId)}`),
    '\n',
  );
  const n = paused.length;
  const they = n === 1 ? 'it' : 'they';
  const text = confirmed
    ? md`${link(serverUrl, serverUrl)} refused your token (401), so ${n === 1 ? 'your watch is' : `your ${n} watches are`} paused:\n${list}\nConnect a new token and ${n === 1 ? 'it resumes' : 'they resume'}; pipelines that finish meanwhile are posted then.`
    : md`${link(serverUrl, serverUrl)} refused your token (401), so ${n === 1 ? 'your watch is' : `your ${n} watches are`} paused until the server accepts your token again:\n${list}\nThe bot asks the server again by itself and ${they} resume when it does; pipelines that finish meanwhile are posted then. If you revoked the token, connect a new one.`;
  const summary = confirmed
    ? md`Your watches are paused: the server refused your token (401). Connect again to resume them.`
    : md`Your watches are paused until the server accepts your token again (it refused it: 401).`;
  return message(summary, [
    section(md`:pause_button: ${text}`),
    actions([button({ text: 'Connect', def: AccountButtons.connect, value: {}, style: 'primary' })]),
  ]);
}

/** Told when watches paused for a refused token poll again: `connected` after a new connect, else the server took it. */
export function buildWatchesResumedDm(resumed: readonly Watch[], how: 'connected' | 'accepted'): SlackMessage {
  const list = joinMd(
    resumed.map((w) => md`#${w.id} ${watchSubject(w)}`),
    ', ',
  );
  const why = how === 'connected' ? 'You are connected again' : 'The server accepts your token again';
  const text = md`${why}, so ${resumed.length === 1 ? 'this watch polls' : 'these watches poll'} again: ${list}. Pipelines that finished meanwhile are posted now.`;
  return message(text, [section(md`:arrow_forward: ${text}`)]);
}

/** Said once in the watch's channel when the server refuses what it reads. */
export function buildWatchReadRefusedNotice(w: Watch, status: 403 | 404, slashCommand: string): SlackMessage {
  const why =
    status === 404
      ? md`the server did not find ${w.project.path} with ${mention(w.creatorId)}'s token (404): it is gone, or they lost access`
      : md`the server refused ${mention(w.creatorId)}'s token for the pipelines of ${w.project.path} (403)`;
  const text = md`Watch #${w.id} (${watchSubject(w)}) is paused: ${why}. ${mention(w.creatorId)} can resume it with ${code(`${slashCommand} watch resume ${w.id}`)}.`;
  return message(text, [section(md`:pause_button: ${text}`)]);
}

export function buildWatchChannelRefusedDm(w: Watch, error: string, slashCommand: string): SlackMessage {
  const text = md`Watch #${w.id} (${watchSubject(w)}) is paused: Slack refused to post in ${channelRef(w.channelId)} (${code(error)}). Invite the bot there, then resume it with ${code(`${slashCommand} watch resume ${w.id}`)}; nothing it found is lost.`;
  return message(text, [section(md`:pause_button: ${text}`)]);
}

// ── the person's own watches (whoami, Home) ──────────────────────────────────────────────────────────────────

/** Watches a person's Home and whoami show (the rest by `watch list` in their channels). */
export const OWN_WATCHES_SHOWN = 5;

/** A message (whoami) with a line naming the person's watches under it. */
export function withWatches(shown: SlackMessage, watches: readonly Watch[], slashCommand: string): SlackMessage {
  const rows = watches
    .slice(0, OWN_WATCHES_SHOWN)
    .map((w) => md`#${w.id} ${watchSubject(w)} → ${channelRef(w.channelId)}${w.active ? '' : ' (paused)'}`);
  const more = watches.length - rows.length;
  const line =
    watches.length === 0
      ? md`You watch no pipelines: ${code(`${slashCommand} watch pipelines group/project`)} in a channel.`
      : md`Your watches: ${joinMd(rows, ' · ')}${more > 0 ? md` and ${more} more` : ''}`;
  return { ...shown, blocks: [...(shown.blocks ?? []), context([line])] };
}

/** The Home's section of the person's watches, with the buttons of the list. */
export function ownWatchBlocks(
  watches: readonly Watch[],
  o: { slashCommand: string; now: Date; timeZone: string },
): Block[] {
  const blocks: Block[] = [header('My watches')];
  if (watches.length === 0) {
    return [
      ...blocks,
      section(
        md`You watch no pipelines. ${code(`${o.slashCommand} watch pipelines group/project`)} tells a channel when they fail.`,
      ),
    ];
  }
  const shown = watches.slice(0, OWN_WATCHES_SHOWN);
  shown.forEach((w, slot) => {
    blocks.push(section(watchRow(w, o)), actions(watchButtons(w, 'home', slot)));
  });
  const left = watches.length - shown.length;
  if (left > 0) blocks.push(context([md`And ${left} more: ${code(`${o.slashCommand} watch list`)} in their channels`]));
  return blocks;
}
