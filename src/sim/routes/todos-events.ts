// Todos (list with filters, mark one 201, mark all 204) and events (the
// caller's, a user's by id or username, a project's) with 9.5's filters.

import { canReadIssue, canReadProject } from '../access.js';
import { empty, type Handler, json, type RequestContext } from '../http/context.js';
import { notFound } from '../http/errors.js';
import { paginate } from '../http/pagination.js';
import { date, int, oneOf } from '../http/params.js';
import type { Route } from '../http/router.js';
import { findProject } from '../lookup.js';
import type { EventAction, EventRecord, TodoAction, UserRecord } from '../model.js';
import { presentEvent, presentTodo } from '../present.js';

const TODO_ACTIONS: readonly TodoAction[] = [
  'assigned',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
];

const listTodos: Handler = (ctx) => {
  const action = oneOf(ctx.params, 'action', TODO_ACTIONS);
  const authorId = int(ctx.params, 'author_id');
  const projectId = int(ctx.params, 'project_id');
  const state = oneOf(ctx.params, 'state', ['pending', 'done'] as const) ?? 'pending';
  const type = oneOf(ctx.params, 'type', ['Issue', 'MergeRequest'] as const);
  const items = [...ctx.state.todos.values()]
    .filter(
      (t) =>
        t.user_id === ctx.user.id &&
        t.state === state &&
        (action === undefined || t.action_name === action) &&
        (authorId === undefined || t.author_id === authorId) &&
        (projectId === undefined || t.project_id === projectId) &&
        (type === undefined || t.target_type === type),
    )
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || b.id - a.id);
  return paginate(ctx, items, (t) => presentTodo(ctx, t));
};

const markTodoDone: Handler = (ctx) => {
  const todo = ctx.state.todos.get(Number(ctx.route.todo_id));
  if (!todo || todo.user_id !== ctx.user.id || todo.state !== 'pending') throw notFound();
  todo.state = 'done';
  return json(201, presentTodo(ctx, todo));
};

const markAllDone: Handler = (ctx) => {
  for (const t of ctx.state.todos.values()) if (t.user_id === ctx.user.id) t.state = 'done';
  return empty(204);
};

// ------------------------------------------------------------------ events

const ACTIONS: readonly EventAction[] = [
  'created',
  'updated',
  'closed',
  'reopened',
  'pushed',
  'commented',
  'merged',
  'joined',
  'left',
  'destroyed',
  'expired',
];
const TARGET_TYPES = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: null,
  snippet: 'Snippet',
  user: null,
} as const;

/** Whether the caller may see the event: its project, and a confidential issue behind it. */
function visible(ctx: RequestContext, e: EventRecord): boolean {
  const project = ctx.state.projects.get(e.project_id);
  if (!project || !canReadProject(ctx.state, ctx.user, project)) return false;
  let issueId: number | null = null;
  if (e.target_type === 'Issue') issueId = e.target_id;
  else if (e.target_type === 'Note' && e.target_id !== null) {
    const note = ctx.state.notes.get(e.target_id);
    if (note?.noteable_type === 'Issue') issueId = note.noteable_id;
  }
  if (issueId === null) return true;
  const issue = ctx.state.issues.get(issueId);
  return !issue || canReadIssue(ctx.state, ctx.user, project, { ...issue, deleted: false });
}

function listEvents(ctx: RequestContext, pick: (e: EventRecord) => boolean) {
  const action = oneOf(ctx.params, 'action', ACTIONS);
  const targetKey = oneOf(ctx.params, 'target_type', Object.keys(TARGET_TYPES) as (keyof typeof TARGET_TYPES)[]);
  const before = date(ctx.params, 'before');
  const after = date(ctx.params, 'after');
  const sort = oneOf(ctx.params, 'sort', ['asc', 'desc'] as const) ?? 'desc';
  // before: earlier than that day's start; after: later than that day's end (UTC)
  const beforeMs = before === undefined ? undefined : Date.parse(`${before}T00:00:00.000Z`);
  const afterMs = after === undefined ? undefined : Date.parse(`${after}T23:59:59.999Z`);
  const items = [...ctx.state.events.values()]
    .filter((e) => {
      if (!pick(e)) return false;
      if (action !== undefined && e.action !== action) return false;
      if (targetKey !== undefined) {
        const wanted = TARGET_TYPES[targetKey];
        if (wanted === null ? e.target_type !== null : e.target_type !== wanted) return false;
      }
      const t = Date.parse(e.created_at);
      if (beforeMs !== undefined && !(t < beforeMs)) return false;
      if (afterMs !== undefined && !(t > afterMs)) return false;
      return visible(ctx, e);
    })
    .sort((a, b) => {
      const c = Date.parse(a.created_at) - Date.parse(b.created_at) || a.id - b.id;
      return sort === 'asc' ? c : -c;
    });
  return paginate(ctx, items, (e) => presentEvent(ctx, e));
}

const currentUserEvents: Handler = (ctx) => listEvents(ctx, (e) => e.author_id === ctx.user.id);

export function findUser(ctx: RequestContext, ref: string): UserRecord {
  if (/^\d+$/.test(ref)) {
    const u = ctx.state.users.get(Number(ref));
    if (u) return u;
  } else {
    for (const u of ctx.state.users.values()) if (u.username.toLowerCase() === ref.toLowerCase()) return u;
  }
  throw notFound('User');
}

const userEvents: Handler = (ctx) => {
  const user = findUser(ctx, ctx.route.user_id ?? '');
  return listEvents(ctx, (e) => e.author_id === user.id);
};

const projectEvents: Handler = (ctx) => {
  const project = findProject(ctx);
  return listEvents(ctx, (e) => e.project_id === project.id);
};

export const todoEventRoutes: Route[] = [
  ['GET', '/todos', listTodos],
  ['POST', '/todos/mark_as_done', markAllDone],
  ['POST', '/todos/:todo_id/mark_as_done', markTodoDone],
  ['GET', '/events', currentUserEvents],
  ['GET', '/users/:user_id/events', userEvents],
  ['GET', '/projects/:id/events', projectEvents],
];
