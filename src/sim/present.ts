// Records -> the GitLab 9.5 API entities (lib/api/entities.rb of that release),
// field for field. Web URLs are built from the caller's base URL.

import { upcomingRun } from './domain/schedules.js';
import { formatHumanDuration } from './duration.js';
import type {
  AwardRecord,
  CommitRecord,
  DeploymentRecord,
  DiffRecord,
  DiffVersionRecord,
  EventRecord,
  IssueRecord,
  JobRecord,
  KeyRecord,
  MergeRequestRecord,
  MilestoneRecord,
  NoteRecord,
  PipelineRecord,
  ProjectRecord,
  ScheduleRecord,
  State,
  TodoRecord,
  UserRecord,
} from './model.js';
import { closingIssueIids } from './references.js';

export interface View {
  state: State;
  baseUrl: string;
  user: UserRecord;
  /** the simulator's clock at the request */
  now: Date;
  /** events carry their `id`, as servers after 9.5 send them (9.5 sends none) */
  eventIds?: boolean;
}

export function projectPath(state: State, project: ProjectRecord): string {
  const group = state.groups.get(project.group_id);
  return group ? `${group.path}/${project.path}` : project.path;
}

function projectNameWithNamespace(state: State, project: ProjectRecord): string {
  const group = state.groups.get(project.group_id);
  return group ? `${group.name} / ${project.name}` : project.name;
}

export function projectWebUrl(v: View, project: ProjectRecord): string {
  return `${v.baseUrl}/${projectPath(v.state, project)}`;
}

function projectOf(v: View, id: number): ProjectRecord {
  const p = v.state.projects.get(id);
  if (!p) throw new Error(`project ${id} missing`);
  return p;
}

function userOf(v: View, id: number): UserRecord {
  const u = v.state.users.get(id);
  if (!u) throw new Error(`user ${id} missing`);
  return u;
}

// ------------------------------------------------------------------ users

export function presentUserBasic(v: View, u: UserRecord) {
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    state: u.state,
    avatar_url: u.avatar_url,
    web_url: `${v.baseUrl}/${u.username}`,
  };
}

export function presentUserBasicById(v: View, id: number | null) {
  return id === null ? null : presentUserBasic(v, userOf(v, id));
}

/** Entities::User: the basic user plus the profile. */
export function presentUser(v: View, u: UserRecord) {
  return {
    ...presentUserBasic(v, u),
    created_at: u.created_at,
    bio: u.bio,
    location: u.location,
    skype: u.skype,
    linkedin: u.linkedin,
    twitter: u.twitter,
    website_url: u.website_url,
    organization: u.organization,
  };
}

/** Entities::UserPublic: what a user sees of themself, and an admin of key owners. */
export function presentUserPublic(v: View, u: UserRecord) {
  return {
    ...presentUser(v, u),
    last_sign_in_at: u.last_sign_in_at,
    confirmed_at: u.confirmed_at,
    last_activity_on: u.last_activity_on,
    email: u.email,
    color_scheme_id: 1,
    projects_limit: 100,
    current_sign_in_at: u.last_sign_in_at,
    identities: [],
    can_create_group: true,
    can_create_project: true,
    two_factor_enabled: false,
    external: false,
  };
}

// ------------------------------------------------------------------ projects

