import { describe, expect, it } from 'vitest';
import type { ViewStateValues } from '../../../src/ids.js';
import { buildIssueForm, readIssueForm } from '../../../src/views/issue-form.js';
import { findLimitViolations } from '../../../src/views/limits.js';

// The new-issue form: inputs as Slack sends them back, read into checked values or field errors.

type Typed = {
  title?: string;
  description?: string;
  labels?: string;
  assignees?: string;
  due?: string;
  secret?: boolean;
};

function state(t: Typed): ViewStateValues {
  return {
    title: { title: { type: 'plain_text_input', value: t.title ?? null } },
    description: { description: { type: 'plain_text_input', value: t.description ?? null } },
    labels: { labels: { type: 'plain_text_input', value: t.labels ?? null } },
    assignees: { assignees: { type: 'plain_text_input', value: t.assignees ?? null } },
    due: { due: { type: 'datepicker', selected_date: t.due ?? null } },
    confidential: {
      confidential: { type: 'checkboxes', selected_options: t.secret ? [{ value: 'confidential' }] : [] },
    },
  };
}

describe('the new-issue form', () => {
  it('fits Slack’s limits with every field filled in', () => {
    const view = buildIssueForm({
      projectLabel: 'demo/web',
      metadata: '{}',
      initial: {
        description: 'x'.repeat(5000),
        labels: ['bug', 'ui'],
        assignees: 'alice, 7',
        due: '2026-12-01',
        confidential: true,
      },
    });
    expect(findLimitViolations(view)).toEqual([]);
  });

  it('reads every field', () => {
    expect(
      readIssueForm(
        state({
          title: '  Login fails  ',
          description: 'Steps',
          labels: 'bug, ui,,bug ',
          assignees: '@alice, 7 bob',
          due: '2026-12-01',
          secret: true,
        }),
      ),
    ).toEqual({
      ok: true,
      form: {
        title: 'Login fails',
        description: 'Steps',
        labels: ['bug', 'ui'],
        assignees: [
          { kind: 'username', username: 'alice' },
          { kind: 'id', id: 7 },
          { kind: 'username', username: 'bob' },
        ],
        due: '2026-12-01',
        confidential: true,
      },
    });
  });

  it('leaves out what was left empty, and reads labels "none" as no labels', () => {
    expect(readIssueForm(state({ title: 'T', labels: 'none', description: '  ' }))).toEqual({
      ok: true,
      form: { title: 'T', labels: [], assignees: [], confidential: false },
    });
  });

  it('names each field that needs fixing', () => {
    expect(readIssueForm(state({ title: ' ', assignees: 'alice, <b>', due: '2026-02-30' }))).toEqual({
      ok: false,
      errors: {
        title: 'Give the issue a title.',
        assignees: '“<b>” is not a username or a user id. Separate names with commas.',
        due: 'Pick a date from the calendar.',
      },
    });
    expect(readIssueForm(state({ title: 'x'.repeat(256) }))).toEqual({
      ok: false,
      errors: { title: 'A title can be at most 255 characters.' },
    });
  });
});
