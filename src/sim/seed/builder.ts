// Helpers that build a consistent data set: users with tokens, projects with
// branches and commits, pipelines whose status follows from their jobs,
// issues and merge requests with their events. Times are offsets from the
// moment the simulator starts, so the demo always looks recent.

import { createHash } from 'node:crypto';
import { artifactsRecordFor } from '../ci/artifacts.js';
import { compositeStatus, ZERO_SHA } from '../ci/engine.js';
import { finishedTrace, runningTrace } from '../ci/trace.js';
import { addNote, recordEvent } from '../domain/activity.js';
import { createCommit } from '../domain/commits.js';
import type {
  CiJobTemplate,
  DiffRecord,
  IssueRecord,
  JobRecord,
  JobStatus,
  MergeRequestRecord,
  PipelineRecord,
  ProjectRecord,
  State,
  UserRecord,
} from '../model.js';
import { createEmptyState, leavesArtifacts, nextId } from '../model.js';
import { projectPath } from '../present.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export interface SeedUser {
  username: string;
  name: string;
  token: string;
  admin?: boolean;
  bio?: string;
  location?: string;
  organization?: string;
}

export class SeedBuilder {
  readonly state: State = createEmptyState();
  constructor(readonly now: Date) {}

  /** A moment `hours` before the start. */
  ago(hours: number): Date {
    return new Date(this.now.getTime() - Math.round(hours * HOUR));
  }

  iso(hours: number): string {
    return this.ago(hours).toISOString();
  }

  /** A calendar date `days` from the start (negative: in the past). */
  date(days: number): string {
    return new Date(this.now.getTime() + days * DAY).toISOString().slice(0, 10);
  }

  user(u: SeedUser, createdHoursAgo: number): UserRecord {
    const email = `${u.username}@demo.example`;
    const hash = createHash('md5').update(email).digest('hex');
    const record: UserRecord = {
      id: nextId(this.state, 'users'),
      username: u.username,
      name: u.name,
      email,
      token: u.token,
      admin: u.admin ?? false,
      state: 'active',
      avatar_url: `https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`,
      created_at: this.iso(createdHoursAgo),
      bio: u.bio ?? null,
      location: u.location ?? null,
      organization: u.organization ?? null,
      skype: '',
      linkedin: '',
      twitter: '',
      website_url: '',
      last_sign_in_at: this.iso(2),
      confirmed_at: this.iso(createdHoursAgo),
      last_activity_on: this.date(0),
    };
    this.state.users.set(record.id, record);
    this.state.tokens.set(u.token, record.id);
    return record;
  }

  runner(description: string): void {
    const id = this.state.runners.size + 1;
    this.state.runners.set(id, { id, description, active: true, is_shared: true, name: 'gitlab-runner' });
  }

  commit(
    project: ProjectRecord,
    { branch, message, author, hoursAgo }: { branch: string; message: string; author: UserRecord; hoursAgo: number },
  ): string {
    const head = project.branches[branch];
    const c = createCommit(this.state, { message, author, parents: head ? [head] : [], at: this.ago(hoursAgo) });
    project.branches[branch] = c.id;
    return c.id;
  }

  /** A branch off another branch's current head, with its own commits. */
  branch(
    project: ProjectRecord,
    { name, from, commits }: { name: string; from: string; commits: [string, UserRecord, number][] },
  ): { base: string; shas: string[] } {
    const base = project.branches[from] as string;
    project.branches[name] = base;
    const shas = commits.map(([message, author, hoursAgo]) =>
      this.commit(project, { branch: name, message, author, hoursAgo }),
    );
    return { base, shas };
  }

