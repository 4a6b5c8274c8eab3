import { z } from 'zod';

/*
 * One schema per resource of the Delivery Service contract (GitLab API v4 as of 9.5).
 *
 * Lenient where real servers and their docs vary: unknown fields are accepted and stripped from the
 * result; fields that 9.5 omits instead of sending null (artifacts_file), that older doc examples
 * lack (timestamps, counters, web_url) or that later servers added are optional; user objects
 * accept both the 9.5 shape (avatar_url, web_url) and the older one (email, created_at).
 * Strict where a wrong type means a wrong server: ids are integers, states/statuses are strings,
 * flags are booleans. This module is pure (zod only): views and the simulator may import it.
 */

const id = z.int();
const timestamp = z.string();

// ── users and projects ──────────────────────────────────────────────────────────────────────────

export const UserBasicSchema = z.object({
  id,
  username: z.string(),
  name: z.string(),
  state: z.string(),
  avatar_url: z.string().nullish(),
  web_url: z.string().optional(),
  // The shape older servers (and the MR doc examples) send instead of avatar_url/web_url.
  email: z.string().optional(),
  created_at: timestamp.optional(),
});
export type UserBasic = z.infer<typeof UserBasicSchema>;

/** The full User entity (key owners): UserBasic plus profile fields, all optional. */
export const UserSchema = UserBasicSchema.extend({
  bio: z.string().nullish(),
  location: z.string().nullish(),
  organization: z.string().nullish(),
  skype: z.string().nullish(),
  linkedin: z.string().nullish(),
  twitter: z.string().nullish(),
  website_url: z.string().nullish(),
  is_admin: z.boolean().optional(),
  two_factor_enabled: z.boolean().optional(),
  last_sign_in_at: timestamp.nullish(),
});
export type User = z.infer<typeof UserSchema>;

export const ProjectSchema = z.object({
  id,
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  description: z.string().nullish(),
  default_branch: z.string().nullish(),
  visibility: z.string().optional(),
  web_url: z.string().optional(),
  created_at: timestamp.optional(),
  last_activity_at: timestamp.optional(),
  archived: z.boolean().optional(),
  namespace: z
    .object({ id, name: z.string(), path: z.string(), kind: z.string(), full_path: z.string().optional() })
    .optional(),
});
export type Project = z.infer<typeof ProjectSchema>;

