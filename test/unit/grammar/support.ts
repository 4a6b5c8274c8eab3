import type { Command, CommandKey, CommandOf, ParseResult, ProjectRef } from '../../../src/grammar/index.js';
import { parseCommand } from '../../../src/grammar/index.js';

/** A server with a path prefix, so links must carry `/sub`. */
export const SERVER = 'https://gitlab.example.com/sub';

export function parse(text: string): ParseResult {
  return parseCommand(text, { serverUrl: SERVER });
}

export function accepted(text: string): Command {
  const result = parse(text);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(text)} to parse, got:\n${result.error.message}`);
  return result.command;
}

/** Slack's three entities undone, so expectations read as the person sees them. */
export function plain(mrkdwn: string): string {
  return mrkdwn.replace(/&(amp|lt|gt);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>' })[name] ?? '');
}

export function refusal(text: string): string {
  const result = parse(text);
  if (result.ok)
    throw new Error(`expected ${JSON.stringify(text)} to be refused, got ${JSON.stringify(result.command)}`);
  return plain(result.error.message);
}

/** The first line of a refusal: what is wrong (the usage follows on the next lines). */
export function problem(text: string): string {
  return refusal(text).split('\n')[0] ?? '';
}

export function ref(project: string | number): ProjectRef {
  return typeof project === 'number' ? { kind: 'id', id: project } : { kind: 'path', path: project };
}

type Extras<K extends CommandKey> = {
  args?: CommandOf<K>['args'];
  flags?: CommandOf<K>['flags'];
  share?: boolean;
  needsToken?: boolean;
};

/** The command a text should parse to, type-checked against that key's static type. */
export function command<K extends CommandKey>(
  key: K,
  target: CommandOf<K>['target'],
  extras: Extras<K> = {},
): CommandOf<K> {
  return {
    key,
    target,
    args: extras.args ?? {},
    flags: extras.flags ?? {},
    share: extras.share ?? false,
    needsToken: extras.needsToken ?? true,
  } as CommandOf<K>;
}

export const none = { kind: 'none' } as const;

export function project(name?: string | number): { kind: 'project'; project: ProjectRef | null } {
  return { kind: 'project', project: name === undefined ? null : ref(name) };
}

export function issue(iid: number, name?: string | number) {
  return { kind: 'issue' as const, project: name === undefined ? null : ref(name), iid };
}

export function mr(iid: number, name?: string | number) {
  return { kind: 'merge_request' as const, project: name === undefined ? null : ref(name), iid };
}

export function snippet(iid: number, name?: string | number) {
  return { kind: 'snippet' as const, project: name === undefined ? null : ref(name), iid };
}

export function resource<K extends 'job' | 'pipeline' | 'schedule' | 'deployment'>(
  kind: K,
  id: number,
  name?: string | number,
) {
  return { kind, project: name === undefined ? null : ref(name), id };
}