  pipeline(
    project: ProjectRecord,
    spec: {
      ref: string;
      sha: string;
      user: UserRecord;
      hoursAgo: number;
      tag?: boolean;
      yamlErrors?: string;
      jobs: { name: string; status: JobStatus; allowFailure?: boolean; manual?: boolean }[];
    },
  ): PipelineRecord {
    const createdAt = this.ago(spec.hoursAgo);
    const pipeline: PipelineRecord = {
      id: nextId(this.state, 'pipelines'),
      project_id: project.id,
      ref: spec.ref,
      sha: spec.sha,
      before_sha: this.state.commits.get(spec.sha)?.parent_ids[0] ?? ZERO_SHA,
      tag: spec.tag ?? false,
      yaml_errors: spec.yamlErrors ?? null,
      user_id: spec.user.id,
      status: 'created',
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
      started_at: null,
      finished_at: null,
      committed_at: this.state.commits.get(spec.sha)?.committed_date ?? null,
      duration: null,
      coverage: null,
    };
    this.state.pipelines.set(pipeline.id, pipeline);
    const jobs: JobRecord[] = [];
    // each job takes a few minutes, stage after stage
    let clock = createdAt.getTime() + 20_000;
    let lastStage = -1;
    for (const js of spec.jobs) {
      const template = project.ci_jobs.find((t) => t.name === js.name) as CiJobTemplate;
      const stageIdx = project.stages.indexOf(template.stage);
      if (stageIdx !== lastStage) {
        clock += 4 * 60_000;
        lastStage = stageIdx;
      }
      const started = ['running', 'success', 'failed', 'canceled'].includes(js.status);
      const finished = ['success', 'failed', 'canceled'].includes(js.status);
      const job: JobRecord = {
        id: nextId(this.state, 'jobs'),
        project_id: project.id,
        pipeline_id: pipeline.id,
        name: js.name,
        stage: template.stage,
        stage_idx: stageIdx,
        status: js.status,
        ref: spec.ref,
        tag: pipeline.tag,
        sha: spec.sha,
        coverage: js.status === 'success' && js.name.includes('test') ? 84.21 : null,
        created_at: pipeline.created_at,
        started_at: started ? new Date(clock - 3 * 60_000).toISOString() : null,
        finished_at: finished ? new Date(clock - 12_000).toISOString() : null,
        erased_at: null,
        user_id: spec.user.id,
        runner_id: started ? 1 : null,
        manual: js.manual ?? template.manual,
        allow_failure: js.allowFailure ?? template.allow_failure,
        outcome: template.outcome,
        makes_artifacts: leavesArtifacts(template, {
          ref: spec.ref,
          tag: pipeline.tag,
          defaultBranch: project.default_branch,
        }),
        artifacts: null,
        artifacts_kept: false,
        trace: null,
        retried: false,
      };
      this.state.jobs.set(job.id, job);
      jobs.push(job);
    }
    for (const job of jobs) {
      const input = {
        job,
        projectPath: projectPath(this.state, project),
        projectId: project.id,
        commit: this.state.commits.get(job.sha),
        runner: this.state.runners.get(1),
      };
      if (job.status === 'running') job.trace = runningTrace(input);
      else if (job.started_at) job.trace = finishedTrace(input);
      if (job.status === 'success' && job.makes_artifacts) {
        // Artifacts expire a week after the run, as the demo CI configures them; Keep artifacts stops that.
        const expire = new Date(Date.parse(job.finished_at as string) + 7 * DAY);
        job.artifacts = artifactsRecordFor(job, this.state.commits.get(job.sha), expire.toISOString());
        job.artifacts_kept = false;
      }
    }
    pipeline.status = spec.yamlErrors ? 'failed' : compositeStatus(jobs);
    const starts = jobs.map((j) => j.started_at).filter((t): t is string => t !== null);
    const ends = jobs.map((j) => j.finished_at).filter((t): t is string => t !== null);
    pipeline.started_at = starts.sort()[0] ?? null;
    const done = ['success', 'failed', 'canceled', 'skipped', 'manual'].includes(pipeline.status);
    pipeline.finished_at = done ? (ends.sort().at(-1) ?? pipeline.created_at) : null;
    pipeline.updated_at = pipeline.finished_at ?? starts.at(-1) ?? pipeline.created_at;
    if (done && pipeline.started_at && pipeline.finished_at) {
      pipeline.duration = Math.round((Date.parse(pipeline.finished_at) - Date.parse(pipeline.started_at)) / 1000);
    }
    const cov = jobs.map((j) => j.coverage).filter((c): c is number => c !== null);
    pipeline.coverage = cov.length ? (cov.reduce((a, b) => a + b, 0) / cov.length).toFixed(2) : null;
    return pipeline;
  }

