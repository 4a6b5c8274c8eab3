import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';
import { EVENT_ACTION, EVENT_TARGET_TYPE, EVENT_USER, TZ } from './shared.js';

const CRON_DEFAULT = {
  name: 'cron',
  type: 'cron',
  placeholder: '"<m h dom mon dow>"',
  default: '0 9 * * 1-5',
  summary: 'when to post, 5-field cron (default `0 9 * * 1-5`)',
} as const;

/** The weekly insights' day: Monday morning, for "how did we do last week?". */
const WEEKLY_CRON_DEFAULT = {
  ...CRON_DEFAULT,
  default: '0 9 * * 1',
  summary: 'when to post, 5-field cron (default `0 9 * * 1`, Mondays at 9)',
} as const;

const DIGEST_ID = [{ name: 'id', type: 'id', of: 'digest', placeholder: '<digest-id>' }] as const;

const CRON_CHANGE = {
  name: 'cron',
  type: 'cron',
  placeholder: '"<m h dom mon dow>"',
  summary: 'when to post from now on, 5-field cron',
} as const;

/** The event filters as an edit changes them: `any` drops one. */
const ACTION_CHANGE = {
  ...EVENT_ACTION,
  values: [...EVENT_ACTION.values, 'any'],
  summary: 'only events of this action from now on (`any`: all)',
} as const;
const TARGET_TYPE_CHANGE = {
  ...EVENT_TARGET_TYPE,
  values: [...EVENT_TARGET_TYPE.values, 'any'],
  summary: 'only events on this kind of thing from now on (`any`: all)',
} as const;

export const DIGEST_NOUNS = [
  {
    name: 'digest',
    plural: 'digests',
    group: 'digests',
    summary: 'scheduled summaries of todos, events or weekly insights: create, list, edit, pause, resume, run, remove',
    defaults: { plural: 'digest.list', singular: 'digest.list' },
  },
] as const satisfies readonly NounSpec[];

// A digest reads with its creator's token: creating one needs the person connected, managing one does not.
export const DIGEST_ROWS = rows([
  {
    key: 'digest.todos',
    verbAliases: ['todo'],
    flags: [CRON_DEFAULT, TZ, { name: 'here', type: 'bool', summary: 'post in this channel instead of a DM' }],
    access: 'write',
    summary: 'your pending todos on a schedule, by DM (or here with `--here`); tz defaults to yours in Slack',
    example: 'digest todos --cron "0 9 * * 1-5" --tz Europe/Berlin',
  },
  {
    key: 'digest.events',
    verbAliases: ['event'],
    target: 'project',
    flags: [CRON_DEFAULT, TZ, EVENT_ACTION, EVENT_TARGET_TYPE, EVENT_USER],
    access: 'write',
    summary: "this channel gets a project's (or `--user`'s) new events since the last digest",
    example: 'digest events demo/web --action pushed',
  },
  {
    key: 'digest.insights',
    verbAliases: ['insight', 'dora'],
    target: 'project',
    flags: [
      WEEKLY_CRON_DEFAULT,
      TZ,
      {
        name: 'env',
        type: 'string',
        aliases: ['environment'],
        placeholder: '<environment>',
        summary: 'the environment the keys are about (default: `production` or one named like it)',
      },
    ],
    access: 'write',
    summary:
      "this channel gets a project's insights weekly: the four keys vs last week, the pipelines' health and the chart",
    example: 'digest insights demo/web --cron "0 9 * * 1" --env production',
  },
  {
    key: 'digest.list',
    verbAliases: ['ls'],
    access: 'read',
    needsToken: false,
    summary: "this channel's digests and your DM digests, with their buttons",
    example: 'digest list',
  },
  {
    key: 'digest.edit',
    verbAliases: ['update', 'change'],
    args: DIGEST_ID,
    flags: [CRON_CHANGE, TZ, ACTION_CHANGE, TARGET_TYPE_CHANGE],
    access: 'write',
    needsToken: false,
    summary: "changes a digest's schedule, zone or event filters (`any` drops a filter)",
    example: 'digest edit 4 --cron "0 8 * * 1-5" --tz Europe/Berlin',
  },
  {
    key: 'digest.pause',
    args: DIGEST_ID,
    access: 'write',
    needsToken: false,
    summary: 'stops posting a digest for now',
    example: 'digest pause 4',
  },
  {
    key: 'digest.resume',
    args: DIGEST_ID,
    access: 'write',
    needsToken: false,
    summary: 'posts a paused digest again',
    example: 'digest resume 4',
  },
  {
    key: 'digest.remove',
    verbAliases: ['delete'],
    args: DIGEST_ID,
    access: 'write',
    needsToken: false,
    summary: 'deletes a digest',
    example: 'digest remove 4',
  },
  {
    key: 'digest.run',
    verbAliases: ['now', 'run-now'],
    args: DIGEST_ID,
    access: 'write',
    needsToken: false,
    summary: 'posts a digest now',
    example: 'digest run 4',
  },
] as const satisfies readonly RowSpec[]);
