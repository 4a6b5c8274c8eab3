import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  type Command,
  type CommandOf,
  type Duration,
  NOUNS,
  type ProjectRef,
  SPEC,
  type Target,
  type UserRef,
} from '../../../src/grammar/index.js';
import { type RowSpec, rows } from '../../../src/grammar/spec/row.js';
import type { CommandSpec, FlagSpec, NounSpec } from '../../../src/grammar/spec-types.js';
import { accepted, parse, plain } from './support.js';

const entries: readonly CommandSpec[] = SPEC;
const nouns: readonly NounSpec[] = NOUNS;
const norm = (w: string) => w.toLowerCase().replace(/[-_]/g, '');

describe('the spec table', () => {
  it('has unique keys, each named after its noun', () => {
    const keys = entries.map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const entry of entries) {
      expect(nouns.map((n) => n.name)).toContain(entry.noun);
      expect(entry.key === entry.noun || entry.key.startsWith(`${entry.noun}.`)).toBe(true);
    }
  });

  it('has an example for every entry that parses to that entry', () => {
    for (const entry of entries) {
      const command = accepted(entry.example);
      expect(command.key, entry.example).toBe(entry.key);
      expect(command.needsToken).toBe(entry.needsToken);
    }
  });

  it('points every noun default at one of its own entries', () => {
    for (const noun of nouns) {
      const own = entries.filter((e) => e.noun === noun.name).map((e) => e.key);
      expect(own.length).toBeGreaterThan(0);
      for (const key of Object.values(noun.defaults ?? {})) expect(own).toContain(key);
      for (const key of Object.values(noun.shortcuts ?? {})) expect(own).toContain(key);
    }
  });

  it('lets every spelling of a noun, verb and flag mean one thing', () => {
    const nounWords = nouns.flatMap((n) => [n.name, n.plural, ...(n.aliases ?? []), ...Object.keys(n.shortcuts ?? {})]);
    const spelled = nounWords.filter((w): w is string => w !== undefined).map(norm);
    expect(new Set(spelled).size).toBe(spelled.length);
    for (const noun of nouns) {
      const seen = new Map<string, CommandSpec>();
      for (const entry of entries.filter((e) => e.noun === noun.name && e.verb !== null)) {
        for (const verb of [entry.verb ?? '', ...(entry.verbAliases ?? [])]) {
          const other = seen.get(norm(verb));
          // Two entries may share a verb only when the noun's spelling or a selecting flag tells them apart.
          if (other)
            expect(
              other.form !== entry.form || other.selectedBy || entry.selectedBy,
              `${noun.name} ${verb}`,
            ).toBeTruthy();
          seen.set(norm(verb), entry);
        }
      }
    }
    for (const entry of entries) {
      const flagWords = (entry.flags as readonly FlagSpec[]).flatMap((f) => [f.name, ...(f.aliases ?? [])]).map(norm);
      expect(new Set(flagWords).size, entry.key).toBe(flagWords.length);
      expect(flagWords).not.toContain('share');
      expect(flagWords).not.toContain('help');
      for (const flag of entry.flags as readonly FlagSpec[]) expect(flag.name).toMatch(/^[a-z][A-Za-z]*$/);
    }
  });

  it('gives a flag the same kind (switch or value) in entries that a noun can reach without a verb', () => {
    for (const noun of nouns) {
      const reachable = entries.filter((e) => Object.values(noun.defaults ?? {}).includes(e.key));
      const arity = new Map<string, boolean>();
      for (const flag of reachable.flatMap((e) => e.flags as readonly FlagSpec[])) {
        const isSwitch = flag.type === 'bool';
        expect(arity.get(flag.name) ?? isSwitch, `${noun.name} --${flag.name}`).toBe(isSwitch);
        arity.set(flag.name, isSwitch);
      }
    }
  });

  it('pages every list and accepts --share on reads only', () => {
    // Digests and watches are the bot's own records, not a paged API list.
    const ownRecords = ['digest.list', 'watch.list'];
    for (const entry of entries.filter((e) => e.key.endsWith('.list') && !ownRecords.includes(e.key))) {
      const names = (entry.flags as readonly FlagSpec[]).map((f) => f.name);
      expect(names, entry.key).toEqual(expect.arrayContaining(['page', 'perPage']));
    }
    for (const entry of entries) {
      const result = parse(`${entry.example} --share`);
      // A shareable write (pipeline run, pipeline retry) posts the card that follows what it started.
      if (entry.access === 'read' || entry.shareable) expect(result.ok && result.command.share, entry.key).toBe(true);
      else
        expect(!result.ok && plain(result.error.message), entry.key).toContain(
          '`--share` only goes with commands that read',
        );
    }
  });
});

