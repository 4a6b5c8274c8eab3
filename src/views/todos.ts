import type { Button } from '@slack/types';
import { TodoButtons } from '../buttons/todo.js';
import type { Refusal } from '../errors.js';
import { onServer } from '../gitlab/project.js';
import type { Todo } from '../gitlab/schemas.js';
import { actions, type Block, button, type Confirmation, message, type SlackMessage, section } from './blocks.js';
import { buildConfirmPrompt, type CardContext, when } from './common.js';
import { truncate } from './limits.js';
import { buildList, type ListPlace, type PageInfo, pageTurns } from './lists.js';
import { bold, code, italic, linked, type Md, md, mention, type Text } from './mrkdwn.js';

// Todos as rows a person acts on: what each is about (linked), why it is a todo, who and when, and a Done
// button. The rows, their buttons and the Mark all done button are shared with digests and the Home tab.

/** Why something is a todo, as the start of a line that ends with who caused it. */
const WHY: Record<string, { text: string; by: boolean }> = {
  assigned: { text: 'Assigned to you', by: true },
  mentioned: { text: 'Mentioned', by: true },
  directly_addressed: { text: 'Addressed to you', by: true },
  marked: { text: 'Added', by: true },
  approval_required: { text: 'Approval asked', by: true },
  build_failed: { text: 'Build failed', by: false },
  unmergeable: { text: 'Can no longer be merged', by: false },
};

/** "Mentioned by @bob", "Build failed · @bob"; an action a newer server invents reads as its own words. */
export function todoWhy(todo: Pick<Todo, 'action_name' | 'author'>): Md {
  const why = WHY[todo.action_name];
  const who = `@${todo.author.username}`;
  if (!why) {
    const words = todo.action_name.replace(/_/g, ' ');
    return md`${words.charAt(0).toUpperCase()}${words.slice(1)} · ${who}`;
  }
  return why.by ? md`${why.text} by ${who}` : md`${why.text} · ${who}`;
}

/** What a todo is about, as people write it: `demo/web#4`, `demo/web!3`, `demo/web@1a2b3c4d`. */
export function todoRef(todo: Todo, o: { short?: boolean } = {}): string {
  const project = o.short ? '' : todo.project.path_with_namespace;
  switch (todo.target_type) {
    case 'Issue':
      return `${project}#${todo.target.iid}`;
    case 'MergeRequest':
      return `${project}!${todo.target.iid}`;
    case 'Commit':
      return `${project}@${todo.target.short_id}`;
  }
}

/** The title of what the todo is about. */
export function todoTitle(todo: Todo): string {
  return todo.target.title;
}

/** "demo/web!3 Fix rounding", linked on the configured server whatever host `target_url` names. */
export function todoSubject(todo: Todo, o: { serverUrl: string; short?: boolean }): Md {
  return md`${bold(linked(onServer(o.serverUrl, todo.target_url), todoRef(todo, o)))} ${truncate(todoTitle(todo), 120)}`;
}

export interface TodoButtonOptions {
  /** The list the button sits in: it is redrawn after the click. */
  place?: ListPlace | null;
  /** The Slack user whose todos are shown: anyone else's click is told it is not their todo (or list). */
  owner?: string | null;
  slot?: number | string;
}

const where = (o: TodoButtonOptions) => ({
  ...(o.owner ? { o: o.owner } : {}),
  ...(o.place ? { q: o.place.query, n: o.place.page } : {}),
});

export function todoDoneButton(todo: Pick<Todo, 'id'>, o: TodoButtonOptions = {}): Button {
  return button({
    text: 'Done',
    def: TodoButtons.done,
    value: { t: todo.id, ...where(o) },
    style: 'primary',
    ...(o.slot !== undefined ? { slot: o.slot } : {}),
  });
}

/** The API marks every pending todo done, not only those shown: the dialog says so. */
export const MARK_ALL_DONE: Confirmation = {
  title: 'Mark all todos done?',
  question: 'Mark every pending todo of yours done, including those not shown here?',
  confirm: 'Mark all done',
  yes: 'Yes, mark all done',
};

export function markAllDoneButton(o: TodoButtonOptions & { shared?: boolean } = {}): Button {
  // Slack would show its dialog to anyone who clicks; on a shared list only the owner is asked, by the bot.
  if (o.shared) return button({ text: 'Mark all done', def: TodoButtons.doneAll, value: { ...where(o), a: 1 } });
  return button({ text: 'Mark all done', def: TodoButtons.doneAll, value: where(o), confirm: MARK_ALL_DONE });
}

/** The question Mark all done on a shared list asks its owner, with the button that does it. */
export function buildMarkAllDonePrompt(o: TodoButtonOptions): SlackMessage {
  return buildConfirmPrompt(MARK_ALL_DONE, TodoButtons.doneAll, where(o));
}

export interface TodoRowOptions extends TodoButtonOptions {
  serverUrl: string;
  now: Date;
  /** The viewer's zone, for the absolute half of the time (UTC, said so, when unknown). */
  timeZone?: string | undefined;
  /** Read by many (a list shared in a channel): the time in each reader's zone (format.ts). */
  shared?: boolean | undefined;
  /** References without the project, for rows grouped under their project. */
  short?: boolean;
  /** The todo's id, for `todo done <id>` (lists show it). */
  showId?: boolean;
}

