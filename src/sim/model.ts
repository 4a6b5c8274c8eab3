// The simulator's in-memory data model. Records hold ids, never nested copies,
// so one change (a user renamed, a job finished) shows everywhere at once; the
// presenters in present.ts turn records into GitLab 9.5 entities.

export type JobStatus = 'created' | 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'manual';
export type PipelineStatus = JobStatus;

export interface UserRecord {
  id: number;
  username: string;
  name: string;
  email: string;
  token: string;
  admin: boolean;
  state: 'active' | 'blocked';
  avatar_url: string;
  created_at: string;
  bio: string | null;
  location: string | null;
  organization: string | null;
  skype: string;
  linkedin: string;
  twitter: string;
  website_url: string;
  last_sign_in_at: string | null;
  confirmed_at: string | null;
  last_activity_on: string | null;
}

export interface Member {
  user_id: number;
  access_level: number;
}

/** One job of a project's CI configuration (its .gitlab-ci.yml, in short). */
export interface CiJobTemplate {
  name: string;
  stage: string;
  manual: boolean;
  allow_failure: boolean;
  /** which pipelines get it: every one, the default branch's, or tags' */
  only: 'always' | 'default_branch' | 'tags';
  /** which runs leave artifacts: none, every run, or only runs on the default branch */
  makes_artifacts: false | 'always' | 'default_branch';
  outcome: 'success' | 'failed';
}

/** Whether a run of this template on this ref leaves artifacts behind. */
export function leavesArtifacts(
  template: CiJobTemplate,
  { ref, tag, defaultBranch }: { ref: string; tag: boolean; defaultBranch: string },
): boolean {
  if (template.makes_artifacts === 'always') return true;
  return template.makes_artifacts === 'default_branch' && !tag && ref === defaultBranch;
}

export interface GroupRecord {
  id: number;
  name: string;
  path: string;
  description: string;
  visibility: 'public' | 'internal' | 'private';
  members: Member[];
}

export interface ProjectRecord {
  id: number;
  name: string;
  path: string;
  group_id: number;
  description: string;
  default_branch: string;
  visibility: 'public' | 'internal' | 'private';
  created_at: string;
  last_activity_at: string;
  creator_id: number;
  members: Member[];
  labels: string[];
  stages: string[];
  ci_jobs: CiJobTemplate[];
  /** branch name -> head commit sha */
  branches: Record<string, string>;
  /** tag name -> commit sha */
  tags: Record<string, string>;
  next_issue_iid: number;
  next_mr_iid: number;
  next_deployment_iid: number;
}

export interface CommitRecord {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  created_at: string;
  parent_ids: string[];
}

export interface RunnerRecord {
  id: number;
  description: string;
  active: boolean;
  is_shared: boolean;
  name: string | null;
}

export interface PipelineRecord {
  id: number;
  project_id: number;
  ref: string;
  sha: string;
  before_sha: string;
  tag: boolean;
  yaml_errors: string | null;
  user_id: number;
  status: PipelineStatus;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  committed_at: string | null;
  duration: number | null;
  coverage: string | null;
}

export interface ArtifactsRecord {
  filename: string;
  size: number;
  expire_at: string | null;
}

export interface JobRecord {
  id: number;
  project_id: number;
  pipeline_id: number;
  name: string;
  stage: string;
  stage_idx: number;
  status: JobStatus;
  ref: string;
  tag: boolean;
  sha: string;
  coverage: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  erased_at: string | null;
  user_id: number | null;
  runner_id: number | null;
  /** `when: manual` in the CI config */
  manual: boolean;
  allow_failure: boolean;
  /** what the fake runner makes of it when it runs */
  outcome: 'success' | 'failed';
  /** whether a run leaves artifacts behind */
  makes_artifacts: boolean;
  artifacts: ArtifactsRecord | null;
  artifacts_kept: boolean;
  trace: string | null;
  retried: boolean;
}

export interface ScheduleRecord {
  id: number;
  project_id: number;
  description: string;
  ref: string;
  cron: string;
  cron_timezone: string;
  /** the run the fake runner owes: a tick at or after it starts a pipeline (clients see `next_run_at`, computed per request) */
  run_due_at: string;
  active: boolean;
  created_at: string;
  updated_at: string;
  owner_id: number;
  last_pipeline_id: number | null;
}

export interface EnvironmentRecord {
  id: number;
  project_id: number;
  name: string;
  slug: string;
  external_url: string | null;
}

export interface DeploymentRecord {
  id: number;
  iid: number;
  project_id: number;
  ref: string;
  sha: string;
  created_at: string;
  user_id: number;
  environment_id: number;
  deployable_id: number | null;
}

export interface MilestoneRecord {
  id: number;
  iid: number;
  project_id: number | null;
  group_id: number | null;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  created_at: string;
  updated_at: string;
  due_date: string | null;
  start_date: string | null;
}

export interface UserAgentDetail {
  user_agent: string;
  ip_address: string;
  akismet_submitted: boolean;
}

interface Issuable {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  labels: string[];
  milestone_id: number | null;
  author_id: number;
  /** who gets notified: the author and assignees at creation, then whoever subscribes */
  subscriber_ids: number[];
  time_estimate: number;
  total_time_spent: number;
}

export interface IssueRecord extends Issuable {
  state: 'opened' | 'closed';
  closed_at: string | null;
  assignee_ids: number[];
  confidential: boolean;
  due_date: string | null;
  user_agent: UserAgentDetail | null;
  moved_to_id: number | null;
  deleted: boolean;
}

export interface DiffRecord {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  diff: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
}

export interface DiffVersionRecord {
  id: number;
  merge_request_id: number;
  head_commit_sha: string;
  base_commit_sha: string;
  start_commit_sha: string;
  created_at: string;
  state: 'collected';
  commit_shas: string[];
  diffs: DiffRecord[];
}

