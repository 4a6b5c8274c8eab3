import type { ArgValues, CommandSpec, FlagValues, NounSpec, TargetOf, TargetSpec } from '../spec-types.js';
import { ACCOUNT_NOUNS, ACCOUNT_ROWS } from './account.js';
import { ACTIVITY_NOUNS, ACTIVITY_ROWS } from './activity.js';
import { ALERT_NOUNS, ALERT_ROWS } from './alerts.js';
import { AWARD_NOUNS, AWARD_ROWS } from './awards.js';
import { CI_NOUNS, CI_ROWS } from './ci.js';
import { DIGEST_NOUNS, DIGEST_ROWS } from './digests.js';
import { INSIGHTS_NOUNS, INSIGHTS_ROWS } from './insights.js';
import { ISSUE_NOUNS, ISSUE_ROWS } from './issues.js';
import { LINK_NOUNS, LINK_ROWS } from './links.js';
import { MERGE_REQUEST_NOUNS, MERGE_REQUEST_ROWS } from './merge-requests.js';
import { WATCH_NOUNS, WATCH_ROWS } from './watches.js';

/**
 * The `/gl` language in one table (COMMANDS.md), written one file per noun group and joined here in a fixed order
 * (the order of help and usage). Parsing, usage messages, `/gl help` and the manifest's usage hint are all generated
 * from NOUNS and SPEC, and the `Command` type below is derived from SPEC.
 *
 * Settled ambiguities (COMMANDS.md is silent or the forms collide):
 * - An optional leading `<project>` is taken only when the word looks like one (`group/project`, a numeric id or a
 *   link to the server, never a quoted word) *and* enough words remain for the required arguments. So
 *   `mr create feature/x main "Fix"` has no project (a branch may contain `/`), `mr create demo/web feature/x main
 *   "Fix"` has one, and `pipeline run feature/x` runs the ref `feature/x`. Quote a title or description that looks
 *   like a path.
 * - A last argument marked `rest` takes every remaining word: unquoted titles (`issue create demo/web Fix login`),
 *   durations (`issue spend #3 1h 30m`) and cron expressions (`schedule create "Nightly" main 0 2 * * *`).
 *   `mr create` has no such argument: its title must be one word or quoted, so `<source> <target>` stay clear.
 * - `issue create` with no title still parses (`title` absent): the bot opens a modal.
 * - `issue edit`, `mr edit` and `schedule edit` with no flag are usage errors (nothing to change, no API call).
 * - `awards <ref>` lists; `award <ref> <emoji>` adds; `award show <ref> <award-id>` shows one; `unaward <ref>
 *   <award-id>` (also `award remove`) removes. A bare number is refused for awards: `#12`, `!12` or `$12` says which.
 * - `todos` lists, `todos done` marks all done, `todo done <id>` marks one.
 * - A singular noun followed by a resource shows it (`job 123`, `issue #3`, `issue demo/web 3`); followed by only a
 *   project, or nothing, it lists (`job demo/web` = `jobs demo/web`). After a plural noun a number is a project id
 *   (`jobs 42` lists project 42's jobs).
 * - `issues --group g` and `events --user u` / `digest events --user u` cannot be combined with a project.
 * - `use <project>` sets the default, `use --clear` clears it; one of the two is required.
 * - `job artifacts` with `--ref`/`--job` downloads by ref (`job.artifacts-by-ref`), otherwise by job id.
 * - Issue lists accept `--created-after/--created-before` and MR lists `--iids` with or without a project; the
 *   operations layer drops what the global list does not take.
 * - `--help` anywhere is `/gl help <noun>`; an empty command is `/gl help`.
 * - A singular noun followed by a project path and another word shows a resource (`job demo/web abc` is refused as
 *   a job id that is not a number), since the lists take no words of their own.
 * - A switch marked `explicit` (`--active`, `--confidential` and `--remove-source-branch` on edits) reads a plain
 *   word after it as its value, so `--active maybe` is refused as a bad value rather than as a stray word.
 * - People (`--author`, `--assignee`, `--assignees`, `--user`) are a user id, a username (`alice`, `@alice`) or a
 *   Slack mention; the bot maps usernames and mentions to server users.
 */

export const NOUNS = [
  ...ACCOUNT_NOUNS,
  ...CI_NOUNS,
  ...INSIGHTS_NOUNS,
  ...ISSUE_NOUNS,
  ...MERGE_REQUEST_NOUNS,
  ...AWARD_NOUNS,
  ...ACTIVITY_NOUNS,
  ...DIGEST_NOUNS,
  ...WATCH_NOUNS,
  ...ALERT_NOUNS,
  ...LINK_NOUNS,
] as const satisfies readonly NounSpec[];

export const SPEC = [
  ...ACCOUNT_ROWS,
  ...CI_ROWS,
  ...INSIGHTS_ROWS,
  ...ISSUE_ROWS,
  ...MERGE_REQUEST_ROWS,
  ...AWARD_ROWS,
  ...ACTIVITY_ROWS,
  ...DIGEST_ROWS,
  ...WATCH_ROWS,
  ...ALERT_ROWS,
  ...LINK_ROWS,
] as const satisfies readonly CommandSpec[];

type Entry = (typeof SPEC)[number];

export type CommandKey = Entry['key'];
export type NounName = (typeof NOUNS)[number]['name'];

type EntryOf<K extends CommandKey> = Extract<Entry, { key: K }>;

/** The parsed form of one SPEC row. */
export type CommandOf<K extends CommandKey> = {
  key: K;
  target: TargetOf<EntryOf<K>['target'] & TargetSpec>;
  args: ArgValues<EntryOf<K>['args']>;
  flags: FlagValues<EntryOf<K>['flags']>;
  /** `--share`: post the answer in the channel (reads only). */
  share: boolean;
  needsToken: boolean;
};

export type Command = { [K in CommandKey]: CommandOf<K> }[CommandKey];
