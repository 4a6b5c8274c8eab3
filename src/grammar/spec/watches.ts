import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';

const WATCH_ID = [{ name: 'id', type: 'id', of: 'watch', placeholder: '<watch-id>' }] as const;

export const WATCH_NOUNS = [
  {
    name: 'watch',
    plural: 'watches',
    group: 'digests',
    summary: "a channel's watch of a project's pipelines: each failure posted once, redrawn when fixed",
    defaults: { plural: 'watch.list', singular: 'watch.list' },
  },
] as const satisfies readonly NounSpec[];

// A watch reads with its creator's token: creating one needs the person connected, managing one does not.
export const WATCH_ROWS = rows([
  {
    key: 'watch.pipelines',
    verbAliases: ['pipeline'],
    target: 'project',
    flags: [
      { name: 'ref', type: 'string', placeholder: '<ref>', summary: 'only pipelines of this branch or tag' },
      {
        name: 'status',
        type: 'enum',
        values: ['failed', 'finished'],
        summary: 'post failures (default) or every pipeline that finishes',
      },
    ],
    access: 'write',
    summary: "this channel gets a card for each of the project's pipelines that fails, and its fix",
    example: 'watch pipelines demo/web --ref main',
  },
  {
    key: 'watch.list',
    verbAliases: ['ls'],
    access: 'read',
    needsToken: false,
    summary: "this channel's watches, with their buttons",
    example: 'watch list',
  },
  {
    key: 'watch.pause',
    args: WATCH_ID,
    access: 'write',
    needsToken: false,
    summary: 'stops a watch for now',
    example: 'watch pause 3',
  },
  {
    key: 'watch.resume',
    args: WATCH_ID,
    access: 'write',
    needsToken: false,
    summary: 'starts a paused watch again (what finished meanwhile is posted)',
    example: 'watch resume 3',
  },
  {
    key: 'watch.remove',
    verbAliases: ['delete'],
    args: WATCH_ID,
    access: 'write',
    needsToken: false,
    summary: 'deletes a watch',
    example: 'watch remove 3',
  },
] as const satisfies readonly RowSpec[]);
