import { type PreviewButtonValue, UnfurlButtons } from '../buttons/links.js';
import { projectLabel } from '../gitlab/project.js';
import type { LinkPreview } from '../operations/links.js';
import { type PreviewOpenness, previewOpenness } from './audience.js';
import { actions, type Block, button, context, message, type SlackMessage, section } from './blocks.js';
import { when } from './common.js';
import { formatDuration } from './format.js';
import { issueRef, issueStateEmoji, issueStateWord, issueUrl } from './issues.js';
import { jobUrl } from './jobs.js';
import { truncate } from './limits.js';
import { mergeRequestUrl, mergeStatusBadge, mrRef, stateBadge } from './merge-requests.js';
import { bold, channelMention, code, joinMd, linked, type Md, md, mention, type Text } from './mrkdwn.js';
import { pipelineUrl } from './pipelines.js';
import { scheduleUrl } from './schedules.js';
import { shortSha, statusBadge, statusEmoji } from './status.js';

// Link previews: a compact card of what a link of the server points to (no buttons: everyone in the channel
// sees it, read with the poster's token), the prompt that asks the poster before a non-public one is shown,
// and the answers to that prompt and to `unfurl private on|off`.

const STATE_EMOJI: Record<string, string> = {
  opened: ':large_green_circle:',
  merged: ':large_purple_circle:',
  closed: ':red_circle:',
  locked: ':lock:',
};

/** What a preview is of, as people write it: `demo/web#3`, `demo/web!2`, `job #8 in demo/web`. */
export function previewLabel(p: LinkPreview): string {
  switch (p.kind) {
    case 'issue':
      return issueRef(p.project, p.item.iid);
    case 'merge_request':
      return mrRef(p.project, p.item.iid);
    case 'job':
      return `job #${p.item.id} in ${projectLabel(p.project)}`;
    case 'pipeline':
      return `pipeline #${p.item.id} in ${projectLabel(p.project)}`;
    case 'schedule':
      return `schedule #${p.item.id} in ${projectLabel(p.project)}`;
  }
}

/** The preview of one link: a line that says what it is, and a line of its facts. */
export function buildUnfurlCard(p: LinkPreview, o: { serverUrl: string; now: Date }): { blocks: Block[] } {
  const { serverUrl } = o;
  // A preview is read by everyone in the channel: its times are drawn in each reader's zone.
  const at = { now: o.now, shared: true };
  const where = projectLabel(p.project);
  let head: Md;
  let facts: Text[];
  switch (p.kind) {
    case 'issue': {
      const i = p.item;
      const assignees = i.assignees.length
        ? md` · assigned to ${i.assignees.map((a) => `@${a.username}`).join(', ')}`
        : '';
      const labels = i.labels.length
        ? md` · ${joinMd(
            i.labels.slice(0, 5).map((l) => code(truncate(l, 40))),
            ' ',
          )}`
        : '';
      head = md`${issueStateEmoji(i.state)} ${bold(linked(issueUrl(serverUrl, p.project, i), issueRef(p.project, i.iid)))}${i.confidential ? ' :lock:' : ''} ${truncate(i.title, 150)}`;
      facts = [
        md`Issue · ${issueStateWord(i.state)} · opened by @${i.author.username} ${when(i.created_at, at)}${assignees}${labels}`,
      ];
      break;
    }
    case 'merge_request': {
      const mr = p.item;
      const branches = mr.source_branch
        ? md`${code(truncate(mr.source_branch, 80))} → ${code(truncate(mr.target_branch, 80))}`
        : code(truncate(mr.target_branch, 80));
      head = md`${STATE_EMOJI[mr.state] ?? ':grey_question:'} ${bold(linked(mergeRequestUrl(serverUrl, p.project, mr), mrRef(p.project, mr.iid)))} ${truncate(mr.title, 150)}`;
      facts = [
        md`Merge request · ${stateBadge(mr.state)} · ${mergeStatusBadge(mr)} · ${branches} · by @${mr.author.username}${mr.assignee ? md` → @${mr.assignee.username}` : ''}`,
      ];
      break;
    }
    case 'job': {
      const j = p.item;
      const duration = typeof j.duration === 'number' ? md` · ${formatDuration(j.duration)}` : '';
      head = md`${statusEmoji(j.status)} ${bold(linked(jobUrl(serverUrl, p.project, j), `Job #${j.id}`))} ${truncate(j.name, 100)}`;
      facts = [
        md`${where} · ${statusBadge(j.status)} · stage ${truncate(j.stage, 60)} · ${code(truncate(j.ref, 80))}${duration}`,
      ];
      break;
    }
    case 'pipeline': {
      const pl = p.item;
      const by = pl.user ? md` · by @${pl.user.username}` : '';
      head = md`${statusEmoji(pl.status)} ${bold(linked(pipelineUrl(serverUrl, p.project, pl), `Pipeline #${pl.id}`))} ${code(truncate(pl.ref, 80))}`;
      facts = [md`${where} · ${statusBadge(pl.status)} · ${code(shortSha(pl.sha))}${by} · ${when(pl.created_at, at)}`];
      break;
    }
    case 'schedule': {
      const s = p.item;
      const owner = s.owner ? md` · owner @${s.owner.username}` : '';
      head = md`:calendar: ${bold(linked(scheduleUrl(serverUrl, p.project, s), `Schedule #${s.id}`))} ${truncate(s.description, 150)}`;
      facts = [
        md`${where} · ${code(truncate(s.cron, 60))} ${truncate(s.cron_timezone, 60)} · ${code(truncate(s.ref, 80))} · ${s.active ? 'active' : 'inactive'}${owner}`,
      ];
      break;
    }
  }
  return { blocks: [section(head), context(facts)] };
}

