/** Flags and arguments that rows of more than one group share. */

export const PAGING = [
  { name: 'page', type: 'int', min: 1, placeholder: '<n>', summary: 'page number, from 1' },
  { name: 'perPage', type: 'int', min: 1, max: 100, placeholder: '<n>', summary: 'items per page (at most 100)' },
] as const;

export const SORT = { name: 'sort', type: 'enum', values: ['asc', 'desc'], summary: 'oldest or newest first' } as const;

export const TZ = {
  name: 'tz',
  type: 'timezone',
  aliases: ['timezone', 'cronTimezone'],
  placeholder: '<zone>',
  summary: 'IANA time zone, e.g. `Europe/Berlin`',
} as const;

export const DESCRIPTION = {
  name: 'description',
  type: 'string',
  allowEmpty: true,
  aliases: ['desc'],
  placeholder: '"<text>"',
  summary: 'description (Markdown)',
} as const;

// ── issues and merge requests ─────────────────────────────────────────────────────────────────────────────────

const LIST_SCOPES = ['created-by-me', 'assigned-to-me', 'all'] as const;

export const LIST_SCOPE = { name: 'scope', type: 'enum', values: LIST_SCOPES, summary: 'whose items' } as const;

export const LABELS = {
  name: 'labels',
  type: 'labels',
  aliases: ['label'],
  placeholder: '<a,b>',
  summary: 'label names; `none` means no label at all',
} as const;

export const MILESTONE = {
  name: 'milestone',
  type: 'string',
  placeholder: '"<title>"',
  summary: 'milestone title',
} as const;

export const MILESTONE_ID = {
  name: 'milestoneId',
  type: 'int',
  min: 1,
  placeholder: '<id>',
  summary: 'milestone id',
} as const;

export const IIDS = { name: 'iids', type: 'int-list', placeholder: '<1,2,3>', summary: 'only these iids' } as const;

export const CREATED_AFTER = {
  name: 'createdAfter',
  type: 'date-time',
  placeholder: '<date>',
  summary: 'created on or after (ISO date or date-time)',
} as const;

export const CREATED_BEFORE = {
  name: 'createdBefore',
  type: 'date-time',
  placeholder: '<date>',
  summary: 'created on or before (ISO date or date-time)',
} as const;

export const ORDER_BY_DATES = {
  name: 'orderBy',
  type: 'enum',
  values: ['created_at', 'updated_at'],
  summary: 'sort field',
} as const;

export const DURATION_ARG = { name: 'duration', type: 'duration', placeholder: '<duration>', rest: true } as const;

export const SPENT_ARG = {
  name: 'duration',
  type: 'duration',
  signed: true,
  placeholder: '<duration>',
  rest: true,
} as const;

// ── people ────────────────────────────────────────────────────────────────────────────────────────────────────

const PERSON = '<id|username|@person>';

export const AUTHOR = {
  name: 'author',
  type: 'user',
  aliases: ['authorId'],
  placeholder: PERSON,
  summary: 'the author: a user id, a username or a Slack @mention',
} as const;

export const ASSIGNEE = {
  name: 'assignee',
  type: 'user',
  aliases: ['assigneeId'],
  placeholder: PERSON,
  summary: 'the assignee: a user id, a username or a Slack @mention',
} as const;

export const ASSIGNEES = {
  name: 'assignees',
  type: 'user-list',
  aliases: ['assigneeIds'],
  placeholder: '<id|username|@person,…>',
  summary: 'who to assign: user ids, usernames or Slack @mentions',
} as const;

// ── events (lists and digests) ────────────────────────────────────────────────────────────────────────────────

const EVENT_ACTIONS = [
  'created',
  'updated',
  'closed',
  'reopened',
  'pushed',
  'commented',
  'merged',
  'joined',
  'left',
  'destroyed',
  'expired',
] as const;
const EVENT_TARGET_TYPES = ['issue', 'milestone', 'merge_request', 'note', 'project', 'snippet', 'user'] as const;

export const EVENT_ACTION = {
  name: 'action',
  type: 'enum',
  values: EVENT_ACTIONS,
  summary: 'only events of this action',
} as const;

export const EVENT_TARGET_TYPE = {
  name: 'targetType',
  type: 'enum',
  values: EVENT_TARGET_TYPES,
  summary: 'only events on this kind of thing',
} as const;

export const EVENT_USER = {
  name: 'user',
  type: 'user',
  placeholder: PERSON,
  excludesProject: true,
  summary: "that person's events instead of a project's: a user id, a username or a Slack @mention",
} as const;
