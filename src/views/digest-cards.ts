import type { RunOutcome } from '../operations/digest-service.js';
import type { Digest, PauseReason } from '../store/digest-store.js';
import { actions, type Block, context, fields, header, message, type SlackMessage, section } from './blocks.js';
import { type CardContext, when, whenNext } from './common.js';
import { destination, digestButtons, digestFilters, digestSubject } from './digests.js';
import { formatDateTime } from './format.js';
import { code, md, mention, type Text } from './mrkdwn.js';
import { type Notice, noticeBlocks } from './notice.js';

// A digest as its people manage it: its card, the list of a channel's digests, and what a run did.

function pausedWhy(d: Digest): string {
  switch (d.pausedReason) {
    case 'token':
      return "the owner's token was refused; it resumes when the server accepts it again";
    case 'forbidden':
      return 'the server refused the read (403)';
    case 'not_found':
      return 'the server did not find what it reads (404)';
    case 'channel':
      return 'Slack refused the post in its channel';
    default:
      return 'paused by a person';
  }
}

function stateLine(d: Digest): Text {
  if (d.active) return 'active';
  return md`paused${d.pausedBy ? md` by ${mention(d.pausedBy)}` : ''} (${pausedWhy(d)})`;
}

function nextRunText(d: Digest, next: Date | null, c: CardContext): Text {
  if (!d.active) return '— (paused)';
  if (!next) return '—';
  return whenNext(next, c);
}

function lastRunText(d: Digest, c: CardContext): Text {
  if (!d.lastRunAt) return 'not yet';
  const ago = when(d.lastRunAt.toISOString(), c);
  const result = d.lastResult ?? '';
  if (result === 'posted') return md`${d.lastItems ?? 0} item${d.lastItems === 1 ? '' : 's'} posted ${ago}`;
  if (result === 'empty') return md`nothing new ${ago}`;
  return md`${result} ${ago}`;
}

export function buildDigestCard(d: Digest, next: Date | null, c: CardContext): SlackMessage {
  const filters = digestFilters(d);
  const blocks: Block[] = [
    section(md`:calendar: *Digest #${d.id}* · ${digestSubject(d)} → ${destination(d)}`),
    fields([
      md`*When*\n${code(d.cron)} ${d.tz}`,
      md`*Next run*\n${nextRunText(d, next, c)}`,
      md`*State*\n${stateLine(d)}`,
      md`*Last run*\n${lastRunText(d, c)}`,
      md`*Owner*\n${mention(d.ownerId)}`,
      md`*Filters*\n${filters ? code(filters) : 'none'}`,
    ]),
    context([md`Times in ${c.timeZone} · reads with ${mention(d.ownerId)}'s token`]),
    ...noticeBlocks(c.notice),
    actions(digestButtons(d, 'card')),
  ];
  return message(md`Digest #${d.id}: ${digestSubject(d)}, ${d.active ? 'active' : 'paused'}`, blocks);
}

export function digestRow(d: Digest, next: Date | null, c: CardContext): Text {
  const filters = digestFilters(d);
  const state = d.active ? md`next ${nextRunText(d, next, c)}` : md`:double_vertical_bar: ${stateLine(d)}`;
  return md`*#${d.id}* ${digestSubject(d)} → ${destination(d)} · ${code(d.cron)} ${d.tz}${filters ? md` · ${code(filters)}` : ''} · by ${mention(d.ownerId)}\n${state} · last run: ${lastRunText(d, c)}`;
}

/** Rows that fit one message: two blocks each (the row and its buttons) inside Slack's 50. */
export const DIGEST_LIST_ROWS = 20;

