import type { ArgSpec, CommandSpec, FlagSpec, TargetSpec } from '../spec-types.js';

/**
 * A row as written in a group file: the key names the noun and the verb, and what most rows share is left out.
 * `rows` fills it in; the filled row's type keeps every literal, so `Command` is derived as precisely as from
 * rows written out in full.
 */
export type RowSpec = Omit<CommandSpec, 'noun' | 'verb' | 'target' | 'args' | 'flags' | 'needsToken'> & {
  /** Defaults to the part of the key after the dot (`job.retry` → `retry`), or `null` for a key without one. */
  readonly verb?: string | null;
  /** Defaults to `none`. */
  readonly target?: TargetSpec;
  /** Defaults to none. */
  readonly args?: readonly ArgSpec[];
  /** Defaults to none. */
  readonly flags?: readonly FlagSpec[];
  /** Defaults to `true`: most commands call the server with the person's token. */
  readonly needsToken?: boolean;
};

type NounOfKey<K extends string> = K extends `${infer N}.${string}` ? N : K;
type VerbOfKey<K extends string> = K extends `${string}.${infer V}` ? V : null;
type Given<R, P extends string, Default> = R extends { readonly [Q in P]: infer V } ? V : Default;

type Defaulted = 'key' | 'verb' | 'target' | 'args' | 'flags' | 'needsToken';

/** One row with its defaults filled in, at the type level. */
export type Row<R extends RowSpec> = {
  readonly key: R['key'];
  readonly noun: NounOfKey<R['key']>;
  readonly verb: Given<R, 'verb', VerbOfKey<R['key']>>;
  readonly target: Given<R, 'target', 'none'>;
  readonly args: Given<R, 'args', readonly []>;
  readonly flags: Given<R, 'flags', readonly []>;
  readonly needsToken: Given<R, 'needsToken', true>;
} & Omit<R, Defaulted>;

export type Rows<T extends readonly RowSpec[]> = { readonly [I in keyof T]: T[I] extends RowSpec ? Row<T[I]> : never };

function fill(row: RowSpec): CommandSpec {
  const dot = row.key.indexOf('.');
  const keyVerb = dot === -1 ? null : row.key.slice(dot + 1);
  return {
    ...row,
    noun: dot === -1 ? row.key : row.key.slice(0, dot),
    verb: row.verb === undefined ? keyVerb : row.verb,
    target: row.target ?? 'none',
    args: row.args ?? [],
    flags: row.flags ?? [],
    needsToken: row.needsToken ?? true,
  };
}

/**
 * Fill in a group's rows. Write the table `[…] as const satisfies readonly RowSpec[]` so that a malformed row,
 * or a misspelt field in one, is a type error.
 */
export function rows<const T extends readonly RowSpec[]>(table: T): Rows<T> {
  return table.map(fill) as unknown as Rows<T>;
}
