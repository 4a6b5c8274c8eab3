import type { ModalView, PlainTextOption } from '@slack/types';
import type { UserRef } from '../grammar/index.js';
import { callbackIdFor, ProjectKeySchema, type ViewStateValues } from '../ids.js';
import { IssueFormFields as F, type IssueFormField, IssueModals } from '../modals/issues.js';
import { context, plain } from './blocks.js';
import { LIMITS } from './limits.js';
import { md } from './mrkdwn.js';

// The "new issue" form: built with what the command already said, and read back into checked values, or
// into the words Slack shows under the fields that need fixing (response_action: errors).

const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 3000;
const CONFIDENTIAL = 'confidential';

export interface IssueFormInitial {
  title?: string;
  description?: string;
  labels?: readonly string[];
  /** As typed: usernames or ids. */
  assignees?: string;
  due?: string;
  confidential?: boolean;
}

function confidentialOption(): PlainTextOption {
  return { text: plain('Confidential: only project members can see it', LIMITS.optionText), value: CONFIDENTIAL };
}

export function buildIssueForm(o: {
  /** The project the issue goes to; null asks for one in the form (read with readProjectField). */
  projectLabel: string | null;
  metadata: string;
  initial?: IssueFormInitial;
  /** A modal other than the one of `/gl issue create` (a shortcut's), answered by its own handler. */
  callbackId?: string;
}): ModalView {
  const i = o.initial ?? {};
  const text = (block: IssueFormField, label: string, extra: Record<string, unknown>, optional: boolean) => ({
    type: 'input' as const,
    block_id: F[block],
    optional,
    label: plain(label, LIMITS.inputLabel),
    element: { type: 'plain_text_input' as const, action_id: F[block], ...extra },
  });
  return {
    type: 'modal',
    callback_id: o.callbackId ?? callbackIdFor(IssueModals.create),
    private_metadata: o.metadata,
    title: plain('New issue', LIMITS.modalTitle),
    submit: plain('Create', LIMITS.modalButton),
    close: plain('Cancel', LIMITS.modalButton),
    blocks: [
      o.projectLabel === null
        ? {
            ...text('project', 'Project', { placeholder: plain('group/project', 150), max_length: PROJECT_MAX }, false),
            hint: plain('The path of the project the issue goes to.', 2000),
          }
        : context([md`In ${o.projectLabel}`]),
      text(
        'title',
        'Title',
        {
          max_length: TITLE_MAX,
          placeholder: plain('What is wrong, or what is needed?', 150),
          ...(i.title ? { initial_value: i.title.slice(0, TITLE_MAX) } : {}),
        },
        false,
      ),
      text(
        'description',
        'Description',
        {
          multiline: true,
          max_length: DESCRIPTION_MAX,
          ...(i.description ? { initial_value: i.description.slice(0, DESCRIPTION_MAX) } : {}),
        },
        true,
      ),
      {
        ...text(
          'labels',
          'Labels',
          {
            placeholder: plain('bug, ui', 150),
            ...(i.labels?.length ? { initial_value: i.labels.join(', ') } : {}),
          },
          true,
        ),
        hint: plain('Label names, separated by commas.', 2000),
      },
      {
        ...text(
          'assignees',
          'Assignees',
          { placeholder: plain('alice, bob', 150), ...(i.assignees ? { initial_value: i.assignees } : {}) },
          true,
        ),
        hint: plain('Usernames or user ids on the server, separated by commas.', 2000),
      },
      {
        type: 'input',
        block_id: F.due,
        optional: true,
        label: plain('Due date', LIMITS.inputLabel),
        element: { type: 'datepicker', action_id: F.due, ...(i.due ? { initial_date: i.due } : {}) },
      },
      {
        type: 'input',
        block_id: F.confidential,
        optional: true,
        label: plain('Visibility', LIMITS.inputLabel),
        element: {
          type: 'checkboxes',
          action_id: F.confidential,
          options: [confidentialOption()],
          ...(i.confidential ? { initial_options: [confidentialOption()] } : {}),
        },
      },
    ],
  };
}

