import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AwardEmojiSchema,
  ClosesIssueSchema,
  CommitSchema,
  DeploymentSchema,
  EventSchema,
  IssueSchema,
  JobSchema,
  KeyWithUserSchema,
  MergeRequestChangesSchema,
  MergeRequestSchema,
  MergeRequestVersionDetailSchema,
  MergeRequestVersionSchema,
  PipelineBasicSchema,
  PipelineScheduleSchema,
  PipelineSchema,
  TimeStatsSchema,
  TodoSchema,
  UserAgentDetailSchema,
} from '../../../src/gitlab/schemas.js';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const examplesDir = path.resolve(projectRoot, '..', 'shared', 'conformance', 'gitlab-api-v4', 'examples');

const list = <S extends z.ZodType>(schema: S) => z.array(schema);

/** Every example file of the conformance data → the schema the client parses that answer with. */
const TABLE: ReadonlyArray<readonly [file: string, schema: z.ZodType]> = [
  ['jobs/01-get-list-project-jobs.json', list(JobSchema)],
  ['jobs/02-get-list-pipeline-jobs.json', list(JobSchema)],
  ['jobs/03-get-single-job.json', JobSchema],
  ['jobs/04-post-cancel-job.json', JobSchema],
  ['jobs/05-post-retry-job.json', JobSchema],
  ['jobs/06-post-erase-job.json', JobSchema],
  ['jobs/07-post-keep-artifacts.json', JobSchema],
  ['jobs/08-post-play-job.json', JobSchema],
  ['pipelines/01-get-list-pipelines.json', list(PipelineBasicSchema)],
  ['pipelines/02-get-single-pipeline.json', PipelineSchema],
  ['pipelines/03-post-create-pipeline.json', PipelineSchema],
  ['pipelines/04-post-retry-pipeline.json', PipelineSchema],
  ['pipelines/05-post-cancel-pipeline.json', PipelineSchema],
  ['pipeline_schedules/01-get-list-schedules.json', list(PipelineScheduleSchema)],
  ['pipeline_schedules/02-get-single-schedule.json', PipelineScheduleSchema],
  ['pipeline_schedules/03-post-create-schedule.json', PipelineScheduleSchema],
  ['pipeline_schedules/04-put-edit-schedule.json', PipelineScheduleSchema],
  ['pipeline_schedules/05-post-take-ownership.json', PipelineScheduleSchema],
  ['pipeline_schedules/06-delete-schedule.json', PipelineScheduleSchema],
  ['deployments/01-get-list-deployments.json', list(DeploymentSchema)],
  ['deployments/02-get-single-deployment.json', DeploymentSchema],
  ['issues/01-get-list-issues.json', list(IssueSchema)],
  ['issues/02-get-list-group-issues.json', list(IssueSchema)],
  ['issues/03-get-list-project-issues.json', list(IssueSchema)],
  ['issues/04-get-single-issue.json', IssueSchema],
  ['issues/05-post-create-issue.json', IssueSchema],
  ['issues/06-put-edit-issue.json', IssueSchema],
  ['issues/07-post-move-issue.json', IssueSchema],
  ['issues/08-post-subscribe-issue.json', IssueSchema],
  ['issues/09-post-create-todo-issue.json', TodoSchema],
  ['issues/10-post-time-estimate.json', TimeStatsSchema],
  ['issues/11-post-reset-time-estimate.json', TimeStatsSchema],
  ['issues/12-post-add-spent-time.json', TimeStatsSchema],
  ['issues/13-post-reset-spent-time.json', TimeStatsSchema],
  ['issues/14-get-time-stats.json', TimeStatsSchema],
  ['issues/15-get-closed-by.json', list(MergeRequestSchema)],
  ['issues/16-get-user-agent-detail.json', UserAgentDetailSchema],
  ['merge_requests/01-get-list-merge-requests.json', list(MergeRequestSchema)],
  ['merge_requests/02-get-list-project-merge-requests.json', list(MergeRequestSchema)],
  ['merge_requests/03-get-single-mr.json', MergeRequestSchema],
  ['merge_requests/04-get-mr-commits.json', list(CommitSchema)],
  ['merge_requests/05-get-mr-changes.json', MergeRequestChangesSchema],
  ['merge_requests/06-post-create-mr.json', MergeRequestSchema],
  ['merge_requests/07-put-update-mr.json', MergeRequestSchema],
  ['merge_requests/08-put-accept-mr.json', MergeRequestSchema],
  ['merge_requests/09-put-cancel-merge-when-pipeline-succeeds.json', MergeRequestSchema],
  ['merge_requests/10-get-closes-issues.json', list(ClosesIssueSchema)],
  ['merge_requests/11-get-closes-issues-external-tracker.json', list(ClosesIssueSchema)],
  ['merge_requests/12-post-subscribe-mr.json', MergeRequestSchema],
  ['merge_requests/13-post-unsubscribe-mr.json', MergeRequestSchema],
  ['merge_requests/14-post-create-todo-mr.json', TodoSchema],
  ['merge_requests/15-get-mr-versions.json', list(MergeRequestVersionSchema)],
  ['merge_requests/16-get-mr-version.json', MergeRequestVersionDetailSchema],
  ['merge_requests/17-post-time-estimate.json', TimeStatsSchema],
  ['merge_requests/18-post-reset-time-estimate.json', TimeStatsSchema],
  ['merge_requests/19-post-add-spent-time.json', TimeStatsSchema],
  ['merge_requests/20-post-reset-spent-time.json', TimeStatsSchema],
  ['merge_requests/21-get-time-stats.json', TimeStatsSchema],
  ['award_emoji/01-get-list-award-emoji.json', list(AwardEmojiSchema)],
  ['award_emoji/02-get-single-award-emoji.json', AwardEmojiSchema],
  ['award_emoji/03-post-award-emoji.json', AwardEmojiSchema],
  ['award_emoji/04-get-list-note-award-emoji.json', list(AwardEmojiSchema)],
  ['award_emoji/05-get-single-note-award-emoji.json', AwardEmojiSchema],
  ['award_emoji/06-post-award-emoji-on-note.json', AwardEmojiSchema],
  ['todos/01-get-list-todos.json', list(TodoSchema)],
  ['todos/02-post-mark-todo-done.json', TodoSchema],
  ['events/01-get-list-current-user-events.json', list(EventSchema)],
  ['events/02-get-list-user-events.json', list(EventSchema)],
  ['events/03-get-list-project-events.json', list(EventSchema)],
  ['keys/01-get-key-with-user.json', KeyWithUserSchema],
];

