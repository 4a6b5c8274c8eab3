import { AccountButtons } from '../buttons/common.js';
import type { Digest } from '../store/digest-store.js';
import { actions, button, message, type SlackMessage, section } from './blocks.js';
import { channelRef, destination, digestFilters, digestSubject } from './digests.js';
import { code, joinMd, link, md, mention } from './mrkdwn.js';

// What the bot says when it pauses digests, when they run again, and when someone else changed one.

/** What someone other than its owner (a workspace admin) did to a digest. */
export type DigestChange = 'pause' | 'resume' | 'edit' | 'remove';

/**
 * The one DM its owner gets when someone else paused, resumed, edited or removed their digest: who, what, and how it
 * stands now (`d`: after the change; before it, for a removal).
 */
export function buildDigestChangedByOther(d: Digest, actorId: string, change: DigestChange): SlackMessage {
  const what = md`your digest #${d.id} (${digestSubject(d)} → ${destination(d)})`;
  const filters = digestFilters(d);
  const text =
    change === 'pause'
      ? md`${mention(actorId)} paused ${what}: it posts nothing until it is resumed.`
      : change === 'resume'
        ? md`${mention(actorId)} resumed ${what}: it posts again on its schedule.`
        : change === 'edit'
          ? md`${mention(actorId)} changed ${what}: it now runs on ${code(d.cron)} in ${d.tz}${filters ? md`, ${code(filters)}` : ''}.`
          : md`${mention(actorId)} removed ${what}: it posts no more.`;
  const icon = { pause: ':pause_button:', resume: ':arrow_forward:', edit: ':pencil2:', remove: ':wastebasket:' }[
    change
  ];
  return message(text, [section(md`${icon} ${text}`)]);
}

/**
 * One DM to the owner when the server refuses their token. A refusal may be the server's trouble (a burst of 401s),
 * so the digests wait for the server to accept the token again and resume by themselves when it does; only an owner
 * with no token at all (`confirmed`) is told to connect.
 */
export function buildTokenPauseDm(paused: readonly Digest[], serverUrl: string, confirmed = false): SlackMessage {
  const list = joinMd(
    paused.map((d) => md`• #${d.id} ${digestSubject(d)} → ${destination(d)}`),
    '\n',
  );
  const n = paused.length;
  const they = n === 1 ? 'it' : 'they';
  const text = confirmed
    ? md`${link(serverUrl, serverUrl)} refused your token (401), so ${n === 1 ? 'your digest is' : `your ${n} digests are`} paused:\n${list}\nConnect a new token and ${n === 1 ? 'it resumes' : 'they resume'} on ${n === 1 ? 'its' : 'their'} own; nothing ${they} would have posted is lost.`
    : md`${link(serverUrl, serverUrl)} refused your token (401), so ${n === 1 ? 'your digest is' : `your ${n} digests are`} paused until the server accepts your token again:\n${list}\nThe bot asks the server again by itself and ${they} resume when it does; nothing ${they} would have posted is lost. If you revoked the token, connect a new one.`;
  const summary = confirmed
    ? md`Your digests are paused: the server refused your token (401). Connect again to resume ${n === 1 ? 'it' : 'them'}.`
    : md`Your digests are paused until the server accepts your token again (it refused it: 401).`;
  return message(summary, [
    section(md`:pause_button: ${text}`),
    actions([button({ text: 'Connect', def: AccountButtons.connect, value: {}, style: 'primary' })]),
  ]);
}

/** Told when digests paused for a refused token run again: `connected` after a new connect, else the server took it. */
export function buildResumedDm(resumed: readonly Digest[], how: 'connected' | 'accepted' = 'connected'): SlackMessage {
  const list = joinMd(
    resumed.map((d) => md`#${d.id} ${digestSubject(d)}`),
    ', ',
  );
  const why = how === 'connected' ? 'You are connected again' : 'The server accepts your token again';
  const text = md`${why}, so ${resumed.length === 1 ? 'this digest runs' : 'these digests run'} again: ${list}. The next one covers everything since the last.`;
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
