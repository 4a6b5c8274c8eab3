// POST /__sim/tick: the world moves on by one step. The fake runner advances
// every active pipeline, due schedules start pipelines, the team does one
// more thing in demo/web (a push, or a comment), so event digests always have
// something new to report, and someone asks alice about an issue (a new pending
// todo for her), so todo alerts always have something new to send.

import { createPipeline, runnerStep } from '../ci/engine.js';
import type { State } from '../model.js';
import { projectPath } from '../present.js';
import { createTodo } from '../routes/issuables.js';
import { addNote, recordEvent } from './activity.js';
import { createCommit } from './commits.js';
import { nextRunAfter } from './schedules.js';
import { failThenFix } from './watched-pipelines.js';

function runDueSchedules(state: State, at: Date): void {
  for (const s of state.schedules.values()) {
    if (!s.active || Date.parse(s.run_due_at) > at.getTime()) continue;
    const project = state.projects.get(s.project_id);
    const sha = project?.branches[s.ref];
    if (project && sha) {
      s.last_pipeline_id = createPipeline(state, project, { ref: s.ref, sha, tag: false, user_id: s.owner_id }, at).id;
    }
    const next = nextRunAfter(s.cron, s.cron_timezone, at);
    if (next) s.run_due_at = next.toISOString();
  }
}

const PUSHES = [
  'Tidy up product card spacing',
  'Bump vitest to 1.3.1',
  'Log slow checkout API calls',
  'Translate checkout error messages',
  'Preload the hero image',
];

const COMMENTS = [
  'Still seeing this on staging today.',
  'I can pick this up after the release.',
  'Added a screenshot of the current behaviour.',
  'Could this be related to the CDN change last week?',
  'Moving this to the next milestone unless someone objects.',
];

function addActivity(state: State, at: Date): void {
  const web = [...state.projects.values()].find((p) => projectPath(state, p) === 'demo/web');
  const members = web?.members.map((m) => state.users.get(m.user_id)).filter((u) => u !== undefined) ?? [];
  if (!web || members.length === 0) return;
  const n = state.ticks;
  const author = members[n % members.length];
  if (!author) return;
  if (n % 2 === 1) {
    const branch = web.default_branch;
    const before = web.branches[branch] ?? null;
    const commit = createCommit(state, {
      message: PUSHES[Math.floor(n / 2) % PUSHES.length] as string,
      author,
      parents: before ? [before] : [],
      at,
    });
    web.branches[branch] = commit.id;
    recordEvent(
      state,
      {
        project_id: web.id,
        author_id: author.id,
        action: 'pushed',
        target_type: null,
        target_id: null,
        push_data: {
          commit_count: 1,
          action: 'pushed',
          ref_type: 'branch',
          commit_from: before,
          commit_to: commit.id,
          ref: branch,
          commit_title: commit.title,
        },
      },
      at,
    );
    return;
  }
  const open = [...state.issues.values()].filter(
    (i) => i.project_id === web.id && i.state === 'opened' && !i.deleted && !i.confidential,
  );
  const issue = open[Math.floor(n / 2) % Math.max(1, open.length)];
  if (!issue) return;
  addNote(
    state,
    {
      project_id: web.id,
      noteable_type: 'Issue',
      noteable_id: issue.id,
      author_id: author.id,
      body: COMMENTS[Math.floor(n / 2) % COMMENTS.length] as string,
    },
    at,
  );
}

/** A teammate mentions alice on an open issue of demo/web: a todo, no event (the server records none for it). */
function mentionAlice(state: State, at: Date): void {
  const web = [...state.projects.values()].find((p) => projectPath(state, p) === 'demo/web');
  const alice = [...state.users.values()].find((u) => u.username === 'alice');
  if (!web || !alice) return;
  const author = web.members.map((m) => state.users.get(m.user_id)).find((u) => u !== undefined && u.id !== alice.id);
  const open = [...state.issues.values()].filter(
    (i) => i.project_id === web.id && i.state === 'opened' && !i.deleted && !i.confidential,
  );
  const issue = open[state.ticks % Math.max(1, open.length)];
  if (!author || !issue) return;
  createTodo(state, {
    user_id: alice.id,
    author_id: author.id,
    project_id: web.id,
    action_name: 'mentioned',
    target_type: 'Issue',
    target_id: issue.id,
    at,
  });
}

export function tick(state: State, at: Date): void {
  state.ticks += 1;
  runnerStep(state, at);
  runDueSchedules(state, at);
  addActivity(state, at);
  failThenFix(state, at);
  mentionAlice(state, at);
}