function exampleFiles(): string[] {
  return readdirSync(examplesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) =>
      readdirSync(path.join(examplesDir, dir.name))
        .filter((name) => name.endsWith('.json'))
        .map((name) => `${dir.name}/${name}`),
    )
    .sort();
}

const read = (file: string): unknown => JSON.parse(readFileSync(path.join(examplesDir, file), 'utf8'));

describe('the conformance examples of real GitLab 9.5 answers', () => {
  it('are all mapped to a schema in the table, and the table names no missing file', () => {
    expect(TABLE.map(([file]) => file).sort()).toEqual(exampleFiles());
  });

  it.each(TABLE)('%s parses with its schema', (file, schema) => {
    const result = schema.safeParse(read(file));
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });
});

describe('what the schemas make of the examples', () => {
  it('turns a job without artifacts_file (as 9.5 sends it) into artifacts_file null', () => {
    const job = JobSchema.parse(read('jobs/06-post-erase-job.json'));
    expect(job.artifacts_file).toBeNull();
    expect(JobSchema.parse(read('jobs/03-get-single-job.json')).artifacts_file).toBeNull();
    expect(z.array(JobSchema).parse(read('jobs/01-get-list-project-jobs.json'))[0]?.artifacts_file).toEqual({
      filename: 'artifacts.zip',
      size: 1000,
    });
  });

  it('drops fields outside the contract, such as the legacy download_url', () => {
    const job = JobSchema.parse(read('jobs/06-post-erase-job.json'));
    expect(job).not.toHaveProperty('download_url');
  });

  it('accepts the older user shape with email and created_at', () => {
    const mr = MergeRequestSchema.parse(read('merge_requests/03-get-single-mr.json'));
    expect(mr.author).toMatchObject({ username: 'admin', email: 'admin@example.com' });
    expect(mr.author.web_url).toBeUndefined();
  });

  it('tells internal and external closing issues apart by the type of their id', () => {
    const [external] = z
      .array(ClosesIssueSchema)
      .parse(read('merge_requests/11-get-closes-issues-external-tracker.json'));
    expect(external).toEqual({ id: 'PROJECT-123', title: 'Title of this issue' });
    const [internal] = z.array(ClosesIssueSchema).parse(read('merge_requests/10-get-closes-issues.json'));
    expect(internal).toMatchObject({ id: 76, iid: 6, upvotes: 0, confidential: false });
  });

  it('fills assignees from the single assignee when an answer lacks the list', () => {
    const [issue] = z.array(IssueSchema).parse(read('merge_requests/10-get-closes-issues.json'));
    expect(issue?.assignees.map((user) => user.username)).toEqual(['root']);
  });

  it('types a todo target by its target_type', () => {
    const todo = TodoSchema.parse(read('issues/09-post-create-todo-issue.json'));
    expect(todo.target_type).toBe('Issue');
    if (todo.target_type === 'Issue') expect(todo.target.assignees).toHaveLength(1);
    const mrTodo = TodoSchema.parse(read('merge_requests/14-post-create-todo-mr.json'));
    if (mrTodo.target_type !== 'MergeRequest') throw new Error('expected a merge request todo');
    expect(mrTodo.target.target_branch).toBe('allow_regex_for_project_skip_ref');
  });

  it('reads push events, note events and events without created_at', () => {
    const events = z.array(EventSchema).parse(read('events/02-get-list-user-events.json'));
    expect(events[0]?.created_at).toBeUndefined();
    expect(events[1]?.push_data?.commit_count).toBe(1);
    expect(events[3]?.note?.body).toBe('What an awesome day!');
  });
});

describe('where the schemas are strict', () => {
  it('rejects a job whose id is a string', () => {
    const job = { ...(read('jobs/03-get-single-job.json') as object), id: '8' };
    expect(JobSchema.safeParse(job).success).toBe(false);
  });

  it('rejects a pipeline whose status is not a string', () => {
    const pipeline = { ...(read('pipelines/02-get-single-pipeline.json') as object), status: 1 };
    expect(PipelineSchema.safeParse(pipeline).success).toBe(false);
  });

  it('rejects an issue without an author', () => {
    const { author: _author, ...issue } = read('issues/04-get-single-issue.json') as Record<string, unknown>;
    expect(IssueSchema.safeParse(issue).success).toBe(false);
  });

  it('rejects a todo with a target type no 9.5 server sends', () => {
    const todo = { ...(read('todos/02-post-mark-todo-done.json') as object), target_type: 'Epic' };
    expect(TodoSchema.safeParse(todo).success).toBe(false);
  });

  it('rejects a merge request whose merge_when_pipeline_succeeds is not a boolean', () => {
    const mr = { ...(read('merge_requests/03-get-single-mr.json') as object), merge_when_pipeline_succeeds: 'yes' };
    expect(MergeRequestSchema.safeParse(mr).success).toBe(false);
  });
});
