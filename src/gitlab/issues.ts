import { type Changed, createCaller } from './call.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { joinList } from './params.js';
import { encodeProject, encodeSegment, type ProjectRef } from './paths.js';
import {
  type Issue,
  IssueSchema,
  type MergeRequest,
  MergeRequestSchema,
  type TimeStats,
  TimeStatsSchema,
  type Todo,
  TodoSchema,
  type UserAgentDetail,
  UserAgentDetailSchema,
} from './schemas.js';

export interface IssueListOptions extends PageOptions {
  state?: 'opened' | 'closed' | 'all';
  /** Sent comma-separated; `No Label` lists issues without labels. */
  labels?: string | readonly string[];
  milestone?: string;
  scope?: 'created-by-me' | 'assigned-to-me' | 'all';
  author_id?: number;
  assignee_id?: number;
  /** Sent as `iids[]`. */
  iids?: readonly number[];
  search?: string;
  order_by?: 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
  /** ISO date or date-time. */
  created_after?: string;
  created_before?: string;
}

export interface IssueCreateOptions {
  /** May be left out with `merge_request_to_resolve_discussions_of`: the server then names the issue after it. */
  title?: string;
  description?: string;
  confidential?: boolean;
  /** Sent as `assignee_ids[]`. */
  assignee_ids?: readonly number[];
  milestone_id?: number;
  labels?: string | readonly string[];
  created_at?: string;
  due_date?: string;
  merge_request_to_resolve_discussions_of?: number;
  discussion_to_resolve?: string;
}

export interface IssueEditOptions {
  title?: string;
  description?: string;
  confidential?: boolean;
  assignee_ids?: readonly number[];
  milestone_id?: number;
  labels?: string | readonly string[];
  state_event?: 'close' | 'reopen';
  updated_at?: string;
  due_date?: string;
}

export interface IssueMoveOptions {
  /** The numeric id of the target project (resolve a path with projects.get first). */
  to_project_id: number;
}

export interface IssuesApi {
  /** GET /issues: the caller's issues across projects. */
  listAll(options?: IssueListOptions): Promise<Page<Issue>>;
  listForGroup(group: ProjectRef, options?: IssueListOptions): Promise<Page<Issue>>;
  listForProject(project: ProjectRef, options?: IssueListOptions): Promise<Page<Issue>>;
  get(project: ProjectRef, issueIid: number): Promise<Issue>;
  create(project: ProjectRef, options: IssueCreateOptions): Promise<Issue>;
  edit(project: ProjectRef, issueIid: number, options: IssueEditOptions): Promise<Issue>;
  remove(project: ProjectRef, issueIid: number): Promise<void>;
  move(project: ProjectRef, issueIid: number, options: IssueMoveOptions): Promise<Issue>;
  subscribe(project: ProjectRef, issueIid: number): Promise<Changed<Issue>>;
  unsubscribe(project: ProjectRef, issueIid: number): Promise<Changed<Issue>>;
  createTodo(project: ProjectRef, issueIid: number): Promise<Changed<Todo>>;
  /** `duration` in GitLab's human form: `3h30m`, `1mo 2w 3d 4h 30m`. */
  setTimeEstimate(project: ProjectRef, issueIid: number, duration: string): Promise<TimeStats>;
  resetTimeEstimate(project: ProjectRef, issueIid: number): Promise<TimeStats>;
  addSpentTime(project: ProjectRef, issueIid: number, duration: string): Promise<TimeStats>;
  resetSpentTime(project: ProjectRef, issueIid: number): Promise<TimeStats>;
  timeStats(project: ProjectRef, issueIid: number): Promise<TimeStats>;
  /** Merge requests that close this issue when merged. */
  closedBy(project: ProjectRef, issueIid: number, options?: PageOptions): Promise<Page<MergeRequest>>;
  /** Admin only. */
  userAgentDetail(project: ProjectRef, issueIid: number): Promise<UserAgentDetail>;
}

function issueListQuery(options: IssueListOptions = {}) {
  return { ...options, labels: joinList(options.labels) };
}

export function createIssuesApi(transport: Transport, token: string): IssuesApi {
  const call = createCaller(transport, token);
  const base = (project: ProjectRef) => `projects/${encodeProject(project)}/issues`;
  const issue = (project: ProjectRef, iid: number) => `${base(project)}/${encodeSegment(iid)}`;

  return {
    listAll: (options) => call.list('issues', IssueSchema, issueListQuery(options)),
    listForGroup: (group, options) =>
      call.list(`groups/${encodeProject(group)}/issues`, IssueSchema, issueListQuery(options)),
    listForProject: (project, options) => call.list(base(project), IssueSchema, issueListQuery(options)),
    get: (project, iid) => call.get(issue(project, iid), IssueSchema),
    create: (project, options) =>
      call.send('POST', base(project), IssueSchema, { ...options, labels: joinList(options.labels) }),
    edit: (project, iid, options) =>
      call.send('PUT', issue(project, iid), IssueSchema, { ...options, labels: joinList(options.labels) }),
    remove: (project, iid) => call.sendVoid('DELETE', issue(project, iid)),
    move: (project, iid, options) =>
      call.send('POST', `${issue(project, iid)}/move`, IssueSchema, { to_project_id: options.to_project_id }),
    subscribe: (project, iid) => call.sendChanged('POST', `${issue(project, iid)}/subscribe`, IssueSchema),
    unsubscribe: (project, iid) => call.sendChanged('POST', `${issue(project, iid)}/unsubscribe`, IssueSchema),
    createTodo: (project, iid) => call.sendChanged('POST', `${issue(project, iid)}/todo`, TodoSchema),
    setTimeEstimate: (project, iid, duration) =>
      call.send('POST', `${issue(project, iid)}/time_estimate`, TimeStatsSchema, { duration }),
    resetTimeEstimate: (project, iid) =>
      call.send('POST', `${issue(project, iid)}/reset_time_estimate`, TimeStatsSchema),
    addSpentTime: (project, iid, duration) =>
      call.send('POST', `${issue(project, iid)}/add_spent_time`, TimeStatsSchema, { duration }),
    resetSpentTime: (project, iid) => call.send('POST', `${issue(project, iid)}/reset_spent_time`, TimeStatsSchema),
    timeStats: (project, iid) => call.get(`${issue(project, iid)}/time_stats`, TimeStatsSchema),
    closedBy: (project, iid, options = {}) =>
      call.list(`${issue(project, iid)}/closed_by`, MergeRequestSchema, { ...options }),
    userAgentDetail: (project, iid) => call.get(`${issue(project, iid)}/user_agent_detail`, UserAgentDetailSchema),
  };
}
