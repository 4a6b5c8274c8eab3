import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';

export const LINK_NOUNS = [
  {
    name: 'unfurl',
    group: 'links',
    summary: 'previews of your non-public links in this channel: without asking, or ask each time',
  },
] as const satisfies readonly NounSpec[];

// A per-person, per-channel preference the bot keeps itself: no server call, so no token.
export const LINK_ROWS = rows([
  {
    key: 'unfurl.private',
    args: [{ name: 'setting', type: 'enum', values: ['on', 'off'], placeholder: 'on|off' }],
    access: 'write',
    needsToken: false,
    summary:
      'in this channel, show previews of your non-public links without asking (`on`), or ask again (`off`); a confidential issue is always asked about',
    example: 'unfurl private on',
  },
] as const satisfies readonly RowSpec[]);
