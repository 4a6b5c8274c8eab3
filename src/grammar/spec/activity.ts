import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';
import { AUTHOR, EVENT_ACTION, EVENT_TARGET_TYPE, EVENT_USER, PAGING, SORT } from './shared.js';

const TODO_ACTIONS = [
  'assigned',
  'mentioned',
  'build_failed',
  'marked',
  'approval_required',
  'unmergeable',
  'directly_addressed',
] as const;

export const ACTIVITY_NOUNS = [
  {
    name: 'todo',
    plural: 'todos',
    group: 'activity',
    summary: 'your todos: list, mark one or all done',
    defaults: { plural: 'todo.list', singular: 'todo.list' },
  },
  {
    name: 'event',
    plural: 'events',
    aliases: ['activity'],
    group: 'activity',
    summary: "activity: yours, a project's or a user's",
    defaults: { plural: 'event.list', singular: 'event.list' },
  },
  {
    name: 'key',
    plural: 'keys',
    aliases: ['ssh-key', 'ssh-keys'],
    group: 'activity',
    summary: 'an SSH key and its owner',
    defaults: { plural: 'key.show', singular: 'key.show' },
  },
] as const satisfies readonly NounSpec[];

export const ACTIVITY_ROWS = rows([
  {
    key: 'todo.list',
    verbAliases: ['ls'],
    flags: [
      { name: 'action', type: 'enum', values: TODO_ACTIONS, summary: 'why it is a todo' },
      AUTHOR,
      { name: 'project', type: 'project', placeholder: '<project>', summary: 'only this project' },
      { name: 'state', type: 'enum', values: ['pending', 'done'], summary: 'pending or done' },
      { name: 'type', type: 'enum', values: ['Issue', 'MergeRequest'], summary: 'issues or merge requests' },
      ...PAGING,
    ],
    access: 'read',
    summary: 'your todos, each with a Done button',
    example: 'todos --state pending --type MergeRequest',
  },
  {
    key: 'todo.done',
    verbAliases: ['mark-done', 'mark-as-done'],
    form: 'singular',
    args: [{ name: 'id', type: 'id', of: 'todo', placeholder: '<todo-id>' }],
    access: 'write',
    summary: 'marks one todo done',
    example: 'todo done 130',
  },
  {
    key: 'todo.done-all',
    verb: 'done',
    verbAliases: ['mark-done', 'mark-as-done'],
    form: 'plural',
    access: 'write',
    summary: 'marks all your todos done',
    example: 'todos done',
  },
  {
    key: 'event.list',
    verbAliases: ['ls'],
    target: 'project',
    flags: [
      EVENT_ACTION,
      EVENT_TARGET_TYPE,
      { name: 'before', type: 'date', placeholder: '<YYYY-MM-DD>', summary: 'only before this day' },
      { name: 'after', type: 'date', placeholder: '<YYYY-MM-DD>', summary: 'only after this day' },
      SORT,
      EVENT_USER,
      ...PAGING,
    ],
    access: 'read',
    summary: "a project's events, a user's (`--user`), or yours (no project and no channel default)",
    example: 'events demo/web --action pushed --after 2026-01-31',
  },
  {
    key: 'key.show',
    verbAliases: ['view', 'get'],
    args: [{ name: 'id', type: 'id', of: 'key', placeholder: '<key-id>' }],
    access: 'read',
    summary: 'an SSH key and its owner (admins)',
    example: 'key 1',
  },
] as const satisfies readonly RowSpec[]);
