import type { Button } from '@slack/types';
import { ALERT_ACTIONS } from '../alert-actions.js';
import { AlertButtons } from '../buttons/alerts.js';
import { AccountButtons } from '../buttons/common.js';
import type { FailureNote } from '../failure/note.js';
import { onServer, type Project } from '../gitlab/project.js';
import type { Todo } from '../gitlab/schemas.js';
import type { AlertSetting, QuietHours } from '../store/alert-store.js';
import { actions, type Block, button, context, message, type SlackMessage, section } from './blocks.js';
import { linkButton, type TimeContext, when } from './common.js';
import { failureBlocks } from './failure.js';
import { truncate } from './limits.js';
import { code, italic, joinMd, link, type Md, md } from './mrkdwn.js';
import { type Notice, noticeBlocks } from './notice.js';
import { todoRef, todoSubject, todoWhy } from './todos.js';

// Todo alerts: the DM a new todo brings (its card: what, where, who, why; Done and Open), several at once as one
// message, the person's setting as `/gl notify`, Home and whoami show it, and the one DM a refused token sends.

/** A grouped alert shows this many cards (two blocks each, inside Slack's 50); the rest are counted. */
export const ALERT_CARDS_SHOWN = 20;

const pad = (n: number) => String(n).padStart(2, '0');
const quietText = (q: QuietHours) =>
  `${pad(Math.floor(q.from / 60))}:${pad(q.from % 60)}-${pad(Math.floor(q.to / 60))}:${pad(q.to % 60)}`;

/** A failed build's explaining lines: its first failed job's, and how many more failed. */
export interface WhyBuildFailed {
  project: Project;
  notes: readonly FailureNote[];
  more: number;
}

/** Room a DM keeps for the explained builds (a note's blocks and "and N more" for each of at most two). */
const WHY_BLOCKS = 6;

export interface AlertDmOptions {
  serverUrl: string;
  now: Date;
  /** The person's Slack time zone, for the absolute half of times (UTC when unknown). */
  timeZone?: string;
  /** The todos waited for the quiet hours to end. */
  released?: boolean;
  /** What a click did, on top. */
  notice?: Notice;
  /** Why the builds of `build_failed` todos failed, by todo id. */
  why?: ReadonlyMap<number, WhyBuildFailed>;
}

/** A failed build's first job's lines under its todo, the other failed jobs counted (no Trace: the job card has it). */
export function whyBuildFailedBlocks(why: WhyBuildFailed | undefined, serverUrl: string): Block[] {
  if (!why || why.notes.length === 0) return [];
  const [first] = why.notes;
  return failureBlocks(first ? [first] : [], {
    project: why.project,
    serverUrl,
    named: true,
    traceButtons: false,
    more: why.more + why.notes.length - 1,
  });
}

function alertCard(todo: Todo, options: AlertDmOptions, group: number[] | null, slot: number): Block[] {
  const pending = todo.state === 'pending';
  const lines: Md[] = [
    md`${pending ? ':bell:' : ':white_check_mark:'} ${todoSubject(todo, { serverUrl: options.serverUrl })}`,
    md`${todoWhy(todo)} · in ${todo.project.path_with_namespace} · ${when(todo.created_at, options.timeZone ? { now: options.now, timeZone: options.timeZone } : options.now)}`,
  ];
  const body = todo.body.replace(/\s+/g, ' ').trim();
  if (body && body !== todo.target.title.trim()) lines.push(italic(`“${truncate(body, 200)}”`));
  const buttons: Button[] = [];
  if (pending) {
    buttons.push(
      button({
        text: 'Done',
        def: AlertButtons.done,
        value: { t: todo.id, ...(group ? { g: group } : {}) },
        style: 'primary',
        slot,
      }),
    );
  }
  const url = onServer(options.serverUrl, todo.target_url);
  if (url) buttons.push(linkButton('Open', url, `open-${slot}`));
  const text = joinMd(lines, '\n');
  const card = buttons.length > 0 ? [section(text), actions(buttons)] : [section(text)];
  return [...card, ...whyBuildFailedBlocks(options.why?.get(todo.id), options.serverUrl)];
}

/** One new todo, or several arriving at once as one message. */
export function buildAlertDm(todos: readonly Todo[], o: AlertDmOptions): SlackMessage {
  // Explained builds take room, so fewer cards are shown with them (the rest are counted, as always).
  const room = o.why && o.why.size > 0 ? ALERT_CARDS_SHOWN - WHY_BLOCKS / 2 : ALERT_CARDS_SHOWN;
  const shown = todos.slice(0, room);
  const group = todos.length > 1 ? shown.map((t) => t.id) : null;
  const first = todos[0];
  const n = todos.length;
  const title = o.released
    ? md`:bell: ${n === 1 ? 'A todo' : `${n} todos`} arrived during your quiet hours:`
    : n === 1
      ? null
      : md`:bell: ${n} new todos:`;
  const fallback =
    n === 1 && first
      ? md`New todo: ${todoWhy(first)} on ${todoRef(first)} ${truncate(first.target.title, 100)}`
      : o.released
        ? md`${n} todos arrived during your quiet hours`
        : md`${n} new todos`;
  const blocks: Block[] = [
    ...noticeBlocks(o.notice),
    ...(title ? [section(title)] : []),
    ...shown.flatMap((t, i) => alertCard(t, o, group, i)),
  ];
  if (n > shown.length) blocks.push(context([md`…and ${n - shown.length} more: your todo list has them all.`]));
  return message(fallback, blocks);
}