describe('the row helper', () => {
  it('fills a row in from its key and the common defaults, keeping every literal type', () => {
    const [poke, help] = rows([
      { key: 'thing.poke', access: 'write', summary: 'pokes it', example: 'thing poke' },
      { key: 'thing', verb: null, target: 'project', needsToken: false, access: 'read', summary: 's', example: 'x' },
    ] as const satisfies readonly RowSpec[]);
    expect(poke).toEqual({
      key: 'thing.poke',
      noun: 'thing',
      verb: 'poke',
      target: 'none',
      args: [],
      flags: [],
      needsToken: true,
      access: 'write',
      summary: 'pokes it',
      example: 'thing poke',
    });
    expect(help).toMatchObject({ noun: 'thing', verb: null, target: 'project', needsToken: false });
    expectTypeOf(poke.noun).toEqualTypeOf<'thing'>();
    expectTypeOf(poke.verb).toEqualTypeOf<'poke'>();
    expectTypeOf(poke.target).toEqualTypeOf<'none'>();
    expectTypeOf(poke.args).toEqualTypeOf<readonly []>();
    expectTypeOf(help.verb).toEqualTypeOf<null>();
    expectTypeOf(help.target).toEqualTypeOf<'project'>();
  });

  it('refuses a malformed row at compile time', () => {
    const malformed = [
      // @ts-expect-error: access is read or write
      { key: 'thing.poke', access: 'sometimes', summary: 's', example: 'x' },
      // @ts-expect-error: a misspelt field
      { key: 'thing.poke', access: 'read', sumary: 's', example: 'x' },
      // @ts-expect-error: a flag without its summary
      { key: 'thing.poke', access: 'read', flags: [{ name: 'x', type: 'bool' }], summary: 's', example: 'x' },
    ] as const satisfies readonly RowSpec[];
    expect(malformed).toHaveLength(3);
  });
});

describe('the Command type', () => {
  it('narrows on key to the target, args and flags of that entry', () => {
    expectTypeOf<CommandOf<'job.retry'>['target']>().toEqualTypeOf<{
      kind: 'job';
      project: ProjectRef | null;
      id: number;
    }>();
    expectTypeOf<CommandOf<'issue.show'>['target']>().toEqualTypeOf<{
      kind: 'issue';
      project: ProjectRef | null;
      iid: number;
    }>();
    expectTypeOf<CommandOf<'award.add'>['target']['kind']>().toEqualTypeOf<'issue' | 'merge_request' | 'snippet'>();
    expectTypeOf<CommandOf<'job.list'>['flags']>().toEqualTypeOf<{
      scope?: ('created' | 'pending' | 'running' | 'failed' | 'success' | 'canceled' | 'skipped' | 'manual')[];
      pipeline?: number;
      page?: number;
      perPage?: number;
    }>();
    expectTypeOf<CommandOf<'job.trace'>['flags']>().toEqualTypeOf<{ lines: number; full?: boolean }>();
    expectTypeOf<CommandOf<'job.artifacts-by-ref'>['flags']>().toEqualTypeOf<{ ref: string; job: string }>();
    expectTypeOf<CommandOf<'issue.create'>['args']>().toEqualTypeOf<{ title?: string }>();
    expectTypeOf<CommandOf<'mr.create'>['args']>().toEqualTypeOf<{
      sourceBranch: string;
      targetBranch: string;
      title: string;
    }>();
    expectTypeOf<CommandOf<'issue.spend'>['args']>().toEqualTypeOf<{ duration: Duration }>();
    expectTypeOf<CommandOf<'issue.move'>['args']>().toEqualTypeOf<{ toProject: ProjectRef }>();
    expectTypeOf<CommandOf<'event.list'>['flags']['user']>().toEqualTypeOf<UserRef | undefined>();
    expectTypeOf<CommandOf<'digest.todos'>['flags']['cron']>().toEqualTypeOf<string>();
    expectTypeOf<CommandOf<'todo.list'>['flags']['type']>().toEqualTypeOf<'Issue' | 'MergeRequest' | undefined>();
    expectTypeOf<Command['target']>().toExtend<Target>();
    expectTypeOf<UserRef>().toEqualTypeOf<
      { kind: 'id'; id: number } | { kind: 'username'; username: string } | { kind: 'slack'; userId: string }
    >();
    expectTypeOf<CommandOf<'issue.list'>['flags']['author']>().toEqualTypeOf<UserRef | undefined>();
    expectTypeOf<CommandOf<'mr.edit'>['flags']['assignee']>().toEqualTypeOf<UserRef | undefined>();
    expectTypeOf<CommandOf<'issue.create'>['flags']['assignees']>().toEqualTypeOf<UserRef[] | undefined>();
    expectTypeOf<CommandOf<'key.show'>['args']>().toEqualTypeOf<{ id: number }>();
    expectTypeOf<CommandOf<'award.remove'>['args']>().toEqualTypeOf<{ awardId: number }>();
    expectTypeOf<CommandOf<'unfurl.private'>['target']>().toEqualTypeOf<{ kind: 'none' }>();
    expectTypeOf<CommandOf<'unfurl.private'>['args']>().toEqualTypeOf<{ setting: 'on' | 'off' }>();
    expectTypeOf<keyof CommandOf<'unfurl.private'>['flags']>().toEqualTypeOf<never>();
  });

  it('lets code switch on key without casts', () => {
    function idOf(command: Command): number | undefined {
      if (command.key === 'job.retry') return command.target.id;
      if (command.key === 'issue.close') return command.target.iid;
      if (command.key === 'todo.done') return command.args.id;
      return undefined;
    }
    expect(idOf(accepted('job retry 5'))).toBe(5);
    expect(idOf(accepted('issue close #6'))).toBe(6);
    expect(idOf(accepted('todo done 7'))).toBe(7);
  });
});
