import type { z } from 'zod';
import { type Project, projectOf } from '../../../src/gitlab/project.js';
import {
  AwardEmojiSchema,
  DeploymentSchema,
  EventSchema,
  IssueSchema,
  JobSchema,
  KeyWithUserSchema,
  MergeRequestSchema,
  PipelineBasicSchema,
  PipelineScheduleSchema,
  PipelineSchema,
  TodoSchema,
} from '../../../src/gitlab/schemas.js';
import { awardRow, buildAwardCard } from '../../../src/views/awards.js';
import type { Block, SlackMessage } from '../../../src/views/blocks.js';
import type { CardContext } from '../../../src/views/common.js';
import { buildDeploymentCard } from '../../../src/views/deployments.js';
import { eventRow } from '../../../src/views/events.js';
import { formatAbsolute } from '../../../src/views/format.js';
import { buildIssueCard, issueRow } from '../../../src/views/issues.js';
import { buildJobCard, jobRow } from '../../../src/views/jobs.js';
import { buildKeyCard } from '../../../src/views/keys.js';
import { buildMergeRequestCard, mergeRequestRow } from '../../../src/views/merge-requests.js';
import { buildPipelineCard, pipelineRow } from '../../../src/views/pipelines.js';
import { buildScheduleCard, scheduleRow } from '../../../src/views/schedules.js';
import { todoRow } from '../../../src/views/todos.js';

// What a person looks for on each kind of card and row, as a table: a renderer, and the fields of the item that
// must appear in what it draws. The gallery test runs it over the simulator's demo data and the real 9.5 answers.

export const GALLERY_CONTEXT: CardContext = {
  serverUrl: 'https://gitlab.example.com',
  now: new Date('2026-03-02T10:00:00Z'),
  timeZone: 'Europe/Berlin',
};
const c = GALLERY_CONTEXT;

/** Everything a person can read in a message or block: its texts, one after the other, as Slack gets them. */
export function readable(x: SlackMessage | Block | Block[]): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) {
        if (k === 'text' && typeof child === 'string') out.push(child);
        else walk(child);
      }
    }
  };
  walk(x);
  return out.join('\n');
}

/** A value as a mrkdwn text carries it (Slack needs &, < and > escaped). */
const inText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The house style's absolute half, in the gallery's zone. */
const at = (iso: string | null | undefined) => (iso ? formatAbsolute(new Date(iso), c.timeZone) : null);
/** The start of a description as a card shows it (on one line). */
const opening = (text: string | null | undefined) => {
  const t = text?.trim().replace(/\s*\n\s*/g, ' ');
  return t ? inText(t.slice(0, 24)) : null;
};
const comments = (n: number | undefined) => (typeof n === 'number' ? `${n} comment` : null);
const present = (xs: (string | null | undefined | false)[]) => xs.filter((x): x is string => !!x);
const project: Project = projectOf(1, 'demo/web');

export interface Kind<S extends z.ZodType> {
  schema: S;
  /** Each thing drawn for the item (a card, a row), with the fields a person expects in it. */
  views(item: z.infer<S>): { view: string; text: string; fields: string[]; patterns?: RegExp[] }[];
}

const kind = <S extends z.ZodType>(k: Kind<S>) => k;

/** A job's duration, when the server sends one or its start and finish. */
const duration = (j: { duration?: number | null; started_at?: string | null; finished_at?: string | null }) =>
  typeof j.duration === 'number' || (j.started_at && j.finished_at) ? [/\d+s\b|<1s/] : [];

