import type { Duration, GroupRef, ProjectRef, UserRef } from './types.js';

/**
 * The value types a positional or a flag can have. The parser checks each at parse time and turns it into the
 * typed value named in `ValueOf`; help text describes each from the same data.
 */
export type ValueSpec =
  | { readonly type: 'int'; readonly min?: number; readonly max?: number }
  /** A record's id, a number from 1; `of` names the record in messages (`key` → "a key id is a number"). */
  | { readonly type: 'id'; readonly of: string }
  | { readonly type: 'string'; readonly allowEmpty?: boolean }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'enum-list'; readonly values: readonly string[] }
  | { readonly type: 'bool' }
  | { readonly type: 'list' }
  | { readonly type: 'labels' }
  | { readonly type: 'int-list' }
  | { readonly type: 'date' }
  | { readonly type: 'date-time' }
  | { readonly type: 'duration'; readonly signed?: boolean }
  | { readonly type: 'cron' }
  | { readonly type: 'timezone' }
  | { readonly type: 'emoji' }
  | { readonly type: 'project' }
  | { readonly type: 'group' }
  /** A person: a numeric user id, a server username (`alice`, `@alice`) or a Slack mention. */
  | { readonly type: 'user' }
  /** Several people, comma-separated or the flag repeated. */
  | { readonly type: 'user-list' }
  | { readonly type: 'mr-iid' }
  | { readonly type: 'noun' };

export type ValueType = ValueSpec['type'];

export type FlagSpec = ValueSpec & {
  /** Canonical camelCase name; typed as kebab-case (`orderBy` → `--order-by`). */
  readonly name: string;
  /** Other spellings, camelCase like `name`. */
  readonly aliases?: readonly string[];
  /** Shown after the flag in help, e.g. `<id>`. */
  readonly placeholder?: string;
  readonly summary: string;
  readonly required?: boolean;
  /** Filled in when the flag is absent (so the command's type has the flag). */
  readonly default?: string | number;
  /** The flag names the scope instead of a project (`--group`, `--user`, `--clear`): both together are refused. */
  readonly excludesProject?: boolean;
  /**
   * A switch that is usually given its value (`--active false` on an edit): a plain word after it is read as that
   * value, so `--active maybe` is refused as a bad value instead of a stray word.
   */
  readonly explicit?: boolean;
};

export type ArgSpec = ValueSpec & {
  /** camelCase key in `args`. */
  readonly name: string;
  /** Shown in usage, e.g. `<id>` or `"<title>"`. */
  readonly placeholder: string;
  readonly optional?: boolean;
  /** The last argument may take every remaining word (`spend #3 1h 30m`, an unquoted cron or title). */
  readonly rest?: boolean;
};

/**
 * `awardable` is an issue, merge request or snippet reference (`#12`, `!34`, `$5`); the others name the
 * `Target` kind they produce.
 */
export type TargetSpec =
  | 'none'
  | 'project'
  | 'issue'
  | 'merge_request'
  | 'awardable'
  | 'job'
  | 'pipeline'
  | 'schedule'
  | 'deployment';

export type NounGroup = 'account' | 'ci' | 'insights' | 'issues' | 'awards' | 'activity' | 'digests' | 'links';

export type NounSpec = {
  readonly name: string;
  readonly plural?: string;
  readonly aliases?: readonly string[];
  /** Words that name the noun *and* a verb, like `unaward` = `award remove`. */
  readonly shortcuts?: Readonly<Record<string, string>>;
  readonly group: NounGroup;
  readonly summary: string;
  /**
   * What the noun means with no verb: plural form, singular form, singular form followed by a resource. A noun
   * without defaults always needs a verb (`unfurl private on`).
   */
  readonly defaults?: { readonly plural: string; readonly singular: string; readonly singularTarget?: string };
  /** Paragraphs `/gl help <noun>` prints after the noun's header (what its answer means, how it is computed). */
  readonly notes?: readonly string[];
};

export type CommandSpec = {
  readonly key: string;
  readonly noun: string;
  /** `null`: reached only as the noun's default (see `NounSpec.defaults`). */
  readonly verb: string | null;
  readonly verbAliases?: readonly string[];
  /** Only this spelling of the noun reaches the verb (`todo done <id>` vs `todos done`). */
  readonly form?: 'singular' | 'plural';
  /** Among entries sharing a verb, this one is picked when any of these flags is given. */
  readonly selectedBy?: readonly string[];
  readonly target: TargetSpec;
  readonly args: readonly ArgSpec[];
  readonly flags: readonly FlagSpec[];
  /** `<project>` must be given unless a flag that `excludesProject` is. */
  readonly projectRequired?: boolean;
  /** Reads accept `--share`; writes refuse it, unless `shareable`. */
  readonly access: 'read' | 'write';
  /** A write whose answer is a card that may be posted in the channel with `--share` (it follows what it started). */
  readonly shareable?: boolean;
  readonly needsToken: boolean;
  /** An edit with nothing to change is refused before any call. */
  readonly needsAFlag?: boolean;
  readonly summary: string;
  /** Typed after the slash command; it must parse to this entry (a test checks). */
  readonly example: string;
};

export type ValueOf<V> = V extends { readonly type: 'int' | 'id' | 'mr-iid' }
  ? number
  : V extends { readonly type: 'enum'; readonly values: readonly (infer E)[] }
    ? E
    : V extends { readonly type: 'enum-list'; readonly values: readonly (infer E)[] }
      ? E[]
      : V extends { readonly type: 'bool' }
        ? boolean
        : V extends { readonly type: 'list' | 'labels' }
          ? string[]
          : V extends { readonly type: 'int-list' }
            ? number[]
            : V extends { readonly type: 'duration' }
              ? Duration
              : V extends { readonly type: 'project' }
                ? ProjectRef
                : V extends { readonly type: 'group' }
                  ? GroupRef
                  : V extends { readonly type: 'user' }
                    ? UserRef
                    : V extends { readonly type: 'user-list' }
                      ? UserRef[]
                      : string;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type IsPresent<F> = F extends { readonly required: true }
  ? true
  : F extends { readonly default: unknown }
    ? true
    : false;
type NameOf<X> = X extends { readonly name: infer N extends string } ? N : never;
type IsOptional<X> = X extends { readonly optional: true } ? true : false;

/** `flags` of a command: present flags (required or defaulted) are not optional. */
export type FlagValues<F extends readonly unknown[]> = Simplify<
  { [X in F[number] as IsPresent<X> extends true ? NameOf<X> : never]: ValueOf<X> } & {
    [X in F[number] as IsPresent<X> extends true ? never : NameOf<X>]?: ValueOf<X>;
  }
>;

/** `args` of a command, by name; optional positionals are optional keys. */
export type ArgValues<A extends readonly unknown[]> = Simplify<
  { [X in A[number] as IsOptional<X> extends true ? never : NameOf<X>]: ValueOf<X> } & {
    [X in A[number] as IsOptional<X> extends true ? NameOf<X> : never]?: ValueOf<X>;
  }
>;

export type TargetOf<T extends TargetSpec> = T extends 'none'
  ? { kind: 'none' }
  : T extends 'project'
    ? { kind: 'project'; project: ProjectRef | null }
    : T extends 'issue' | 'merge_request'
      ? { kind: T; project: ProjectRef | null; iid: number }
      : T extends 'awardable'
        ? { kind: 'issue' | 'merge_request' | 'snippet'; project: ProjectRef | null; iid: number }
        : T extends 'job' | 'pipeline' | 'schedule' | 'deployment'
          ? { kind: T; project: ProjectRef | null; id: number }
          : never;
