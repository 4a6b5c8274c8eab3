import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';
import { PAGING } from './shared.js';

const NOTE = {
  name: 'note',
  type: 'int',
  min: 1,
  placeholder: '<note-id>',
  summary: 'the emoji of a comment (note)',
} as const;

export const AWARD_NOUNS = [
  {
    name: 'award',
    plural: 'awards',
    aliases: ['award-emoji', 'emoji'],
    shortcuts: { unaward: 'award.remove' },
    group: 'awards',
    summary: 'award emoji on issues, merge requests, snippets and their comments',
    defaults: { plural: 'award.list', singular: 'award.add' },
  },
] as const satisfies readonly NounSpec[];

export const AWARD_ROWS = rows([
  {
    key: 'award.list',
    verbAliases: ['ls'],
    target: 'awardable',
    flags: [NOTE, ...PAGING],
    access: 'read',
    summary: 'the emoji on an issue, merge request or snippet (or one of its comments with `--note`)',
    example: 'awards demo/web#3',
  },
  {
    key: 'award.add',
    target: 'awardable',
    args: [{ name: 'emoji', type: 'emoji', placeholder: '<emoji>' }],
    flags: [NOTE],
    access: 'write',
    summary: 'awards an emoji (`:thumbsup:` or `thumbsup`)',
    example: 'award demo/web#3 :thumbsup:',
  },
  {
    key: 'award.show',
    verbAliases: ['view', 'get'],
    target: 'awardable',
    args: [{ name: 'awardId', type: 'id', of: 'award', placeholder: '<award-id>' }],
    flags: [NOTE],
    access: 'read',
    summary: 'one award',
    example: 'award show demo/web!34 12',
  },
  {
    key: 'award.remove',
    verbAliases: ['delete'],
    target: 'awardable',
    args: [{ name: 'awardId', type: 'id', of: 'award', placeholder: '<award-id>' }],
    flags: [NOTE],
    access: 'write',
    summary: 'takes an award back (also written `unaward`)',
    example: 'unaward demo/web#3 12',
  },
] as const satisfies readonly RowSpec[]);
