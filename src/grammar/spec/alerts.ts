import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';

export const ALERT_NOUNS = [
  {
    name: 'notify',
    aliases: ['alerts'],
    group: 'digests',
    summary: 'a DM within about a minute of each new todo: on (which actions, quiet hours), off, or your setting',
    defaults: { plural: 'notify.show', singular: 'notify.show' },
  },
] as const satisfies readonly NounSpec[];

// Turning alerts on reads the newest pending todo with the person's token (what is pending then is not sent);
// turning them off or looking at them is the bot's own setting.
export const ALERT_ROWS = rows([
  {
    key: 'notify.on',
    flags: [
      {
        name: 'actions',
        type: 'enum-list',
        aliases: ['action'],
        values: ['assigned', 'mentioned', 'build_failed', 'marked', 'approval_required'],
        summary: 'only todos of these actions (default: all five)',
      },
      {
        name: 'quiet',
        type: 'string',
        placeholder: '<HH:MM-HH:MM>',
        summary: 'quiet hours in your Slack time zone, e.g. `19:00-08:00`: alerts wait and come as one message after',
      },
    ],
    access: 'write',
    summary: 'a DM for each new pending todo (not those pending now), grouped when several arrive at once',
    example: 'notify on --actions assigned,mentioned --quiet 19:00-08:00',
  },
  {
    key: 'notify.off',
    access: 'write',
    needsToken: false,
    summary: 'stops your todo alerts',
    example: 'notify off',
  },
  {
    key: 'notify.show',
    verb: null,
    access: 'read',
    needsToken: false,
    summary: 'your alert setting: on or off, actions, quiet hours, last delivery',
    example: 'notify',
  },
] as const satisfies readonly RowSpec[]);
