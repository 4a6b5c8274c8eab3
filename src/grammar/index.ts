export { buildHelp, type HelpResult, usageHint } from './help.js';
export { parseCommand } from './parse.js';
export type { ParseResult } from './result.js';
export { findTokenShapedWord, type TokenShape } from './secrets.js';
export { type Command, type CommandKey, type CommandOf, NOUNS, type NounName, SPEC } from './spec/index.js';
export type { ArgSpec, CommandSpec, FlagSpec, NounSpec, TargetSpec, ValueSpec, ValueType } from './spec-types.js';
export type {
  Duration,
  GroupRef,
  HelpText,
  ParseOptions,
  ProjectRef,
  Target,
  UsageError,
  UserRef,
} from './types.js';