export const KINDS = {
  issue: kind({
    schema: IssueSchema,
    views: (i) => [
      {
        view: 'card',
        text: readable(buildIssueCard(i, project, c)),
        fields: present([
          inText(i.title.slice(0, 40)),
          i.state === 'opened' ? 'open' : i.state,
          `@${i.author.username}`,
          ...i.assignees.map((a) => `@${a.username}`),
          ...i.labels.map(inText),
          i.milestone && inText(i.milestone.title),
          at(i.created_at),
          at(i.updated_at),
          comments(i.user_notes_count),
          opening(i.description),
        ]),
      },
      {
        view: 'row',
        text: readable(issueRow(i, project, { slot: 0, serverUrl: c.serverUrl, withProject: false })),
        fields: present([`#${i.iid}`, inText(i.title.slice(0, 40)), i.state === 'opened' ? 'open' : i.state]),
      },
    ],
  }),
  merge_request: kind({
    schema: MergeRequestSchema,
    views: (m) => [
      {
        view: 'card',
        text: readable(buildMergeRequestCard(m, project, { ...c, pipeline: null })),
        fields: present([
          inText(m.title.slice(0, 40)),
          m.state === 'opened' ? 'open' : m.state,
          `@${m.author.username}`,
          m.assignee && `@${m.assignee.username}`,
          m.source_branch && inText(m.source_branch),
          inText(m.target_branch),
          ...m.labels.map(inText),
          m.milestone && inText(m.milestone.title),
          at(m.created_at),
          m.state === 'merged' && at(m.merged_at),
          m.state === 'closed' && at(m.closed_at),
          comments(m.user_notes_count),
          opening(m.description),
        ]),
      },
      {
        view: 'row',
        text: readable(mergeRequestRow(m, project, { serverUrl: c.serverUrl, across: false, slot: 0 })),
        fields: present([`!${m.iid}`, inText(m.title.slice(0, 40)), `@${m.author.username}`]),
      },
    ],
  }),
  job: kind({
    schema: JobSchema,
    views: (j) => {
      const fields = present([inText(j.name), inText(j.stage), j.status, inText(j.ref)]);
      return [
        {
          view: 'card',
          text: readable(buildJobCard(j, project, c)),
          fields: present([...fields, j.pipeline && `#${j.pipeline.id}`, at(j.created_at)]),
        },
        { view: 'row', text: readable(jobRow(j, { project, place: null, slot: 0, serverUrl: c.serverUrl })), fields },
      ].map((v) => ({ ...v, patterns: duration(j) }));
    },
  }),
  pipeline: kind({
    schema: PipelineSchema,
    views: (p) => [
      {
        view: 'card',
        text: readable(buildPipelineCard(p, null, project, c)),
        fields: present([`#${p.id}`, inText(p.ref), p.status, p.sha.slice(0, 8), at(p.created_at)]),
      },
      {
        view: 'row',
        text: readable(pipelineRow(p, { project, place: null, slot: 0, serverUrl: c.serverUrl })),
        fields: present([`#${p.id}`, inText(p.ref), p.status]),
      },
    ],
  }),
  /** A pipeline as lists carry it (9.5 sends only id, sha, ref and status there). */
  pipeline_row: kind({
    schema: PipelineBasicSchema,
    views: (p) => [
      {
        view: 'row',
        text: readable(pipelineRow(p, { project, place: null, slot: 0, serverUrl: c.serverUrl })),
        fields: present([`#${p.id}`, inText(p.ref), p.status, p.sha.slice(0, 8)]),
      },
    ],
  }),
  schedule: kind({
    schema: PipelineScheduleSchema,
    views: (s) => {
      const next = s.active ? at(s.next_run_at) : null;
      return [
        {
          view: 'card',
          text: readable(buildScheduleCard(s, project, c)),
          fields: present([inText(s.description), inText(s.ref), s.cron, next, s.owner && `@${s.owner.username}`]),
        },
        {
          view: 'row',
          text: readable(scheduleRow(s, project, 0, c)),
          fields: present([inText(s.description), next]),
        },
      ];
    },
  }),
  deployment: kind({
    schema: DeploymentSchema,
    views: (d) => [
      {
        view: 'card',
        text: readable(buildDeploymentCard(d, project, c)),
        fields: present([
          inText(d.environment.name),
          inText(d.ref),
          d.sha.slice(0, 8),
          d.user && `@${d.user.username}`,
          d.deployable && inText(d.deployable.name),
          at(d.created_at),
        ]),
      },
    ],
  }),
  todo: kind({
    schema: TodoSchema,
    views: (t) => [
      {
        view: 'row',
        text: readable(todoRow(t, { serverUrl: c.serverUrl, now: c.now, timeZone: c.timeZone })),
        fields: present([
          t.target_type === 'Commit' ? null : `${t.target_type === 'Issue' ? '#' : '!'}${t.target.iid}`,
          inText(t.target.title.slice(0, 40)),
          `@${t.author.username}`,
          at(t.created_at),
        ]),
      },
    ],
  }),
  event: kind({
    schema: EventSchema,
    views: (e) => [
      {
        view: 'row',
        text: readable(
          eventRow(e, { ...c, projects: new Map(e.project_id == null ? [] : [[e.project_id, 'demo/web']]), here: 0 }),
        ),
        fields: present([
          (e.author?.username ?? e.author_username) ? `@${e.author?.username ?? e.author_username}` : null,
          at(e.created_at),
          e.project_id != null ? 'demo/web' : null,
          e.note ? opening(e.note.body)?.slice(0, 12) : null,
          e.push_data && e.push_data.commit_count > 1 ? `${e.push_data.commit_count}` : null,
        ]),
      },
    ],
  }),
  key: kind({
    schema: KeyWithUserSchema,
    views: (k) => [
      {
        view: 'card',
        text: readable(buildKeyCard(k, c)),
        fields: present([inText(k.title), `@${k.user.username}`, at(k.created_at)]),
      },
    ],
  }),
  award: kind({
    schema: AwardEmojiSchema,
    views: (a) => {
      const fields = present([`@${a.user.username}`, at(a.created_at), `award ${a.id}`.replace('award', '')]);
      const target = { kind: 'issue' as const, project, iid: a.awardable_id };
      return [
        { view: 'row', text: readable(awardRow(a, c)), fields },
        { view: 'card', text: readable(buildAwardCard(a, target, c)), fields },
      ];
    },
  }),
};

export type KindName = keyof typeof KINDS;