const PROJECT_MAX = 255;

/** The project typed into the form's Project field (a form opened without one), or the words under the field. */
export function readProjectField(values: ViewStateValues): { ok: true; path: string } | { ok: false; error: string } {
  const typed = (values[F.project]?.[F.project]?.value ?? '').trim().replace(/^\/+|\/+$/g, '');
  if (!typed) return { ok: false, error: 'Which project? Give its path, like group/project.' };
  const path = ProjectKeySchema.safeParse(typed);
  if (!path.success || typeof path.data !== 'string' || !path.data.includes('/'))
    return { ok: false, error: fieldError(`“${typed}” is not a project path: give it like group/project.`) };
  return { ok: true, path: path.data };
}

/** What the form said, checked. */
export interface IssueForm {
  title: string;
  description?: string;
  labels: string[];
  assignees: UserRef[];
  due?: string;
  confidential: boolean;
}

export type IssueFormResult = { ok: true; form: IssueForm } | { ok: false; errors: Partial<Record<string, string>> };

/** Slack shows a field's error under it; short enough to read at a glance. */
export function fieldError(text: string): string {
  return text.length > 150 ? `${text.slice(0, 149)}…` : text;
}

const USERNAME = /^@?([A-Za-z0-9_][A-Za-z0-9_.-]*)$/;

function readPeople(text: string): { ok: true; people: UserRef[] } | { ok: false; bad: string } {
  const people: UserRef[] = [];
  for (const word of text.split(/[\s,]+/).filter(Boolean)) {
    if (/^\d+$/.test(word)) people.push({ kind: 'id', id: Number(word) });
    else {
      const m = USERNAME.exec(word);
      if (!m?.[1]) return { ok: false, bad: word };
      people.push({ kind: 'username', username: m[1] });
    }
  }
  return { ok: true, people };
}

function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** The form's inputs as values, or an error for each field that needs fixing. Nothing is sent before this. */
export function readIssueForm(values: ViewStateValues): IssueFormResult {
  const input = (f: IssueFormField) => values[F[f]]?.[F[f]];
  const errors: Partial<Record<string, string>> = {};

  const title = (input('title')?.value ?? '').trim();
  if (!title) errors[F.title] = 'Give the issue a title.';
  else if (title.length > TITLE_MAX) errors[F.title] = `A title can be at most ${TITLE_MAX} characters.`;

  const description = input('description')?.value ?? '';
  if (description.length > DESCRIPTION_MAX)
    errors[F.description] = `A description can be at most ${DESCRIPTION_MAX} characters here.`;

  const labels = [
    ...new Set(
      (input('labels')?.value ?? '')
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
    ),
  ];
  const longLabel = labels.find((l) => l.length > TITLE_MAX);
  if (longLabel) errors[F.labels] = fieldError(`A label can be at most ${TITLE_MAX} characters.`);

  const people = readPeople(input('assignees')?.value ?? '');
  if (!people.ok) {
    errors[F.assignees] = fieldError(`“${people.bad}” is not a username or a user id. Separate names with commas.`);
  }

  const due = input('due')?.selected_date ?? undefined;
  if (due && !isDate(due)) errors[F.due] = 'Pick a date from the calendar.';

  const confidential = (input('confidential')?.selected_options ?? []).some((o) => o.value === CONFIDENTIAL);

  if (Object.keys(errors).length > 0 || !people.ok) return { ok: false, errors };
  return {
    ok: true,
    form: {
      title,
      ...(description.trim() ? { description } : {}),
      labels: labels.length === 1 && labels[0]?.toLowerCase() === 'none' ? [] : labels,
      assignees: people.people,
      ...(due ? { due } : {}),
      confidential,
    },
  };
}

/** The words under the Assignees field for a person the server does not know. */
export function unknownAssignee(reason: 'no_user' | 'not_connected' | 'no_username', who: string): string {
  return fieldError(
    reason === 'no_user'
      ? `There is no user @${who} on the server. Check the spelling, or give their numeric id.`
      : 'That person is not connected to this bot: give their username or numeric id.',
  );
}