export interface MergeRequestRecord extends Issuable {
  state: 'opened' | 'closed' | 'merged' | 'locked';
  source_project_id: number;
  target_project_id: number;
  source_branch: string;
  target_branch: string;
  assignee_id: number | null;
  merge_when_pipeline_succeeds: boolean;
  merge_user_id: number | null;
  merge_status: 'can_be_merged' | 'cannot_be_merged' | 'unchecked';
  sha: string;
  merge_commit_sha: string | null;
  should_remove_source_branch: boolean | null;
  force_remove_source_branch: boolean;
  /** newest first, as GitLab lists them */
  commit_shas: string[];
  diffs: DiffRecord[];
  head_pipeline_id: number | null;
  deleted: boolean;
}

export interface SnippetRecord {
  id: number;
  project_id: number;
  title: string;
  file_name: string;
  description: string | null;
  content: string;
  author_id: number;
  created_at: string;
  updated_at: string;
}

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet';

export interface NoteRecord {
  id: number;
  project_id: number;
  noteable_type: NoteableType;
  noteable_id: number;
  body: string;
  author_id: number;
  created_at: string;
  updated_at: string;
  system: boolean;
}

export type AwardableType = NoteableType | 'Note';

export interface AwardRecord {
  id: number;
  name: string;
  user_id: number;
  created_at: string;
  updated_at: string;
  awardable_id: number;
  awardable_type: AwardableType;
}

export type TodoAction =
  | 'assigned'
  | 'mentioned'
  | 'build_failed'
  | 'marked'
  | 'approval_required'
  | 'unmergeable'
  | 'directly_addressed';

export interface TodoRecord {
  id: number;
  user_id: number;
  project_id: number;
  author_id: number;
  action_name: TodoAction;
  target_type: 'Issue' | 'MergeRequest';
  target_id: number;
  /** the note a mention came from, for target_url */
  note_id: number | null;
  state: 'pending' | 'done';
  created_at: string;
}

export type EventAction =
  | 'created'
  | 'updated'
  | 'closed'
  | 'reopened'
  | 'pushed'
  | 'commented'
  | 'merged'
  | 'joined'
  | 'left'
  | 'destroyed'
  | 'expired';

export interface PushData {
  commit_count: number;
  action: 'pushed' | 'created' | 'removed';
  ref_type: 'branch' | 'tag';
  commit_from: string | null;
  commit_to: string | null;
  ref: string;
  commit_title: string | null;
}

export interface EventRecord {
  id: number;
  project_id: number;
  author_id: number;
  action: EventAction;
  target_type: 'Issue' | 'MergeRequest' | 'Note' | 'Milestone' | 'Snippet' | null;
  target_id: number | null;
  created_at: string;
  push_data: PushData | null;
}

export interface KeyRecord {
  id: number;
  title: string;
  key: string;
  created_at: string;
  user_id: number;
  can_push: boolean;
}

export type Counter =
  | 'users'
  | 'groups'
  | 'projects'
  | 'pipelines'
  | 'jobs'
  | 'schedules'
  | 'environments'
  | 'deployments'
  | 'milestones'
  | 'issues'
  | 'mergeRequests'
  | 'versions'
  | 'snippets'
  | 'notes'
  | 'awards'
  | 'todos'
  | 'events'
  | 'keys'
  | 'commits';

export interface State {
  /** the next id of each table */
  seq: Record<Counter, number>;
  users: Map<number, UserRecord>;
  tokens: Map<string, number>;
  groups: Map<number, GroupRecord>;
  projects: Map<number, ProjectRecord>;
  commits: Map<string, CommitRecord>;
  runners: Map<number, RunnerRecord>;
  pipelines: Map<number, PipelineRecord>;
  jobs: Map<number, JobRecord>;
  schedules: Map<number, ScheduleRecord>;
  environments: Map<number, EnvironmentRecord>;
  deployments: Map<number, DeploymentRecord>;
  milestones: Map<number, MilestoneRecord>;
  issues: Map<number, IssueRecord>;
  mergeRequests: Map<number, MergeRequestRecord>;
  versions: Map<number, DiffVersionRecord>;
  snippets: Map<number, SnippetRecord>;
  notes: Map<number, NoteRecord>;
  awards: Map<number, AwardRecord>;
  todos: Map<number, TodoRecord>;
  events: Map<number, EventRecord>;
  keys: Map<number, KeyRecord>;
  /** how many times the fake runner advanced */
  ticks: number;
}

export function createEmptyState(): State {
  return {
    seq: {
      users: 1,
      groups: 1,
      projects: 1,
      pipelines: 1,
      jobs: 1,
      schedules: 1,
      environments: 1,
      deployments: 1,
      milestones: 1,
      issues: 1,
      mergeRequests: 1,
      versions: 1,
      snippets: 1,
      notes: 1,
      awards: 1,
      todos: 1,
      events: 1,
      keys: 1,
      commits: 1,
    },
    users: new Map(),
    tokens: new Map(),
    groups: new Map(),
    projects: new Map(),
    commits: new Map(),
    runners: new Map(),
    pipelines: new Map(),
    jobs: new Map(),
    schedules: new Map(),
    environments: new Map(),
    deployments: new Map(),
    milestones: new Map(),
    issues: new Map(),
    mergeRequests: new Map(),
    versions: new Map(),
    snippets: new Map(),
    notes: new Map(),
    awards: new Map(),
    todos: new Map(),
    events: new Map(),
    keys: new Map(),
    ticks: 0,
  };
}

export function nextId(state: State, counter: Counter): number {
  const id = state.seq[counter];
  state.seq[counter] = id + 1;
  return id;
}