  issue(
    project: ProjectRecord,
    spec: {
      title: string;
      description: string;
      author: UserRecord;
      hoursAgo: number;
      labels?: string[];
      milestoneId?: number;
      assignees?: UserRecord[];
      closedHoursAgo?: number;
      closedBy?: UserRecord;
      confidential?: boolean;
      dueInDays?: number;
      estimate?: number;
      spent?: number;
      userAgent?: boolean;
    },
  ): IssueRecord {
    const created = this.iso(spec.hoursAgo);
    const assignees = spec.assignees ?? [];
    const issue: IssueRecord = {
      id: nextId(this.state, 'issues'),
      iid: project.next_issue_iid++,
      project_id: project.id,
      title: spec.title,
      description: spec.description,
      state: spec.closedHoursAgo === undefined ? 'opened' : 'closed',
      created_at: created,
      updated_at: spec.closedHoursAgo === undefined ? created : this.iso(spec.closedHoursAgo),
      closed_at: spec.closedHoursAgo === undefined ? null : this.iso(spec.closedHoursAgo),
      labels: spec.labels ?? [],
      milestone_id: spec.milestoneId ?? null,
      author_id: spec.author.id,
      assignee_ids: assignees.map((a) => a.id),
      subscriber_ids: [...new Set([spec.author.id, ...assignees.map((a) => a.id)])],
      confidential: spec.confidential ?? false,
      due_date: spec.dueInDays === undefined ? null : this.date(spec.dueInDays),
      time_estimate: spec.estimate ?? 0,
      total_time_spent: spec.spent ?? 0,
      user_agent:
        spec.userAgent === false
          ? null
          : {
              user_agent:
                'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0 Safari/537.36',
              ip_address: '203.0.113.24',
              akismet_submitted: false,
            },
      moved_to_id: null,
      deleted: false,
    };
    this.state.issues.set(issue.id, issue);
    recordEvent(
      this.state,
      {
        project_id: project.id,
        author_id: spec.author.id,
        action: 'created',
        target_type: 'Issue',
        target_id: issue.id,
      },
      this.ago(spec.hoursAgo),
    );
    if (spec.closedHoursAgo !== undefined) {
      recordEvent(
        this.state,
        {
          project_id: project.id,
          author_id: (spec.closedBy ?? spec.author).id,
          action: 'closed',
          target_type: 'Issue',
          target_id: issue.id,
        },
        this.ago(spec.closedHoursAgo),
      );
    }
    return issue;
  }

