import { AccountButtons } from '../buttons/common.js';
import type { Digest } from '../store/digest-store.js';
import { actions, button, message, type SlackMessage, section } from './blocks.js';
import { channelRef, destination, digestSubject } from './digests.js';
import { code, joinMd, link, md, mention } from './mrkdwn.js';

// What the bot says when it pauses digests, and when they run again.

/** One DM to the owner when the server refuses their token: every digest it paused, and a Connect button. */
export function buildTokenPauseDm(paused: readonly Digest[], serverUrl: string): SlackMessage {
  const list = joinMd(
    paused.map((d) => md`• #${d.id} ${digestSubject(d)} → ${destination(d)}`),
    '\n',
  );
  const n = paused.length;
  const text = md`${link(serverUrl, serverUrl)} refused your token (401), so ${n === 1 ? 'your digest is' : `your ${n} digests are`} paused:\n${list}\nConnect a new token and ${n === 1 ? 'it resumes' : 'they resume'} on ${n === 1 ? 'its' : 'their'} own; nothing they would have posted is lost.`;
  return message(
    md`Your digests are paused: the server refused your token (401). Connect again to resume ${n === 1 ? 'it' : 'them'}.`,
    [
      section(md`:pause_button: ${text}`),
      actions([button({ text: 'Connect', def: AccountButtons.connect, value: {}, style: 'primary' })]),
    ],
  );
}

export function buildResumedDm(resumed: readonly Digest[]): SlackMessage {
  const list = joinMd(
    resumed.map((d) => md`#${d.id} ${digestSubject(d)}`),
    ', ',
  );
  const text = md`You are connected again, so ${resumed.length === 1 ? 'this digest runs' : 'these digests run'} again: ${list}. The next one covers everything since the last.`;
  return message(text, [section(md`:arrow_forward: ${text}`)]);
}

/** Said once in the digest's channel when the server refuses what it reads. */
export function buildReadRefusedNotice(d: Digest, status: 403 | 404, slashCommand: string): SlackMessage {
  const what =
    d.kind === 'project_events'
      ? md`the project ${d.project?.path ?? ''}`
      : d.kind === 'user_events'
        ? md`the user @${d.user?.username ?? ''}`
        : md`the todos`;
  const why =
    status === 404
      ? md`the server did not find ${what} with ${mention(d.ownerId)}'s token (404): it is gone, or they lost access`
      : md`the server refused ${mention(d.ownerId)}'s token for ${what} (403)`;
  const text = md`Digest #${d.id} (${digestSubject(d)}) is paused: ${why}. ${mention(d.ownerId)} can resume it with ${code(`${slashCommand} digest resume ${d.id}`)}.`;
  return message(text, [section(md`:pause_button: ${text}`)]);
}

export function buildChannelRefusedDm(d: Digest, error: string, slashCommand: string): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)}) is paused: Slack refused to post in ${channelRef(d.channelId)} (${code(error)}). Invite the bot there, then resume it with ${code(`${slashCommand} digest resume ${d.id}`)}.`;
  return message(text, [section(md`:pause_button: ${text}`)]);
}
