import { type Changed, createCaller, parseAnswer } from './call.js';
import { cleanMessage, errorForStatus, GitlabError } from './errors.js';
import type { Transport } from './http.js';
import type { Page, PageOptions } from './paginate.js';
import { joinList } from './params.js';
import { encodeProject, encodeSegment, type ProjectRef, toApiPath } from './paths.js';
import {
  type ClosesIssue,
  ClosesIssueSchema,
  type Commit,
  CommitSchema,
  MergeActionStatusSchema,
  type MergeRequest,
  type MergeRequestChanges,
  MergeRequestChangesSchema,
  MergeRequestSchema,
  type MergeRequestSimple,
  MergeRequestSimpleSchema,
  type MergeRequestVersion,
  type MergeRequestVersionDetail,
  MergeRequestVersionDetailSchema,
  MergeRequestVersionSchema,
  type TimeStats,
  TimeStatsSchema,
  type Todo,
  TodoSchema,
} from './schemas.js';

export interface MergeRequestListOptions extends PageOptions {
  state?: 'opened' | 'closed' | 'merged' | 'locked' | 'all';
  order_by?: 'created_at' | 'updated_at';
  sort?: 'asc' | 'desc';
  milestone?: string;
  /** `simple` answers with a reduced shape (see the overloads). */
  view?: 'simple';
  labels?: string | readonly string[];
  created_after?: string;
  created_before?: string;
  scope?: 'created-by-me' | 'assigned-to-me' | 'all';
  author_id?: number;
  assignee_id?: number;
}

export interface ProjectMergeRequestListOptions extends MergeRequestListOptions {
  /** Sent as `iids[]`. */
  iids?: readonly number[];
}

export interface MergeRequestCreateOptions {
  source_branch: string;
  target_branch: string;
  title: string;
  assignee_id?: number;
  description?: string;
  target_project_id?: number;
  labels?: string | readonly string[];
  milestone_id?: number;
  remove_source_branch?: boolean;
}

export interface MergeRequestEditOptions {
  target_branch?: string;
  title?: string;
  assignee_id?: number;
  description?: string;
  state_event?: 'close' | 'reopen';
  labels?: string | readonly string[];
  milestone_id?: number;
  remove_source_branch?: boolean;
}

export interface MergeOptions {
  merge_commit_message?: string;
  should_remove_source_branch?: boolean;
  merge_when_pipeline_succeeds?: boolean;
  /** The head the caller saw; a moved branch answers 409. */
  sha?: string;
}

export interface MergeRequestsApi {
  /** GET /merge_requests. */
  listAll(options: MergeRequestListOptions & { view: 'simple' }): Promise<Page<MergeRequestSimple>>;
  listAll(options?: MergeRequestListOptions): Promise<Page<MergeRequest>>;
  listForProject(
    project: ProjectRef,
    options: ProjectMergeRequestListOptions & { view: 'simple' },
  ): Promise<Page<MergeRequestSimple>>;
  listForProject(project: ProjectRef, options?: ProjectMergeRequestListOptions): Promise<Page<MergeRequest>>;
  get(project: ProjectRef, mergeRequestIid: number): Promise<MergeRequest>;
  create(project: ProjectRef, options: MergeRequestCreateOptions): Promise<MergeRequest>;
  edit(project: ProjectRef, mergeRequestIid: number, options: MergeRequestEditOptions): Promise<MergeRequest>;
  remove(project: ProjectRef, mergeRequestIid: number): Promise<void>;
  /** PUT …/merge: 405 not mergeable (conflicts, merged, closed), 406 cannot be merged, 409 sha moved. */
  merge(project: ProjectRef, mergeRequestIid: number, options?: MergeOptions): Promise<MergeRequest>;
  /**
   * The merge request as the contract answers, or null when the server only acknowledged
   * (9.5's `{"status":"success"}`): the caller re-reads the merge request then.
   */
  cancelMergeWhenPipelineSucceeds(project: ProjectRef, mergeRequestIid: number): Promise<MergeRequest | null>;
  commits(project: ProjectRef, mergeRequestIid: number, options?: PageOptions): Promise<Page<Commit>>;
  changes(project: ProjectRef, mergeRequestIid: number): Promise<MergeRequestChanges>;
  versions(project: ProjectRef, mergeRequestIid: number, options?: PageOptions): Promise<Page<MergeRequestVersion>>;
  version(project: ProjectRef, mergeRequestIid: number, versionId: number): Promise<MergeRequestVersionDetail>;
  /** Issues this merge request closes; with an external tracker, items are `{ id: string, title }`. */
  closesIssues(project: ProjectRef, mergeRequestIid: number, options?: PageOptions): Promise<Page<ClosesIssue>>;
  subscribe(project: ProjectRef, mergeRequestIid: number): Promise<Changed<MergeRequest>>;
  unsubscribe(project: ProjectRef, mergeRequestIid: number): Promise<Changed<MergeRequest>>;
  createTodo(project: ProjectRef, mergeRequestIid: number): Promise<Changed<Todo>>;
  setTimeEstimate(project: ProjectRef, mergeRequestIid: number, duration: string): Promise<TimeStats>;
  resetTimeEstimate(project: ProjectRef, mergeRequestIid: number): Promise<TimeStats>;
  addSpentTime(project: ProjectRef, mergeRequestIid: number, duration: string): Promise<TimeStats>;
  resetSpentTime(project: ProjectRef, mergeRequestIid: number): Promise<TimeStats>;
  timeStats(project: ProjectRef, mergeRequestIid: number): Promise<TimeStats>;
}

