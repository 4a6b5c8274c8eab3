import { describe, expect, it } from 'vitest';
import { projectOf } from '../../../src/gitlab/project.js';
import { IssueSchema, MergeRequestSchema } from '../../../src/gitlab/schemas.js';
import { buildIssueCard } from '../../../src/views/issues.js';
import { buildMergeRequestCard } from '../../../src/views/merge-requests.js';
import { example } from '../../integration/gitlab/support/examples.js';

// What people look for on a card, from the real 9.5 answers: the merge request's description, comment counts,
// and when it was merged or closed.

const SERVER = 'https://gitlab.example.com';
const project = projectOf('demo/web');
const c = { serverUrl: SERVER, now: new Date('2026-03-03T12:00:00Z'), timeZone: 'UTC' };
const textOf = (x: unknown) => JSON.stringify(x);

const mr = (o: Record<string, unknown> = {}) =>
  MergeRequestSchema.parse({ ...(example('merge_requests/03-get-single-mr') as object), ...o });

describe('the merge request card', () => {
  it('shows the description, trimmed to one line, and the comment count', () => {
    const card = textOf(
      buildMergeRequestCard(mr({ description: '  fixed login\n\n page  ' }), project, { ...c, pipeline: null }),
    );
    expect(card).toContain('_fixed login page_');
    expect(card).toMatch(/:speech_balloon: \d+ comments?/);
  });

  it('says when it was merged, or closed, when the server sends it', () => {
    const merged = textOf(
      buildMergeRequestCard(mr({ state: 'merged', merged_at: '2026-03-01T12:00:00Z' }), project, {
        ...c,
        pipeline: null,
      }),
    );
    expect(merged).toMatch(/Merged[^"]*2 days ago/);
    const closed = textOf(
      buildMergeRequestCard(mr({ state: 'closed', closed_at: '2026-03-02T12:00:00Z' }), project, {
        ...c,
        pipeline: null,
      }),
    );
    expect(closed).toMatch(/closed [^"]*1 day ago/);
  });
});

describe('the issue card', () => {
  it('shows the comment count', () => {
    const issue = IssueSchema.parse({ ...(example('issues/04-get-single-issue') as object), user_notes_count: 3 });
    expect(textOf(buildIssueCard(issue, project, c))).toContain(':speech_balloon: 3 comments');
  });
});