/** Entities::BasicProjectDetails (todo `project`). */
export function presentProjectBasic(v: View, p: ProjectRecord) {
  const path = projectPath(v.state, p);
  const host = v.baseUrl.replace(/^https?:\/\//, '').replace(/:\d+$/, '');
  return {
    id: p.id,
    description: p.description,
    default_branch: p.default_branch,
    tag_list: [],
    ssh_url_to_repo: `git@${host}:${path}.git`,
    http_url_to_repo: `${v.baseUrl}/${path}.git`,
    web_url: `${v.baseUrl}/${path}`,
    name: p.name,
    name_with_namespace: projectNameWithNamespace(v.state, p),
    path: p.path,
    path_with_namespace: path,
    star_count: 0,
    forks_count: 0,
    created_at: p.created_at,
    last_activity_at: p.last_activity_at,
  };
}

/** Entities::Project (GET /projects/:id). */
export function presentProject(v: View, p: ProjectRecord, accessLevel: number) {
  const group = v.state.groups.get(p.group_id);
  const api = `${v.baseUrl}/api/v4/projects/${p.id}`;
  const openIssues = [...v.state.issues.values()].filter(
    (i) => i.project_id === p.id && i.state === 'opened' && !i.deleted,
  ).length;
  return {
    ...presentProjectBasic(v, p),
    _links: {
      self: api,
      issues: `${api}/issues`,
      merge_requests: `${api}/merge_requests`,
      repo_branches: `${api}/repository/branches`,
      labels: `${api}/labels`,
      events: `${api}/events`,
      members: `${api}/members`,
    },
    archived: false,
    visibility: p.visibility,
    container_registry_enabled: false,
    issues_enabled: true,
    merge_requests_enabled: true,
    wiki_enabled: true,
    jobs_enabled: true,
    snippets_enabled: true,
    shared_runners_enabled: true,
    lfs_enabled: true,
    creator_id: p.creator_id,
    namespace: group
      ? { id: group.id, name: group.name, path: group.path, kind: 'group', full_path: group.path }
      : { id: 0, name: '', path: '', kind: 'user', full_path: '' },
    avatar_url: null,
    open_issues_count: openIssues,
    public_jobs: true,
    shared_with_groups: [],
    only_allow_merge_if_pipeline_succeeds: false,
    request_access_enabled: false,
    only_allow_merge_if_all_discussions_are_resolved: false,
    permissions: {
      project_access: accessLevel > 0 ? { access_level: accessLevel, notification_level: 3 } : null,
      group_access: null,
    },
  };
}

// ------------------------------------------------------------------ CI

/** Entities::RepoCommit. */
export function presentCommit(c: CommitRecord) {
  return {
    id: c.id,
    short_id: c.short_id,
    title: c.title,
    created_at: c.created_at,
    parent_ids: c.parent_ids,
    message: c.message,
    author_name: c.author_name,
    author_email: c.author_email,
    authored_date: c.authored_date,
    committer_name: c.committer_name,
    committer_email: c.committer_email,
    committed_date: c.committed_date,
  };
}

export function presentPipelineBasic(p: PipelineRecord) {
  return { id: p.id, sha: p.sha, ref: p.ref, status: p.status };
}

export function presentPipeline(v: View, p: PipelineRecord) {
  return {
    id: p.id,
    sha: p.sha,
    ref: p.ref,
    status: p.status,
    before_sha: p.before_sha,
    tag: p.tag,
    yaml_errors: p.yaml_errors,
    user: presentUserBasicById(v, p.user_id),
    created_at: p.created_at,
    updated_at: p.updated_at,
    started_at: p.started_at,
    finished_at: p.finished_at,
    committed_at: p.committed_at,
    duration: p.duration,
    coverage: p.coverage,
  };
}

/** Entities::Job: `artifacts_file` only when there are artifacts, `pipeline` always. */
export function presentJob(v: View, j: JobRecord) {
  const commit = v.state.commits.get(j.sha);
  const runner = j.runner_id === null ? undefined : v.state.runners.get(j.runner_id);
  const pipeline = v.state.pipelines.get(j.pipeline_id);
  const user = j.user_id === null ? null : presentUser(v, userOf(v, j.user_id));
  const out: Record<string, unknown> = {
    id: j.id,
    status: j.status,
    stage: j.stage,
    name: j.name,
    ref: j.ref,
    tag: j.tag,
    coverage: j.coverage,
    created_at: j.created_at,
    started_at: j.started_at,
    finished_at: j.finished_at,
    user,
  };
  if (j.artifacts) {
    out.artifacts_file = { filename: j.artifacts.filename, size: j.artifacts.size };
    // 9.5 leaves this out; servers from 10.x send it (null once kept), and the demo shows what it changes.
    out.artifacts_expire_at = j.artifacts.expire_at;
  }
  out.commit = commit ? presentCommit(commit) : null;
  out.runner = runner
    ? {
        id: runner.id,
        description: runner.description,
        active: runner.active,
        is_shared: runner.is_shared,
        name: runner.name,
      }
    : null;
  out.pipeline = pipeline ? presentPipelineBasic(pipeline) : null;
  return out;
}

export function presentSchedule(v: View, s: ScheduleRecord, detailed: boolean) {
  const out: Record<string, unknown> = {
    id: s.id,
    description: s.description,
    ref: s.ref,
    cron: s.cron,
    cron_timezone: s.cron_timezone,
    next_run_at: upcomingRun(s, v.now),
    active: s.active,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
  if (detailed) {
    const last = s.last_pipeline_id === null ? undefined : v.state.pipelines.get(s.last_pipeline_id);
    out.last_pipeline = last ? presentPipelineBasic(last) : null;
  }
  out.owner = presentUserBasicById(v, s.owner_id);
  return out;
}

export function presentDeployment(v: View, d: DeploymentRecord) {
  const env = v.state.environments.get(d.environment_id);
  const job = d.deployable_id === null ? undefined : v.state.jobs.get(d.deployable_id);
  return {
    id: d.id,
    iid: d.iid,
    ref: d.ref,
    sha: d.sha,
    created_at: d.created_at,
    user: presentUserBasicById(v, d.user_id),
    environment: env ? { id: env.id, name: env.name, slug: env.slug, external_url: env.external_url } : null,
    deployable: job ? presentJob(v, job) : null,
  };
}

// ------------------------------------------------------------------ issues & merge requests

export function presentMilestone(m: MilestoneRecord) {
  const out: Record<string, unknown> = { id: m.id, iid: m.iid };
  if (m.project_id !== null) out.project_id = m.project_id;
  if (m.group_id !== null) out.group_id = m.group_id;
  out.title = m.title;
  out.description = m.description;
  out.state = m.state;
  out.created_at = m.created_at;
  out.updated_at = m.updated_at;
  out.due_date = m.due_date;
  out.start_date = m.start_date;
  return out;
}

function milestoneById(v: View, id: number | null) {
  const m = id === null ? undefined : v.state.milestones.get(id);
  return m ? presentMilestone(m) : null;
}

function votes(v: View, type: 'Issue' | 'MergeRequest', id: number) {
  let up = 0;
  let down = 0;
  for (const a of v.state.awards.values()) {
    if (a.awardable_type !== type || a.awardable_id !== id) continue;
    if (a.name === 'thumbsup') up++;
    else if (a.name === 'thumbsdown') down++;
  }
  return { upvotes: up, downvotes: down };
}

export function userNotesCount(state: State, type: 'Issue' | 'MergeRequest' | 'Snippet', id: number): number {
  let n = 0;
  for (const note of state.notes.values())
    if (note.noteable_type === type && note.noteable_id === id && !note.system) n++;
  return n;
}

export function issueWebUrl(v: View, i: IssueRecord): string {
  return `${projectWebUrl(v, projectOf(v, i.project_id))}/issues/${i.iid}`;
}

export function mergeRequestWebUrl(v: View, m: MergeRequestRecord): string {
  return `${projectWebUrl(v, projectOf(v, m.project_id))}/merge_requests/${m.iid}`;
}

export function presentIssueBasic(v: View, i: IssueRecord) {
  const { upvotes, downvotes } = votes(v, 'Issue', i.id);
  const assignees = i.assignee_ids.map((id) => presentUserBasic(v, userOf(v, id)));
  return {
    id: i.id,
    iid: i.iid,
    project_id: i.project_id,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: i.created_at,
    updated_at: i.updated_at,
    labels: [...i.labels].sort(),
    milestone: milestoneById(v, i.milestone_id),
    assignees,
    author: presentUserBasicById(v, i.author_id),
    assignee: assignees[0] ?? null,
    user_notes_count: userNotesCount(v.state, 'Issue', i.id),
    upvotes,
    downvotes,
    due_date: i.due_date,
    confidential: i.confidential,
    web_url: issueWebUrl(v, i),
  };
}

export function presentIssue(v: View, i: IssueRecord) {
  const api = `${v.baseUrl}/api/v4/projects/${i.project_id}`;
  return {
    ...presentIssueBasic(v, i),
    subscribed: i.subscriber_ids.includes(v.user.id),
    _links: {
      self: `${api}/issues/${i.iid}`,
      notes: `${api}/issues/${i.iid}/notes`,
      award_emoji: `${api}/issues/${i.iid}/award_emoji`,
      project: api,
    },
  };
}

export function presentMergeRequestBasic(v: View, m: MergeRequestRecord) {
  const { upvotes, downvotes } = votes(v, 'MergeRequest', m.id);
  return {
    id: m.id,
    iid: m.iid,
    project_id: m.project_id,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    target_branch: m.target_branch,
    source_branch: m.source_branch,
    upvotes,
    downvotes,
    author: presentUserBasicById(v, m.author_id),
    assignee: presentUserBasicById(v, m.assignee_id),
    source_project_id: m.source_project_id,
    target_project_id: m.target_project_id,
    labels: [...m.labels].sort(),
    work_in_progress: isWorkInProgress(m.title),
    milestone: milestoneById(v, m.milestone_id),
    merge_when_pipeline_succeeds: m.merge_when_pipeline_succeeds,
    merge_status: m.merge_status,
    sha: m.sha,
    merge_commit_sha: m.merge_commit_sha,
    user_notes_count: userNotesCount(v.state, 'MergeRequest', m.id),
    should_remove_source_branch: m.should_remove_source_branch,
    force_remove_source_branch: m.force_remove_source_branch,
    web_url: mergeRequestWebUrl(v, m),
  };
}

export function isWorkInProgress(title: string): boolean {
  return /^\s*(\[wip\]|wip:|wip\s)/i.test(title);
}

export function presentMergeRequest(v: View, m: MergeRequestRecord) {
  return { ...presentMergeRequestBasic(v, m), subscribed: m.subscriber_ids.includes(v.user.id) };
}

/** Entities::MergeRequestSimple (`view=simple`). */
export function presentMergeRequestSimple(v: View, m: MergeRequestRecord) {
  return {
    id: m.id,
    iid: m.iid,
    project_id: m.project_id,
    title: m.title,
    description: m.description,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    web_url: mergeRequestWebUrl(v, m),
  };
}

export function presentDiff(d: DiffRecord) {
  return { ...d };
}

export function presentVersion(v: View, version: DiffVersionRecord, full: boolean) {
  const out: Record<string, unknown> = {
    id: version.id,
    head_commit_sha: version.head_commit_sha,
    base_commit_sha: version.base_commit_sha,
    start_commit_sha: version.start_commit_sha,
    created_at: version.created_at,
    merge_request_id: version.merge_request_id,
    state: version.state,
    real_size: String(version.diffs.length),
  };
  if (full) {
    out.commits = version.commit_shas.flatMap((sha) => {
      const c = v.state.commits.get(sha);
      return c ? [presentCommit(c)] : [];
    });
    out.diffs = version.diffs.map(presentDiff);
  }
  return out;
}

export function presentTimeStats(x: { time_estimate: number; total_time_spent: number }) {
  return {
    time_estimate: x.time_estimate,
    total_time_spent: x.total_time_spent,
    human_time_estimate: formatHumanDuration(x.time_estimate),
    human_total_time_spent: formatHumanDuration(x.total_time_spent),
  };
}

/** Issue iids the merge request's description closes (in its target project). */
export function closedIssueIids(v: Pick<View, 'state'>, m: MergeRequestRecord): number[] {
  const project = v.state.projects.get(m.target_project_id);
  return project ? closingIssueIids(m.description, projectPath(v.state, project)) : [];
}

// ------------------------------------------------------------------ award emoji, notes

export function presentAward(v: View, a: AwardRecord) {
  return {
    id: a.id,
    name: a.name,
    user: presentUserBasicById(v, a.user_id),
    created_at: a.created_at,
    updated_at: a.updated_at,
    awardable_id: a.awardable_id,
    awardable_type: a.awardable_type,
  };
}

export function noteableIid(state: State, n: NoteRecord): number | null {
  if (n.noteable_type === 'Issue') return state.issues.get(n.noteable_id)?.iid ?? null;
  if (n.noteable_type === 'MergeRequest') return state.mergeRequests.get(n.noteable_id)?.iid ?? null;
  return null;
}

export function presentNote(v: View, n: NoteRecord) {
  return {
    id: n.id,
    body: n.body,
    attachment: null,
    author: presentUserBasicById(v, n.author_id),
    created_at: n.created_at,
    updated_at: n.updated_at,
    system: n.system,
    noteable_id: n.noteable_id,
    noteable_type: n.noteable_type,
    noteable_iid: noteableIid(v.state, n),
  };
}

// ------------------------------------------------------------------ todos, events, keys

export function presentTodo(v: View, t: TodoRecord) {
  const project = projectOf(v, t.project_id);
  let target: unknown = null;
  let targetUrl = projectWebUrl(v, project);
  if (t.target_type === 'Issue') {
    const issue = v.state.issues.get(t.target_id);
    if (issue) {
      target = presentIssue(v, issue);
      targetUrl = issueWebUrl(v, issue);
    }
  } else {
    const mr = v.state.mergeRequests.get(t.target_id);
    if (mr) {
      target = presentMergeRequest(v, mr);
      targetUrl = mergeRequestWebUrl(v, mr);
    }
  }
  if (t.note_id !== null) targetUrl += `#note_${t.note_id}`;
  const title = (target as { title?: string } | null)?.title ?? '';
  return {
    id: t.id,
    project: presentProjectBasic(v, project),
    author: presentUserBasicById(v, t.author_id),
    action_name: t.action_name,
    target_type: t.target_type,
    target,
    target_url: targetUrl,
    body: t.note_id !== null ? (v.state.notes.get(t.note_id)?.body ?? title) : title,
    state: t.state,
    created_at: t.created_at,
  };
}

/** Event#action_name of 9.5: what a person reads ("pushed to", "accepted", "commented on" …). */
export function eventActionName(e: EventRecord): string {
  switch (e.action) {
    case 'pushed':
      if (e.push_data?.action === 'created') return 'pushed new';
      if (e.push_data?.action === 'removed') return 'deleted';
      return 'pushed to';
    case 'closed':
      return 'closed';
    case 'merged':
      return 'accepted';
    case 'joined':
      return 'joined';
    case 'left':
      return 'left';
    case 'expired':
      return 'removed due to membership expiration from';
    case 'destroyed':
      return 'destroyed';
    case 'commented':
      return 'commented on';
    case 'created':
      return e.target_type === null ? 'created' : 'opened';
    default:
      return 'opened';
  }
}

function eventTarget(state: State, e: EventRecord): { title: string | null; iid: number | null } {
  if (e.target_id === null) return { title: null, iid: null };
  switch (e.target_type) {
    case 'Issue': {
      const i = state.issues.get(e.target_id);
      return { title: i?.title ?? null, iid: i?.iid ?? null };
    }
    case 'MergeRequest': {
      const m = state.mergeRequests.get(e.target_id);
      return { title: m?.title ?? null, iid: m?.iid ?? null };
    }
    case 'Milestone': {
      const m = state.milestones.get(e.target_id);
      return { title: m?.title ?? null, iid: m?.iid ?? null };
    }
    case 'Snippet':
      return { title: state.snippets.get(e.target_id)?.title ?? null, iid: null };
    default:
      return { title: null, iid: null };
  }
}

export function presentEvent(v: View, e: EventRecord) {
  const author = userOf(v, e.author_id);
  const target = eventTarget(v.state, e);
  const out: Record<string, unknown> = {
    ...(v.eventIds ? { id: e.id } : {}),
    title: null,
    project_id: e.project_id,
    action_name: eventActionName(e),
    target_id: e.target_id,
    target_iid: target.iid,
    target_type: e.target_type,
    author_id: e.author_id,
    target_title: target.title,
    created_at: e.created_at,
  };
  if (e.target_type === 'Note' && e.target_id !== null) {
    const note = v.state.notes.get(e.target_id);
    if (note) out.note = presentNote(v, note);
  }
  out.author = presentUserBasic(v, author);
  if (e.push_data) out.push_data = { ...e.push_data };
  out.author_username = author.username;
  return out;
}

export function presentKey(v: View, k: KeyRecord) {
  return {
    id: k.id,
    title: k.title,
    key: k.key,
    created_at: k.created_at,
    can_push: k.can_push,
    user: presentUserPublic(v, userOf(v, k.user_id)),
  };
}