export function buildDigestList(
  here: readonly { digest: Digest; next: Date | null }[],
  dms: readonly { digest: Digest; next: Date | null }[],
  o: { slashCommand: string; ctx: CardContext },
): SlackMessage {
  const blocks: Block[] = [header('Digests'), ...noticeBlocks(o.ctx.notice)];
  const rows = [...here.map((r) => ({ ...r, dm: false })), ...dms.map((r) => ({ ...r, dm: true }))];
  const shown = rows.slice(0, DIGEST_LIST_ROWS);
  if (here.length === 0) {
    blocks.push(
      section(
        md`No digests post in this channel. Start one with ${code(`${o.slashCommand} digest events group/project`)} or ${code(`${o.slashCommand} digest todos --here`)}.`,
      ),
    );
  }
  let dmHeading = false;
  shown.forEach((r, i) => {
    if (r.dm && !dmHeading) {
      blocks.push(context(['Your digests by DM']));
      dmHeading = true;
    }
    blocks.push(section(digestRow(r.digest, r.next, o.ctx)), actions(digestButtons(r.digest, 'list', i)));
  });
  const left = rows.length - shown.length;
  const footer = [`${here.length} in this channel`, `${dms.length} by DM`, `times in ${o.ctx.timeZone}`];
  if (left > 0) footer.push(`${left} more not shown: pause, resume or remove them by id`);
  blocks.push(context([footer.join(' · ')]));
  return message(`Digests: ${here.length} in this channel, ${dms.length} by DM`, blocks);
}

export function buildDigestRemoved(d: Digest, actorId: string): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)} → ${destination(d)}) was removed by ${mention(actorId)}.`;
  return message(text, [section(md`:wastebasket: ${text}`)]);
}

export function buildDigestNothingNew(d: Digest, since: Date, zone: string): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)}): nothing new since ${formatDateTime(since, zone)}, so nothing was posted.`;
  return message(text, [section(md`:zzz: ${text}`)]);
}

export function buildDigestRan(d: Digest, items: number): SlackMessage {
  const text = md`Digest #${d.id} posted ${items} item${items === 1 ? '' : 's'} in ${destination(d)}.`;
  return message(text, [section(md`:white_check_mark: ${text}`)]);
}

/** Why a run did not post, when the person who asked for it should know. */
export function buildDigestNotRun(d: Digest, why: Text): SlackMessage {
  const text = md`Digest #${d.id} (${digestSubject(d)}) did not post: ${why}`;
  return message(text, [section(md`:warning: ${text}`)]);
}

export function buildDigestRunning(d: Digest): SlackMessage {
  // A todos digest posts every pending todo each time; the events digests post only what came since the last run.
  const what =
    d.kind === 'todos'
      ? md`it posts the pending todos in ${destination(d)}, if there are any`
      : md`it posts in ${destination(d)} if there is anything new`;
  const text = md`Running digest #${d.id} (${digestSubject(d)}) now: ${what}.`;
  return message(text, [section(md`:hourglass_flowing_sand: ${text}`)]);
}

export function buildDigestGone(id: number): SlackMessage {
  const text = md`Digest #${id} no longer exists. Nothing was changed.`;
  return message(text, [section(md`:hourglass: ${text}`)]);
}

/** A todo handled from a digest that has since been removed: only the notice can be shown. */
export function buildTodoHandled(notice: Notice): SlackMessage {
  return message(notice.kind === 'done' ? 'Todo marked done.' : notice.text, noticeBlocks(notice));
}

const PAUSE_WORDS: Record<PauseReason, string> = {
  person: 'it is paused',
  token: "it is paused until its owner connects again (the server refused the owner's token)",
  forbidden: 'it is paused: the server answered 403 for what it reads',
  not_found: 'it is paused: the server answered 404 for what it reads',
  channel: 'it is paused: Slack would not let the bot post in its channel',
};

/** What became of a run, in a few words for a notice or a reply. */
export function runDetail(outcome: RunOutcome, zone: string): string {
  switch (outcome.kind) {
    case 'posted':
    case 'settled':
      return `${outcome.items} item${outcome.items === 1 ? '' : 's'} posted`;
    case 'empty':
      return `nothing new since ${formatDateTime(outcome.since, zone)}; nothing posted`;
    case 'paused':
      return PAUSE_WORDS[outcome.reason];
    case 'inactive':
      return 'it is paused';
    case 'skipped':
      return 'it already ran for this time';
    case 'gone':
      return 'it was removed';
    case 'failed':
      return `the run did not get through (${outcome.error}); it is tried again at its next time`;
  }
}