/** One todo: what it is about (linked), why and who, when; the comment that made it; Done while pending. */
export function todoRow(todo: Todo, o: TodoRowOptions): Block {
  const pending = todo.state === 'pending';
  const lines: Text[] = [
    md`${pending ? '' : ':white_check_mark: '}${todoSubject(todo, { serverUrl: o.serverUrl, short: o.short ?? false })}`,
    md`${todoWhy(todo)} · ${when(todo.created_at, o)}${o.showId ? md` · id ${code(String(todo.id))}` : ''}`,
  ];
  // A mention's todo carries the comment that mentioned the person; the title alone says the rest.
  const body = todo.body.replace(/\s+/g, ' ').trim();
  if (body && body !== todoTitle(todo).trim()) lines.push(italic(`“${truncate(body, 160)}”`));
  const text = md`${lines[0]}\n${lines[1]}${lines[2] ? md`\n${lines[2]}` : ''}`;
  return pending ? section(text, todoDoneButton(todo, o)) : section(text);
}

export interface TodoListOptions {
  title: string;
  filters: string;
  /** Where the list came from, so that its buttons redraw it; null when the command is too long to carry. */
  place: ListPlace | null;
  ctx: CardContext;
  /** The Slack user whose todos these are. */
  owner: string;
  /** Pending todos get Done buttons and the list Mark all done. */
  pending: boolean;
  /** Posted in the channel, where everyone sees its buttons. */
  shared?: boolean;
}

/**
 * A page of todos. Its Next page is the todo list's own: a list of one person's todos shown in a channel is
 * turned only by that person (anyone else would see their own todos in its place).
 */
export function buildTodoList(todos: readonly Todo[], page: PageInfo, o: TodoListOptions): SlackMessage {
  const list = buildList({
    title: o.title,
    filters: o.filters,
    notice: o.ctx.notice,
    empty: o.pending
      ? md`No pending todos${o.filters ? md` match (${o.filters})` : ''}. :tada:`
      : md`No done todos${o.filters ? md` match (${o.filters})` : ''}.`,
    items: todos,
    row: (todo, i) =>
      todoRow(todo, {
        serverUrl: o.ctx.serverUrl,
        now: o.ctx.now,
        timeZone: o.ctx.timeZone,
        shared: o.ctx.shared,
        place: o.place,
        owner: o.owner,
        slot: i,
        showId: true,
      }),
    page: { ...page, page: page.page ?? o.place?.page ?? 1 },
    place: null,
  });
  const buttons: Button[] = [];
  if (o.pending && todos.length > 0) {
    buttons.push(markAllDoneButton({ place: o.place, owner: o.owner, shared: o.shared ?? false }));
  }
  if (o.place) {
    const { query } = o.place;
    buttons.push(...pageTurns(page, o.place, (n) => ({ def: TodoButtons.page, value: { o: o.owner, q: query, n } })));
  }
  return buttons.length > 0 ? { ...list, blocks: [...(list.blocks ?? []), actions(buttons)] } : list;
}

/** A todo marked done by a typed command or a button outside a list. */
export function buildTodoDone(todo: Todo, actorId: string, serverUrl: string): SlackMessage {
  const text = md`:white_check_mark: Marked done by ${mention(actorId)}: ${todoSubject(todo, { serverUrl })}`;
  return message(md`Todo marked done: ${todoRef(todo)}`, [section(text)]);
}

/** "5 todos", for the line under a redrawn list. */
export function markedCount(count: number | null): string {
  return count === null ? 'every pending todo' : `${count} todo${count === 1 ? '' : 's'}`;
}

/** The answer to `todos done` (or Mark all done outside a list): how many there were. */
export function buildAllTodosDone(count: number | null, slashCommand: string): SlackMessage {
  const text =
    count === 0
      ? md`:white_check_mark: You have no pending todos: there was nothing to mark done.`
      : md`:white_check_mark: Marked ${markedCount(count)} done. ${code(`${slashCommand} todos --state done`)} lists them.`;
  return message(text, [section(text)]);
}

/** A list button pressed by someone whose todos the list does not show: nothing was sent. */
export function notYourTodoList(owner: string, action: 'page' | 'done-all', slashCommand: string): Md {
  const yours =
    action === 'page'
      ? md`To see your own, use ${code(`${slashCommand} todos`)}.`
      : md`To mark all of yours done, use ${code(`${slashCommand} todos done`)}.`;
  return md`This list shows ${mention(owner)}'s todos, so its buttons are theirs; nothing was changed. ${yours}`;
}

/** What is true now when the person's own list offered a todo that was no longer pending. */
export const TODO_ALREADY_DONE = 'That todo was already done (or is gone).';

export function todoRefusal(r: Refusal, label: string): Md | null {
  if (r.reason === 'not_yours') {
    return md`That is not one of your todos (404): only the person whose todo it is can mark it done. Nothing was changed.`;
  }
  if (r.reason === 'not_pending') {
    return md`${label} is not one of your pending todos (404): it may be done already, or belong to someone else. Nothing was changed.`;
  }
  return null;
}