  mergeRequest(
    project: ProjectRecord,
    spec: {
      title: string;
      description: string;
      author: UserRecord;
      assignee?: UserRecord;
      hoursAgo: number;
      source: string;
      /** new commits on a new branch, or a branch made before */
      commits: [string, UserRecord, number][] | { base: string; shas: string[] };
      diffs: DiffRecord[];
      labels?: string[];
      milestoneId?: number;
      mergeStatus?: MergeRequestRecord['merge_status'];
      removeSourceBranch?: boolean;
    },
  ): MergeRequestRecord {
    const { base, shas } = Array.isArray(spec.commits)
      ? this.branch(project, { name: spec.source, from: project.default_branch, commits: spec.commits })
      : spec.commits;
    const created = this.iso(spec.hoursAgo);
    const head = shas.at(-1) as string;
    const mr: MergeRequestRecord = {
      id: nextId(this.state, 'mergeRequests'),
      iid: project.next_mr_iid++,
      project_id: project.id,
      title: spec.title,
      description: spec.description,
      state: 'opened',
      created_at: created,
      updated_at: created,
      labels: spec.labels ?? [],
      milestone_id: spec.milestoneId ?? null,
      author_id: spec.author.id,
      subscriber_ids: [...new Set([spec.author.id, ...(spec.assignee ? [spec.assignee.id] : [])])],
      time_estimate: 0,
      total_time_spent: 0,
      source_project_id: project.id,
      target_project_id: project.id,
      source_branch: spec.source,
      target_branch: project.default_branch,
      assignee_id: spec.assignee?.id ?? null,
      merge_when_pipeline_succeeds: false,
      merge_user_id: null,
      merge_status: spec.mergeStatus ?? 'can_be_merged',
      sha: head,
      merge_commit_sha: null,
      // 9.5 sets this only when a merge asks for it; the creation's choice is force_remove_source_branch.
      should_remove_source_branch: null,
      force_remove_source_branch: spec.removeSourceBranch ?? false,
      commit_shas: [...shas].reverse(),
      diffs: spec.diffs,
      head_pipeline_id: null,
      deleted: false,
    };
    this.state.mergeRequests.set(mr.id, mr);
    // one diff version per push: the first commit alone, then the whole branch
    const pushes = shas.length > 1 ? [shas.slice(0, 1), shas] : [shas];
    pushes.forEach((pushed, n) => {
      const id = nextId(this.state, 'versions');
      const at = this.state.commits.get(pushed.at(-1) as string)?.created_at ?? created;
      this.state.versions.set(id, {
        id,
        merge_request_id: mr.id,
        head_commit_sha: pushed.at(-1) as string,
        base_commit_sha: base,
        start_commit_sha: base,
        created_at: at,
        state: 'collected',
        commit_shas: [...pushed].reverse(),
        diffs: n === pushes.length - 1 ? spec.diffs : spec.diffs.slice(0, 1),
      });
    });
    recordEvent(
      this.state,
      {
        project_id: project.id,
        author_id: spec.author.id,
        action: 'created',
        target_type: 'MergeRequest',
        target_id: mr.id,
      },
      this.ago(spec.hoursAgo),
    );
    return mr;
  }

  note(
    project: ProjectRecord,
    {
      target,
      author,
      body,
      hoursAgo,
    }: {
      target: { type: 'Issue' | 'MergeRequest' | 'Snippet'; id: number };
      author: UserRecord;
      body: string;
      hoursAgo: number;
    },
  ): number {
    return addNote(
      this.state,
      { project_id: project.id, noteable_type: target.type, noteable_id: target.id, author_id: author.id, body },
      this.ago(hoursAgo),
    ).id;
  }

  award({
    type,
    id,
    user,
    name,
    hoursAgo,
  }: {
    type: 'Issue' | 'MergeRequest' | 'Snippet' | 'Note';
    id: number;
    user: UserRecord;
    name: string;
    hoursAgo: number;
  }) {
    const awardId = nextId(this.state, 'awards');
    this.state.awards.set(awardId, {
      id: awardId,
      name,
      user_id: user.id,
      created_at: this.iso(hoursAgo),
      updated_at: this.iso(hoursAgo),
      awardable_id: id,
      awardable_type: type,
    });
    return awardId;
  }
}

export function diff(
  path: string,
  { before, after, newFile = false }: { before: string[]; after: string[]; newFile?: boolean },
): DiffRecord {
  const header = newFile ? `--- /dev/null\n+++ b/${path}\n` : `--- a/${path}\n+++ b/${path}\n`;
  const hunk = `@@ -${newFile ? 0 : 1},${before.length} +1,${after.length} @@\n`;
  const body = [...before.map((l) => `-${l}`), ...after.map((l) => `+${l}`)].join('\n');
  return {
    old_path: path,
    new_path: path,
    a_mode: newFile ? '0' : '100644',
    b_mode: '100644',
    diff: `${header}${hunk}${body}\n`,
    new_file: newFile,
    renamed_file: false,
    deleted_file: false,
  };
}
