// What issues and merge requests share: list filters, subscriptions, todos
// and time tracking, with 9.5's statuses (201 on change, 304 when nothing
// changes; time_estimate 200, add_spent_time 201).

import { parseHumanDuration } from '../duration.js';
import { empty, type Handler, json, type RequestContext } from '../http/context.js';
import { apiError, forbidden, invalidRecord, missing, notAValidValue } from '../http/errors.js';
import { dateTime, int, intList, list, oneOf, str } from '../http/params.js';
import type { Route } from '../http/router.js';
import type { IssueRecord, MergeRequestRecord, ProjectRecord, State, TodoRecord } from '../model.js';
import { nextId } from '../model.js';
import { presentTimeStats, presentTodo } from '../present.js';

type Issuable = IssueRecord | MergeRequestRecord;

export const LIST_SCOPES = ['created-by-me', 'assigned-to-me', 'all'] as const;

function assigneeIds(x: Issuable): number[] {
  return 'assignee_ids' in x ? x.assignee_ids : x.assignee_id === null ? [] : [x.assignee_id];
}

function labelFilter(raw: string): string[] | 'none' {
  const trimmed = raw.trim();
  if (/^no[ +]label$/i.test(trimmed)) return 'none';
  return trimmed
    .split(',')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The filters GitLab's IssuableFinder applies, in its order, then the sort. */
export function filterIssuables<T extends Issuable>(
  ctx: RequestContext,
  items: T[],
  opts: { defaultScope: (typeof LIST_SCOPES)[number]; states: readonly string[] },
): T[] {
  const p = ctx.params;
  const state = oneOf(p, 'state', [...opts.states, 'all'] as const) ?? 'all';
  const scopeRaw = str(p, 'scope')?.replace(/_/g, '-');
  if (scopeRaw !== undefined && !(LIST_SCOPES as readonly string[]).includes(scopeRaw)) throw notAValidValue('scope');
  const scope = (scopeRaw as (typeof LIST_SCOPES)[number] | undefined) ?? opts.defaultScope;
  const labels = str(p, 'labels');
  const milestone = str(p, 'milestone');
  const iids = intList(p, 'iids');
  const authorId = int(p, 'author_id');
  const assigneeId = int(p, 'assignee_id');
  const search = str(p, 'search')?.toLowerCase();
  const after = dateTime(p, 'created_after');
  const before = dateTime(p, 'created_before');
  const orderBy = oneOf(p, 'order_by', ['created_at', 'updated_at'] as const) ?? 'created_at';
  const sort = oneOf(p, 'sort', ['asc', 'desc'] as const) ?? 'desc';

  let out = items;
  if (state !== 'all') out = out.filter((x) => x.state === state);
  if (scope === 'created-by-me') out = out.filter((x) => x.author_id === ctx.user.id);
  else if (scope === 'assigned-to-me') out = out.filter((x) => assigneeIds(x).includes(ctx.user.id));
  if (labels !== undefined && labels !== '') {
    const wanted = labelFilter(labels);
    out =
      wanted === 'none'
        ? out.filter((x) => x.labels.length === 0)
        : out.filter((x) => wanted.every((l) => x.labels.some((have) => have.toLowerCase() === l.toLowerCase())));
  }
  if (milestone !== undefined && milestone !== '') {
    if (/^no[ +]milestone$/i.test(milestone)) out = out.filter((x) => x.milestone_id === null);
    else if (/^any[ +]milestone$/i.test(milestone)) out = out.filter((x) => x.milestone_id !== null);
    else
      out = out.filter((x) => x.milestone_id !== null && ctx.state.milestones.get(x.milestone_id)?.title === milestone);
  }
  if (iids?.length) out = out.filter((x) => iids.includes(x.iid));
  if (authorId !== undefined) out = out.filter((x) => x.author_id === authorId);
  if (assigneeId !== undefined) out = out.filter((x) => assigneeIds(x).includes(assigneeId));
  if (search) {
    out = out.filter(
      (x) => x.title.toLowerCase().includes(search) || (x.description ?? '').toLowerCase().includes(search),
    );
  }
  if (after !== undefined) out = out.filter((x) => Date.parse(x.created_at) >= after);
  if (before !== undefined) out = out.filter((x) => Date.parse(x.created_at) <= before);
  out = [...out].sort((a, b) => {
    const c = Date.parse(a[orderBy]) - Date.parse(b[orderBy]) || a.id - b.id;
    return sort === 'asc' ? c : -c;
  });
  return out;
}

/** `labels` as a comma-separated string or an array; new names join the project's labels. */
export function readLabels(ctx: RequestContext, project: ProjectRecord): string[] | undefined {
  const labels = list(ctx.params, 'labels');
  if (labels === undefined) return undefined;
  const unique = [...new Set(labels)];
  for (const l of unique) if (!project.labels.includes(l)) project.labels.push(l);
  return unique;
}

/** A project milestone id, or null (unknown ids are dropped as GitLab does). */
export function readMilestone(ctx: RequestContext, project: ProjectRecord): number | null | undefined {
  const id = int(ctx.params, 'milestone_id');
  if (id === undefined) return str(ctx.params, 'milestone_id') === '' ? null : undefined;
  const m = ctx.state.milestones.get(id);
  return m && (m.project_id === project.id || m.group_id === project.group_id) ? id : null;
}

export interface IssuableKind<T extends Issuable> {
  type: 'Issue' | 'MergeRequest';
  find(ctx: RequestContext): { project: ProjectRecord; item: T };
  canUpdate(ctx: RequestContext, project: ProjectRecord, item: T): boolean;
  present(ctx: RequestContext, item: T): unknown;
}

export function subscribeHandler<T extends Issuable>(kind: IssuableKind<T>, subscribe: boolean): Handler {
  return (ctx) => {
    const { item } = kind.find(ctx);
    const subscribed = item.subscriber_ids.includes(ctx.user.id);
    if (subscribed === subscribe) return empty(304);
    item.subscriber_ids = subscribe
      ? [...item.subscriber_ids, ctx.user.id]
      : item.subscriber_ids.filter((id) => id !== ctx.user.id);
    return json(201, kind.present(ctx, item));
  };
}

export function todoHandler<T extends Issuable>(kind: IssuableKind<T>): Handler {
  return (ctx) => {
    const { project, item } = kind.find(ctx);
    for (const t of ctx.state.todos.values()) {
      if (
        t.user_id === ctx.user.id &&
        t.target_type === kind.type &&
        t.target_id === item.id &&
        t.state === 'pending' &&
        t.action_name === 'marked'
      ) {
        return empty(304);
      }
    }
    const todo = createTodo(ctx.state, {
      user_id: ctx.user.id,
      author_id: ctx.user.id,
      project_id: project.id,
      action_name: 'marked',
      target_type: kind.type,
      target_id: item.id,
      at: ctx.now,
    });
    return json(201, presentTodo(ctx, todo));
  };
}

export function createTodo(
  state: State,
  input: Pick<TodoRecord, 'user_id' | 'author_id' | 'project_id' | 'action_name' | 'target_type' | 'target_id'> & {
    at: Date;
  },
): TodoRecord {
  const todo: TodoRecord = {
    id: nextId(state, 'todos'),
    user_id: input.user_id,
    author_id: input.author_id,
    project_id: input.project_id,
    action_name: input.action_name,
    target_type: input.target_type,
    target_id: input.target_id,
    note_id: null,
    state: 'pending',
    created_at: input.at.toISOString(),
  };
  state.todos.set(todo.id, todo);
  return todo;
}

function readDuration(ctx: RequestContext): number {
  const text = str(ctx.params, 'duration');
  if (text === undefined || text.trim() === '') throw missing('duration');
  const seconds = parseHumanDuration(text);
  if (seconds === null) throw apiError(400, 'Invalid duration');
  return seconds;
}

type TimeAction = 'estimate' | 'reset_estimate' | 'spend' | 'reset_spent' | 'stats';

export function timeHandler<T extends Issuable>(kind: IssuableKind<T>, action: TimeAction): Handler {
  return (ctx) => {
    const { project, item } = kind.find(ctx);
    if (action === 'stats') return json(200, presentTimeStats(item));
    if (!kind.canUpdate(ctx, project, item)) throw forbidden();
    switch (action) {
      case 'estimate': {
        const seconds = readDuration(ctx);
        if (seconds < 0) throw invalidRecord({ time_estimate: ['must be greater than or equal to 0'] });
        item.time_estimate = seconds;
        break;
      }
      case 'reset_estimate':
        item.time_estimate = 0;
        break;
      case 'spend': {
        const seconds = readDuration(ctx);
        if (item.total_time_spent + seconds < 0) {
          throw invalidRecord({ time_spent: ['Time to subtract exceeds the total time spent'] });
        }
        item.total_time_spent += seconds;
        break;
      }
      case 'reset_spent':
        item.total_time_spent = 0;
        break;
    }
    item.updated_at = ctx.now.toISOString();
    return json(action === 'spend' ? 201 : 200, presentTimeStats(item));
  };
}

export function timeRoutes<T extends Issuable>(base: string, kind: IssuableKind<T>): Route[] {
  return [
    ['POST', `${base}/time_estimate`, timeHandler(kind, 'estimate')],
    ['POST', `${base}/reset_time_estimate`, timeHandler(kind, 'reset_estimate')],
    ['POST', `${base}/add_spent_time`, timeHandler(kind, 'spend')],
    ['POST', `${base}/reset_spent_time`, timeHandler(kind, 'reset_spent')],
    ['GET', `${base}/time_stats`, timeHandler(kind, 'stats')],
    ['POST', `${base}/subscribe`, subscribeHandler(kind, true)],
    ['POST', `${base}/unsubscribe`, subscribeHandler(kind, false)],
    ['POST', `${base}/todo`, todoHandler(kind)],
  ];
}