/** The todos of an alert message as they are now, after a Done: the ones no longer known are named by id. */
export function buildAlertRedraw(
  todos: readonly Todo[],
  gone: readonly number[],
  o: AlertDmOptions & { notice: Notice },
): SlackMessage {
  const drawn = buildAlertDm(todos, o);
  if (gone.length === 0) return drawn;
  const line = md`:white_check_mark: Done elsewhere: ${joinMd(
    gone.map((id) => md`todo ${code(String(id))}`),
    ', ',
  )}`;
  return { ...drawn, blocks: [...(drawn.blocks ?? []), context([line])] };
}

/**
 * The one DM a refused token sends. A refusal may be the server's trouble (a burst of 401s), so the alerts wait for
 * the server to accept the token again and resume by themselves when it does; only a person with no token at all
 * (`confirmed`) is asked to connect.
 */
export function buildAlertsPausedDm(serverUrl: string, confirmed = false): SlackMessage {
  const text = confirmed
    ? md`${link(serverUrl, serverUrl)} refused your token (401), so your todo alerts are paused. Connect a new token and they resume on their own; todos that arrive meanwhile are not lost.`
    : md`${link(serverUrl, serverUrl)} refused your token (401), so your todo alerts are paused until the server accepts your token again. The bot asks the server again by itself and they resume when it does; todos that arrive meanwhile are not lost. If you revoked the token, connect a new one.`;
  const summary = confirmed
    ? md`Your todo alerts are paused: the server refused your token (401). Connect again to resume them.`
    : md`Your todo alerts are paused until the server accepts your token again (it refused it: 401).`;
  return message(summary, [
    section(md`:pause_button: ${text}`),
    actions([button({ text: 'Connect', def: AccountButtons.connect, value: {}, style: 'primary' })]),
  ]);
}

/** Told when alerts paused for a refused token poll again: `connected` after a new connect, else the server took it. */
export function buildAlertsResumedDm(how: 'connected' | 'accepted'): SlackMessage {
  const why = how === 'connected' ? 'You are connected again' : 'The server accepts your token again';
  const text = md`${why}, so your todo alerts are on again: what arrived meanwhile comes within about a minute.`;
  return message(text, [section(md`:arrow_forward: ${text}`)]);
}

const actionsText = (s: AlertSetting) =>
  s.actions.length === ALERT_ACTIONS.length ? 'every action' : s.actions.map((a) => a.replace(/_/g, ' ')).join(', ');

/** One line for the Home tab and whoami: on or off, for what, quiet hours, the last delivery (in the viewer's zone). */
export function alertSummary(s: AlertSetting | null, at: TimeContext): Md {
  if (!s?.active) return md`:no_bell: Todo alerts: off`;
  const parts: Md[] = [md`:bell: Todo alerts: on (${actionsText(s)})`];
  if (s.pausedReason === 'token') parts.push(md`paused until the server accepts your token again`);
  if (s.quiet) parts.push(md`quiet ${quietText(s.quiet)} (${s.tz})`);
  parts.push(
    s.lastDeliveryAt ? md`last delivery ${when(s.lastDeliveryAt.toISOString(), at)}` : md`nothing delivered yet`,
  );
  return joinMd(parts, ' · ');
}

/** The answer to `/gl notify`, `notify on` and `notify off`. */
export function buildAlertSetting(
  s: AlertSetting | null,
  o: TimeContext & { slashCommand: string; notice?: Notice },
): SlackMessage {
  const on = code(`${o.slashCommand} notify on`);
  if (!s?.active) {
    const text = md`:no_bell: Todo alerts are off. ${on} sends you a DM within about a minute of each new todo (${code('--actions')} and ${code('--quiet 19:00-08:00')} choose which and when).`;
    return message(md`Todo alerts are off.`, [...noticeBlocks(o.notice), section(text)]);
  }
  const lines: Md[] = [
    md`:bell: *Todo alerts are on*: a DM within about a minute of each new todo you get for ${actionsText(s)}.`,
  ];
  if (s.pausedReason === 'token') {
    lines.push(
      md`:pause_button: Paused until the server accepts your token again (it refused it: 401); the bot asks again by itself.`,
    );
  }
  lines.push(
    s.quiet
      ? md`Quiet hours: ${quietText(s.quiet)} in ${s.tz}; what arrives then comes as one message when they end.`
      : md`Quiet hours: none.`,
  );
  lines.push(
    s.lastDeliveryAt
      ? md`Last delivery: ${String(s.lastDeliveryItems ?? 0)} todo${s.lastDeliveryItems === 1 ? '' : 's'}, ${when(s.lastDeliveryAt.toISOString(), o)}.`
      : md`Last delivery: none yet.`,
  );
  lines.push(md`${code(`${o.slashCommand} notify off`)} stops them.`);
  return message(md`Todo alerts are on.`, [...noticeBlocks(o.notice), section(joinMd(lines, '\n'))]);
}