/** Asks the poster before previews of their non-public links are shown to a channel. */
/** How a preview may reach a channel (audience.ts): a confidential issue is asked about every time. */
export function opennessOf(p: LinkPreview): PreviewOpenness {
  return previewOpenness({ isPublic: p.isPublic, confidential: p.kind === 'issue' && p.item.confidential === true });
}

export function buildPreviewPrompt(previews: readonly LinkPreview[], value: PreviewButtonValue): SlackMessage {
  const one = previews.length === 1;
  const channel = channelMention(value.c);
  const kind = previews.every((p) => opennessOf(p) === 'confidential') ? 'confidential' : 'private';
  const question = one
    ? md`Show a preview of this ${kind} link to ${channel}?`
    : md`Show previews of these ${previews.length} ${kind} links to ${channel}?`;
  // "Always" covers links into non-public projects; a confidential issue is asked about each time.
  const always = previews.some((p) => opennessOf(p) === 'members');
  const list = joinMd(
    previews.map((p) => md`• ${linked(p.url, previewLabel(p))}`),
    '\n',
  );
  return message(question, [
    section(md`:lock: ${question}\n${list}`),
    context([
      md`Only you can see this. A preview shows what your token can read to everyone in ${channel}, who may not have access to the project.`,
    ]),
    actions([
      button({ text: 'Show', def: UnfurlButtons.show, value, style: 'primary' }),
      button({ text: 'Not now', def: UnfurlButtons.skip, value: { o: value.o } }),
      ...(always ? [button({ text: 'Always in this channel', def: UnfurlButtons.always, value })] : []),
    ]),
  ]);
}

export function buildPreviewShown(channelId: string, count: number): SlackMessage {
  const text = md`:eyes: ${count === 1 ? 'The preview is' : 'The previews are'} now shown in ${channelMention(channelId)}.`;
  return message(text, [section(text)]);
}

export function buildPreviewAlways(channelId: string, count: number, slashCommand: string): SlackMessage {
  const text = md`:eyes: ${count === 1 ? 'The preview is' : 'The previews are'} now shown, and previews of your private links in ${channelMention(channelId)} will be shown without asking. ${code(`${slashCommand} unfurl private off`)} there asks again.`;
  return message(text, [section(text)]);
}

/** Show was pressed, but the links could no longer be read (access lost, deleted). */
export function buildPreviewGone(channelId: string): SlackMessage {
  const text = md`Nothing was shown in ${channelMention(channelId)}: the link can no longer be read with your token.`;
  return message(text, [section(md`:mag: ${text}`)]);
}

/** Someone pressed a prompt that asked another person. */
export function notYourPreview(posterId: string): Md {
  return md`This question is for ${mention(posterId)}, who posted the link. Nothing was shown.`;
}

/** The answer to `unfurl private on|off` in a channel. */
export function buildPreviewSetting({
  on,
  changed,
  channelId,
  slashCommand,
}: {
  on: boolean;
  changed: boolean;
  channelId: string;
  slashCommand: string;
}): SlackMessage {
  const channel = channelMention(channelId);
  const text = on
    ? changed
      ? md`:eyes: Previews of your private links in ${channel} are shown from now on without asking. ${code(`${slashCommand} unfurl private off`)} asks again.`
      : md`Previews of your private links in ${channel} were already shown without asking; nothing changed.`
    : changed
      ? md`:lock: You'll be asked again before a preview of your private links is shown in ${channel}.`
      : md`You were already asked before previews of your private links are shown in ${channel}; nothing changed.`;
  return message(text, [section(text)]);
}