const isRouteMiss = (error: unknown): error is GitlabError =>
  error instanceof GitlabError && (error.status === 404 || error.status === 405);

export function createMergeRequestsApi(transport: Transport, token: string): MergeRequestsApi {
  const call = createCaller(transport, token);
  const base = (project: ProjectRef) => `projects/${encodeProject(project)}/merge_requests`;
  const mr = (project: ProjectRef, iid: number) => `${base(project)}/${encodeSegment(iid)}`;
  const listQuery = (options: ProjectMergeRequestListOptions = {}) => ({
    ...options,
    labels: joinList(options.labels),
  });
  const itemSchemaFor = (options?: MergeRequestListOptions) =>
    options?.view === 'simple' ? MergeRequestSimpleSchema : MergeRequestSchema;

  function listAll(options: MergeRequestListOptions & { view: 'simple' }): Promise<Page<MergeRequestSimple>>;
  function listAll(options?: MergeRequestListOptions): Promise<Page<MergeRequest>>;
  function listAll(options?: MergeRequestListOptions): Promise<Page<MergeRequest | MergeRequestSimple>> {
    return call.list('merge_requests', itemSchemaFor(options), listQuery(options));
  }

  function listForProject(
    project: ProjectRef,
    options: ProjectMergeRequestListOptions & { view: 'simple' },
  ): Promise<Page<MergeRequestSimple>>;
  function listForProject(project: ProjectRef, options?: ProjectMergeRequestListOptions): Promise<Page<MergeRequest>>;
  function listForProject(
    project: ProjectRef,
    options?: ProjectMergeRequestListOptions,
  ): Promise<Page<MergeRequest | MergeRequestSimple>> {
    return call.list(base(project), itemSchemaFor(options), listQuery(options));
  }

  /**
   * The contract says PUT; 9.5 servers route POST and answer 201 with a status hash. Send PUT, and on
   * 404/405 try POST once. If POST also misses (404/405), the PUT's answer was the server's real one.
   */
  async function cancelMergeWhenPipelineSucceeds(project: ProjectRef, iid: number): Promise<MergeRequest | null> {
    const path = `${mr(project, iid)}/cancel_merge_when_pipeline_succeeds`;
    let method: 'PUT' | 'POST' = 'PUT';
    let response: Awaited<ReturnType<typeof call.raw>>;
    try {
      response = await call.raw('PUT', path);
    } catch (putError) {
      if (!isRouteMiss(putError)) throw putError;
      method = 'POST';
      try {
        response = await call.raw('POST', path);
      } catch (postError) {
        throw isRouteMiss(postError) ? putError : postError;
      }
    }
    const asMergeRequest = MergeRequestSchema.safeParse(response.body);
    if (asMergeRequest.success) return asMergeRequest.data;
    const status = parseAnswer(MergeActionStatusSchema, response, method, path);
    if (status.status === 'success') return null;
    throw errorForStatus({
      status: status.http_status ?? 406,
      method,
      path: toApiPath(path),
      serverMessage: cleanMessage(status.message ?? status.status, [token]),
    });
  }

  return {
    listAll,
    listForProject,
    get: (project, iid) => call.get(mr(project, iid), MergeRequestSchema),
    create: (project, options) =>
      call.send('POST', base(project), MergeRequestSchema, { ...options, labels: joinList(options.labels) }),
    edit: (project, iid, options) =>
      call.send('PUT', mr(project, iid), MergeRequestSchema, { ...options, labels: joinList(options.labels) }),
    remove: (project, iid) => call.sendVoid('DELETE', mr(project, iid)),
    merge: (project, iid, options = {}) =>
      call.send('PUT', `${mr(project, iid)}/merge`, MergeRequestSchema, { ...options }),
    cancelMergeWhenPipelineSucceeds,
    commits: (project, iid, options = {}) => call.list(`${mr(project, iid)}/commits`, CommitSchema, { ...options }),
    changes: (project, iid) => call.get(`${mr(project, iid)}/changes`, MergeRequestChangesSchema),
    versions: (project, iid, options = {}) =>
      call.list(`${mr(project, iid)}/versions`, MergeRequestVersionSchema, { ...options }),
    version: (project, iid, versionId) =>
      call.get(`${mr(project, iid)}/versions/${encodeSegment(versionId)}`, MergeRequestVersionDetailSchema),
    closesIssues: (project, iid, options = {}) =>
      call.list(`${mr(project, iid)}/closes_issues`, ClosesIssueSchema, { ...options }),
    subscribe: (project, iid) => call.sendChanged('POST', `${mr(project, iid)}/subscribe`, MergeRequestSchema),
    unsubscribe: (project, iid) => call.sendChanged('POST', `${mr(project, iid)}/unsubscribe`, MergeRequestSchema),
    createTodo: (project, iid) => call.sendChanged('POST', `${mr(project, iid)}/todo`, TodoSchema),
    setTimeEstimate: (project, iid, duration) =>
      call.send('POST', `${mr(project, iid)}/time_estimate`, TimeStatsSchema, { duration }),
    resetTimeEstimate: (project, iid) => call.send('POST', `${mr(project, iid)}/reset_time_estimate`, TimeStatsSchema),
    addSpentTime: (project, iid, duration) =>
      call.send('POST', `${mr(project, iid)}/add_spent_time`, TimeStatsSchema, { duration }),
    resetSpentTime: (project, iid) => call.send('POST', `${mr(project, iid)}/reset_spent_time`, TimeStatsSchema),
    timeStats: (project, iid) => call.get(`${mr(project, iid)}/time_stats`, TimeStatsSchema),
  };
}
