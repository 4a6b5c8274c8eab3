import type { NounSpec } from '../spec-types.js';
import { type RowSpec, rows } from './row.js';

export const ACCOUNT_NOUNS = [
  {
    name: 'help',
    group: 'account',
    summary: 'this overview, or one noun in detail',
    defaults: { plural: 'help', singular: 'help' },
  },
  {
    name: 'connect',
    aliases: ['login'],
    group: 'account',
    summary: 'connect your account with a personal access token',
    defaults: { plural: 'connect', singular: 'connect' },
  },
  {
    name: 'disconnect',
    aliases: ['logout'],
    group: 'account',
    summary: 'forget your token',
    defaults: { plural: 'disconnect', singular: 'disconnect' },
  },
  {
    name: 'whoami',
    aliases: ['me'],
    group: 'account',
    summary: 'whether you are connected, since when, to which server',
    defaults: { plural: 'whoami', singular: 'whoami' },
  },
  {
    name: 'use',
    group: 'account',
    summary: "set or clear this channel's default project",
    defaults: { plural: 'use', singular: 'use' },
  },
] as const satisfies readonly NounSpec[];

export const ACCOUNT_ROWS = rows([
  {
    key: 'help',
    args: [{ name: 'topic', type: 'noun', placeholder: '<noun>', optional: true }],
    access: 'read',
    needsToken: false,
    summary: 'the overview, or one noun with its verbs, flags and examples',
    example: 'help jobs',
  },
  {
    key: 'connect',
    access: 'write',
    needsToken: false,
    summary: 'opens a form to paste a personal access token; it is checked, then stored encrypted',
    example: 'connect',
  },
  {
    key: 'disconnect',
    access: 'write',
    needsToken: false,
    summary: 'forgets your token',
    example: 'disconnect',
  },
  {
    key: 'whoami',
    access: 'read',
    needsToken: false,
    summary: 'whether you are connected, since when, and to which server',
    example: 'whoami',
  },
  {
    key: 'use',
    target: 'project',
    projectRequired: true,
    flags: [{ name: 'clear', type: 'bool', excludesProject: true, summary: "forget this channel's default project" }],
    access: 'write',
    summary:
      "sets this channel's default project (checked with a read; one that is not public is never named to the channel), or clears it with `--clear`",
    example: 'use demo/web',
  },
] as const satisfies readonly RowSpec[]);
