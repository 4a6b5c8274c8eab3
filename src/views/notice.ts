import { type Block, context, message, type SlackMessage } from './blocks.js';
import { md, mention, type Text } from './mrkdwn.js';

// The line under a redrawn card or list that says who just did what ("Retried by @bob"), or, when a
// card was out of date, what happened instead ("Already retried by @bob").

/** Past tense of what a button or command did. */
export const DONE_BY: Record<string, string> = {
  retry: 'Retried',
  cancel: 'Canceled',
  play: 'Started',
  erase: 'Erased',
  keep: 'Artifacts kept',
  take: 'Ownership taken',
  activate: 'Activated',
  deactivate: 'Deactivated',
  delete: 'Deleted',
  run: 'Started',
  create: 'Created',
  edit: 'Updated',
  merge: 'Merged',
  'auto-merge': 'Set to merge when the pipeline succeeds',
  'cancel-auto-merge': 'Automatic merge canceled',
  done: 'Marked done',
  'done-all': 'Marked all done',
  close: 'Closed',
  reopen: 'Reopened',
  subscribe: 'Subscribed',
  unsubscribe: 'Unsubscribed',
  todo: 'Added to the todos',
  thumbsup: ':thumbsup: given',
  unthumbsup: ':thumbsup: taken back',
  move: 'Moved',
  estimate: 'Estimate set',
  'reset-estimate': 'Estimate reset',
  spend: 'Time logged',
  'reset-spent': 'Spent time reset',
  pause: 'Paused',
  resume: 'Resumed',
  remove: 'Removed',
  'digest-run': 'Run',
  alldone: 'All todos marked done',
};

/** The icon of the line: the circling arrows say "done again"; what is gone for good says so. */
const DONE_ICON: Record<string, string> = { erase: ':wastebasket:', delete: ':wastebasket:' };

export type Notice =
  /** The person did it: "Retried by @alice · new job #9 replaces #8". */
  | {
      kind: 'done';
      action: string;
      actorId: string;
      detail?: Text;
      row?: Block;
      /** Which item `row` draws, so a list that shows it on its page does not draw it twice. */
      rowKey?: string | number;
      /** What could not be read again after the change, and why: said under the line, never instead of it. */
      unread?: { what: string; why: string };
    }
  /** Nothing was done: the card was out of date. `text` says what is true now. */
  | { kind: 'stale'; text: Text; row?: Block; rowKey?: string | number };

export function done(
  action: string,
  { actorId, detail, row }: { actorId: string; detail?: Text; row?: Block },
): Notice {
  return { kind: 'done', action, actorId, ...(detail !== undefined ? { detail } : {}), ...(row ? { row } : {}) };
}

export function stale(text: Text, row?: Block): Notice {
  return { kind: 'stale', text, ...(row ? { row } : {}) };
}

export function noticeBlocks(n: Notice | undefined): Block[] {
  if (!n) return [];
  // A row under the line is the acted-on item as it is now, outside the list's own rows and counts.
  const now = n.row ? ' Now:' : '';
  const line =
    n.kind === 'done'
      ? md`${DONE_ICON[n.action] ?? ':arrows_counterclockwise:'} ${DONE_BY[n.action] ?? n.action} by ${mention(n.actorId)}${n.detail !== undefined ? md` · ${n.detail}` : ''}${now}`
      : md`:hourglass: ${n.text} Nothing was changed.${now}`;
  const unread =
    n.kind === 'done' && n.unread
      ? [
          context([
            md`:warning: ${n.unread.what} could not be read afterwards (${n.unread.why}), so what is shown may be out of date.`,
          ]),
        ]
      : [];
  return [context([line]), ...unread, ...(n.row ? [n.row] : [])];
}

/** The same notice, saying that `what` could not be read again after the change. */
export function unreadAfter(n: Notice, what: string, why: string): Notice {
  return n.kind === 'done' ? { ...n, unread: { what, why } } : n;
}

/** What was done, alone: the answer when nothing could be read again to draw around it. */
export function buildNoticeOnly(n: Notice): SlackMessage {
  const text =
    n.kind === 'done'
      ? md`${DONE_BY[n.action] ?? n.action} by ${mention(n.actorId)}${n.detail !== undefined ? md` · ${n.detail}` : ''}`
      : n.text;
  return message(text, noticeBlocks(n));
}