export const MilestoneSchema = z.object({
  id,
  iid: id,
  project_id: id.nullish(),
  group_id: id.nullish(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  due_date: z.string().nullable(),
  start_date: z.string().nullish(),
  web_url: z.string().optional(),
});
export type Milestone = z.infer<typeof MilestoneSchema>;

// ── commits, pipelines, jobs ────────────────────────────────────────────────────────────────────

/** RepoCommit; the doc examples lack parent_ids and the authored/committer fields. */
export const CommitSchema = z.object({
  id: z.string(),
  short_id: z.string(),
  title: z.string(),
  message: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  created_at: timestamp,
  parent_ids: z.array(z.string()).nullish(),
  authored_date: timestamp.optional(),
  committer_name: z.string().optional(),
  committer_email: z.string().optional(),
  committed_date: timestamp.optional(),
});
export type Commit = z.infer<typeof CommitSchema>;

export const PipelineBasicSchema = z.object({
  id,
  sha: z.string(),
  ref: z.string(),
  status: z.string(),
  web_url: z.string().optional(),
});
export type PipelineBasic = z.infer<typeof PipelineBasicSchema>;

export const PipelineSchema = PipelineBasicSchema.extend({
  before_sha: z.string().nullable(),
  tag: z.boolean(),
  yaml_errors: z.string().nullable(),
  user: UserBasicSchema.nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  committed_at: timestamp.nullable(),
  duration: z.number().nullable(),
  coverage: z.string().nullable(),
});
export type Pipeline = z.infer<typeof PipelineSchema>;

export const ArtifactFileSchema = z.object({ filename: z.string(), size: z.int() });
export type ArtifactFile = z.infer<typeof ArtifactFileSchema>;

/**
 * What the bot reads of a job's commit: the card's line and the failure history's "failing since". Every declared
 * field is copied on every parse, and a job list of 20 is the answer the bot decodes most: the rest of the
 * commit, the user's profile and the runner (never shown) are left undeclared, so zod strips them.
 */
const JobCommitSchema = CommitSchema.pick({ id: true, short_id: true, title: true, author_name: true });

export const JobSchema = z.object({
  id,
  status: z.string(),
  stage: z.string(),
  name: z.string(),
  ref: z.string(),
  tag: z.boolean(),
  coverage: z.number().nullable(),
  created_at: timestamp,
  started_at: timestamp.nullable(),
  finished_at: timestamp.nullable(),
  duration: z.number().nullish(),
  user: UserBasicSchema.nullable(),
  commit: JobCommitSchema.nullable(),
  /** Always sent by 9.5; missing from some doc examples (action answers, deployables). */
  pipeline: PipelineBasicSchema.optional(),
  /** 9.5 leaves the key out when there are no artifacts; the docs show null. Both become null. */
  artifacts_file: ArtifactFileSchema.nullable().default(null),
  artifacts_expire_at: timestamp.nullish(),
  web_url: z.string().optional(),
});
export type Job = z.infer<typeof JobSchema>;

export const PipelineScheduleSchema = z.object({
  id,
  description: z.string(),
  ref: z.string(),
  cron: z.string(),
  cron_timezone: z.string(),
  next_run_at: timestamp.nullable(),
  active: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
  /** Null once the owner's account is gone. */
  owner: UserBasicSchema.nullable(),
  /** Only in single-schedule answers (PipelineScheduleDetails); lists leave it out. */
  last_pipeline: PipelineBasicSchema.nullish(),
});
export type PipelineSchedule = z.infer<typeof PipelineScheduleSchema>;

export const EnvironmentSchema = z.object({
  id,
  name: z.string(),
  slug: z.string().optional(),
  external_url: z.string().nullish(),
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const DeploymentSchema = z.object({
  id,
  iid: id,
  ref: z.string(),
  sha: z.string(),
  created_at: timestamp,
  user: UserBasicSchema.nullable(),
  environment: EnvironmentSchema,
  deployable: JobSchema.nullable(),
});
export type Deployment = z.infer<typeof DeploymentSchema>;

// ── issues, merge requests and what hangs off them ──────────────────────────────────────────────

export const TimeStatsSchema = z.object({
  time_estimate: z.int(),
  total_time_spent: z.int(),
  human_time_estimate: z.string().nullable(),
  human_total_time_spent: z.string().nullable(),
});
export type TimeStats = z.infer<typeof TimeStatsSchema>;

const LinksSchema = z.object({
  self: z.string().optional(),
  notes: z.string().optional(),
  award_emoji: z.string().optional(),
  project: z.string().optional(),
});

/**
 * Issue and IssueBasic. Votes and flags some doc examples omit default to what their absence
 * means; `assignees` falls back to the single `assignee` older answers carry; user_notes_count
 * (missing from the move/subscribe examples) is optional.
 */
export const IssueSchema = z
  .object({
    id,
    iid: id,
    project_id: id,
    title: z.string(),
    description: z.string().nullable(),
    state: z.string(),
    created_at: timestamp,
    updated_at: timestamp,
    closed_at: timestamp.nullish(),
    labels: z.array(z.string()),
    milestone: MilestoneSchema.nullable(),
    assignees: z.array(UserBasicSchema).optional(),
    assignee: UserBasicSchema.nullish(),
    author: UserBasicSchema,
    user_notes_count: z.int().optional(),
    upvotes: z.int().default(0),
    downvotes: z.int().default(0),
    due_date: z.string().nullable().default(null),
    confidential: z.boolean().default(false),
    discussion_locked: z.boolean().nullish(),
    web_url: z.string().optional(),
    subscribed: z.boolean().optional(),
    time_stats: TimeStatsSchema.optional(),
    _links: LinksSchema.optional(),
    // Sent by servers newer than 9.5: who closed it, and the issue a moved one became (a global id).
    closed_by: UserBasicSchema.nullish(),
    moved_to_id: id.nullish(),
  })
  .transform(({ assignees, assignee, ...rest }) => ({
    ...rest,
    assignee: assignee ?? null,
    assignees: assignees ?? (assignee ? [assignee] : []),
  }));
export type Issue = z.infer<typeof IssueSchema>;

/** An issue of an external tracker (closes_issues when one is configured): the id is a string key. */
export const ExternalIssueSchema = z.object({ id: z.string(), title: z.string() });
export type ExternalIssue = z.infer<typeof ExternalIssueSchema>;

export const ClosesIssueSchema = z.union([IssueSchema, ExternalIssueSchema]);
export type ClosesIssue = z.infer<typeof ClosesIssueSchema>;

export const UserAgentDetailSchema = z.object({
  user_agent: z.string(),
  ip_address: z.string(),
  akismet_submitted: z.boolean(),
});
export type UserAgentDetail = z.infer<typeof UserAgentDetailSchema>;

/** List items with `view=simple`. */
export const MergeRequestSimpleSchema = z.object({
  id,
  iid: id,
  project_id: id,
  title: z.string(),
  description: z.string().nullable(),
  state: z.string(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  web_url: z.string().optional(),
});
export type MergeRequestSimple = z.infer<typeof MergeRequestSimpleSchema>;

/**
 * MergeRequest and MergeRequestBasic. The doc examples lack created_at/updated_at, sometimes
 * source_branch, sha, web_url and the *_remove_source_branch flags: those are optional here.
 */
export const MergeRequestSchema = MergeRequestSimpleSchema.extend({
  target_branch: z.string(),
  source_branch: z.string().optional(),
  upvotes: z.int(),
  downvotes: z.int(),
  author: UserBasicSchema,
  assignee: UserBasicSchema.nullable(),
  source_project_id: id,
  target_project_id: id,
  labels: z.array(z.string()),
  work_in_progress: z.boolean(),
  milestone: MilestoneSchema.nullable(),
  merge_when_pipeline_succeeds: z.boolean(),
  merge_status: z.string(),
  /** The head commit; merges are pinned to it. */
  sha: z.string().nullish(),
  merge_commit_sha: z.string().nullish(),
  user_notes_count: z.int().optional(),
  should_remove_source_branch: z.boolean().nullish(),
  force_remove_source_branch: z.boolean().nullish(),
  subscribed: z.boolean().optional(),
  changes_count: z.string().nullish(),
  merged_at: timestamp.nullish(),
  closed_at: timestamp.nullish(),
  /** Later servers name the head pipeline (`head_pipeline` on single reads, `pipeline` before that); 9.5 does not. */
  head_pipeline: PipelineBasicSchema.nullish(),
  pipeline: PipelineBasicSchema.nullish(),
  /** Later servers say who merged, and who set "merge when the pipeline succeeds"; 9.5 does not. */
  merged_by: UserBasicSchema.nullish(),
  merge_user: UserBasicSchema.nullish(),
});
export type MergeRequest = z.infer<typeof MergeRequestSchema>;

export const DiffSchema = z.object({
  old_path: z.string(),
  new_path: z.string(),
  a_mode: z.string().nullable(),
  b_mode: z.string().nullable(),
  diff: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  too_large: z.boolean().nullish(),
});
export type Diff = z.infer<typeof DiffSchema>;

export const MergeRequestChangesSchema = MergeRequestSchema.extend({ changes: z.array(DiffSchema) });
export type MergeRequestChanges = z.infer<typeof MergeRequestChangesSchema>;

/** MergeRequestDiff: one version of a merge request's diff. */
export const MergeRequestVersionSchema = z.object({
  id,
  head_commit_sha: z.string(),
  base_commit_sha: z.string(),
  start_commit_sha: z.string(),
  created_at: timestamp,
  merge_request_id: id,
  state: z.string(),
  real_size: z.string().nullable(),
});
export type MergeRequestVersion = z.infer<typeof MergeRequestVersionSchema>;

/** MergeRequestDiffFull: a version with its commits and diffs. */
export const MergeRequestVersionDetailSchema = MergeRequestVersionSchema.extend({
  commits: z.array(CommitSchema),
  diffs: z.array(DiffSchema),
});
export type MergeRequestVersionDetail = z.infer<typeof MergeRequestVersionDetailSchema>;

/**
 * What 9.5 servers answer to cancel_merge_when_pipeline_succeeds (POST, 201) instead of the merge
 * request the contract promises: `{status: "success"}` or an error hash with `http_status`.
 */
export const MergeActionStatusSchema = z.object({
  status: z.string(),
  message: z.string().optional(),
  http_status: z.int().optional(),
});
export type MergeActionStatus = z.infer<typeof MergeActionStatusSchema>;

// ── award emoji, todos, events, notes, keys ─────────────────────────────────────────────────────

export const AwardEmojiSchema = z.object({
  id,
  name: z.string(),
  user: UserBasicSchema,
  created_at: timestamp,
  updated_at: timestamp,
  awardable_id: id,
  awardable_type: z.string(),
});
export type AwardEmoji = z.infer<typeof AwardEmojiSchema>;

const TodoBaseSchema = z.object({
  id,
  project: ProjectSchema,
  author: UserBasicSchema,
  action_name: z.string(),
  target_url: z.string(),
  body: z.string(),
  state: z.string(),
  created_at: timestamp,
});

/** A todo; `target_type` says which entity `target` is (the three a 9.5 server produces). */
export const TodoSchema = z.discriminatedUnion('target_type', [
  TodoBaseSchema.extend({ target_type: z.literal('Issue'), target: IssueSchema }),
  TodoBaseSchema.extend({ target_type: z.literal('MergeRequest'), target: MergeRequestSchema }),
  TodoBaseSchema.extend({ target_type: z.literal('Commit'), target: CommitSchema }),
]);
export type Todo = z.infer<typeof TodoSchema>;

export const NoteSchema = z.object({
  id,
  body: z.string(),
  attachment: z.string().nullish(),
  author: UserBasicSchema,
  created_at: timestamp,
  updated_at: timestamp.optional(),
  system: z.boolean(),
  noteable_id: id.nullable(),
  noteable_type: z.string(),
  noteable_iid: id.nullish(),
});
export type Note = z.infer<typeof NoteSchema>;

export const PushDataSchema = z.object({
  commit_count: z.int(),
  action: z.string(),
  ref_type: z.string(),
  commit_from: z.string().nullable(),
  commit_to: z.string().nullable(),
  ref: z.string().nullable(),
  commit_title: z.string().nullable(),
});
export type PushData = z.infer<typeof PushDataSchema>;

/** Events carry no id in 9.5; `note`, `author` and `push_data` only where they apply. */
export const EventSchema = z.object({
  id: id.optional(),
  title: z.string().nullable(),
  project_id: id.nullable(),
  action_name: z.string(),
  target_id: id.nullable(),
  target_iid: id.nullish(),
  target_type: z.string().nullable(),
  author_id: id,
  target_title: z.string().nullable(),
  created_at: timestamp.optional(),
  author: UserBasicSchema.optional(),
  author_username: z.string().optional(),
  push_data: PushDataSchema.optional(),
  note: NoteSchema.optional(),
});
export type Event = z.infer<typeof EventSchema>;

export const SshKeySchema = z.object({
  id,
  title: z.string(),
  key: z.string(),
  created_at: timestamp,
  can_push: z.boolean().optional(),
});
export type SshKey = z.infer<typeof SshKeySchema>;

export const KeyWithUserSchema = SshKeySchema.extend({ user: UserSchema });
export type KeyWithUser = z.infer<typeof KeyWithUserSchema>;
