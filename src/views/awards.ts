import type { Refusal } from '../errors.js';
import { type AwardTarget, awardTargetRef } from '../gitlab/award-emoji.js';
import { onServer, projectPageUrl } from '../gitlab/project.js';
import type { AwardEmoji } from '../gitlab/schemas.js';
import { type Block, context, message, type SlackMessage, section } from './blocks.js';
import { type CardContext, type TimeContext, when } from './common.js';
import { emojiMd } from './emoji.js';
import { buildList, type ListPlace, type PageInfo } from './lists.js';
import { bold, code, joinMd, linked, type Md, md, mention } from './mrkdwn.js';

// Award emoji as people see them in GitLab: the emoji itself, who gave it and when, grouped by emoji with
// counts. Award ids are shown because taking an award back (`unaward`) needs one.

const COLLECTIONS: Record<AwardTarget['kind'], string> = {
  issue: 'issues',
  merge_request: 'merge_requests',
  snippet: 'snippets',
};

/** The web page of what carries the emoji (a note's anchor on its page). */
export function awardTargetUrl(serverUrl: string, t: AwardTarget): string | null {
  const note = t.noteId === undefined ? '' : `#note_${t.noteId}`;
  return projectPageUrl(serverUrl, t.project, `${COLLECTIONS[t.kind]}/${t.iid}${note}`);
}

const linkedTarget = (serverUrl: string, t: AwardTarget) => linked(awardTargetUrl(serverUrl, t), awardTargetRef(t));

/** The emoji as Slack draws it (see emoji.ts: never a shortcode Slack would show broken). */
export const emoji = (name: string): Md => emojiMd(name);

/** Awards in groups of one emoji, the groups in the order their first award came. */
export function groupAwards(awards: readonly AwardEmoji[]): { name: string; awards: AwardEmoji[] }[] {
  const groups = new Map<string, AwardEmoji[]>();
  for (const a of awards) {
    const group = groups.get(a.name);
    if (group) group.push(a);
    else groups.set(a.name, [a]);
  }
  return [...groups].map(([name, list]) => ({ name, awards: list }));
}

/** Who gave an award, linked to their profile on the configured server whatever host the server wrote. */
const who = (a: AwardEmoji, serverUrl: string) => linked(onServer(serverUrl, a.user.web_url), `@${a.user.username}`);

export function awardRow(a: AwardEmoji, c: TimeContext & { serverUrl: string }): Block {
  return section(
    md`${emoji(a.name)} ${code(a.name)} by ${who(a, c.serverUrl)} · ${when(a.created_at, c)} · award ${a.id}`,
  );
}

export function buildAwardList(
  awards: readonly AwardEmoji[],
  target: AwardTarget,
  page: PageInfo,
  options: { place: ListPlace | null; ctx: CardContext },
): SlackMessage {
  const groups = groupAwards(awards);
  const counts = joinMd(
    groups.map((g) => md`${emoji(g.name)} ${g.awards.length}`),
    ' · ',
  );
  const more = page.nextPage ? ' on this page' : '';
  return buildList({
    title: `Award emoji on ${awardTargetRef(target)}`,
    ...(groups.length > 0 ? { filters: md`${counts}${more} · ${linkedTarget(options.ctx.serverUrl, target)}` } : {}),
    notice: options.ctx.notice,
    empty: md`No award emoji on ${linkedTarget(options.ctx.serverUrl, target)} yet.`,
    items: groups.flatMap((g) => g.awards),
    row: (a) => awardRow(a, options.ctx),
    page,
    place: options.place,
  });
}

export function buildAwardCard(a: AwardEmoji, target: AwardTarget, c: CardContext): SlackMessage {
  const text = md`${emoji(a.name)} ${bold(code(a.name))} by ${a.user.name} (${who(a, c.serverUrl)})`;
  return message(md`Award ${a.id}: ${emoji(a.name)} by @${a.user.username} on ${awardTargetRef(target)}`, [
    section(text),
    context([md`Award ${a.id} on ${linkedTarget(c.serverUrl, target)} · ${when(a.created_at, c)}`]),
  ]);
}

/** A new award, or the one of the person that was there already. */
export function buildAwarded(
  outcome: { awarded: true; award: AwardEmoji } | { awarded: false; existing: AwardEmoji | null },
  { name, target, serverUrl }: { name: string; target: AwardTarget; serverUrl: string },
): SlackMessage {
  const where = linkedTarget(serverUrl, target);
  const text = outcome.awarded
    ? md`${emoji(name)} Awarded ${emoji(name)} on ${where} (award ${outcome.award.id}).`
    : md`:information_source: You already awarded ${emoji(name)} on ${where}${outcome.existing ? md` (award ${outcome.existing.id})` : ''}. Nothing was changed.`;
  return message(text, [section(text)]);
}

export function buildUnawarded(
  awardId: number,
  { target, actorId, serverUrl }: { target: AwardTarget; actorId: string; serverUrl: string },
) {
  const text = md`:wastebasket: Award ${awardId} on ${linkedTarget(serverUrl, target)} was taken back by ${mention(actorId)}.`;
  return message(text, [section(text)]);
}

/** An emoji name the server is not known to accept: refused before any call, with the names closest to it. */
export function unknownEmojiText(name: string, closest: readonly string[]): Md {
  const options =
    closest.length > 0
      ? md` Closest: ${joinMd(
          closest.map((n) => md`${emoji(n)} ${code(n)}`),
          ', ',
        )}.`
      : '';
  return md`${code(name)} is not an emoji the server knows.${options} Nothing was sent.`;
}

export function awardRefusal(r: Refusal, label: string): Md | null {
  switch (r.reason) {
    case 'unknown_emoji':
      return md`${label} was refused: the server does not know that emoji (404). Nothing was changed.`;
    case 'not_allowed':
      return md`${label} was refused (404): a thumb up or down is not for your own issue or merge request, and other emoji need access to it.`;
    case 'not_yours':
      return md`${label} is not yours to take back (${r.status ?? '?'}): only the person who awarded it (or an administrator) can. Nothing was changed.`;
    default:
      return null;
  }
}
