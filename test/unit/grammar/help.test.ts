import { describe, expect, it } from 'vitest';
import { buildHelp, type HelpText, NOUNS, parseCommand, SPEC, usageHint } from '../../../src/grammar/index.js';
import type { FlagSpec, NounSpec } from '../../../src/grammar/spec-types.js';
import { accepted, plain, SERVER } from './support.js';

const nouns: readonly NounSpec[] = NOUNS;
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

function help(topic?: string, slashCommand = '/gl'): HelpText {
  const result = buildHelp(topic, { slashCommand });
  if (!result.ok) throw new Error(result.error.message);
  return result.help;
}

function text(h: HelpText): string {
  return plain(h.sections.join('\n'));
}

describe('/gl help', () => {
  it('names every noun, including the account ones', () => {
    const overview = text(help());
    for (const noun of NOUNS) expect(overview).toContain(noun.name);
    // Every word a command of the table starts with (account commands too), read from the table, not listed here.
    const firstWords = new Set(SPEC.map((entry) => entry.key.split('.')[0] as string));
    expect(firstWords.size).toBeGreaterThan(10);
    for (const word of firstWords) expect(overview).toContain(word);
  });

  it('explains targets and --share', () => {
    const overview = text(help());
    expect(overview).toContain('--share');
    expect(overview).toContain('`group/project#12`');
    expect(overview).toContain('channel');
  });

  it('uses the configured slash command', () => {
    const overview = help(undefined, '/gitlab');
    expect(overview.title).toContain('/gitlab');
    expect(text(overview)).toContain('`/gitlab jobs`');
  });

  it('uses only the configured slash command, in the overview and for every noun', () => {
    for (const topic of [undefined, ...NOUNS.map((n) => n.name)]) {
      const body = help(topic, '/gitlab');
      expect(`${body.title}\n${text(body)}`, topic).not.toMatch(/\/gl\b/);
    }
    const refused = buildHelp('pipline', { slashCommand: '/gitlab' });
    expect(!refused.ok && plain(refused.error.message)).not.toMatch(/\/gl\b/);
  });

  it('lists link previews with the unfurl command', () => {
    const overview = text(help());
    expect(overview).toContain('*Link previews*');
    expect(overview).toContain('`/gl unfurl private on|off`');
  });
});

describe('/gl help <noun>', () => {
  it.each(NOUNS.map((n) => [n.name]))('has every verb, alias, flag and example of %s', (name) => {
    const body = text(help(name));
    for (const entry of SPEC.filter((e) => e.noun === name)) {
      if (entry.verb !== null) expect(body).toContain(entry.verb);
      for (const alias of 'verbAliases' in entry ? entry.verbAliases : []) expect(body).toContain(alias);
      for (const flag of entry.flags as readonly FlagSpec[]) {
        expect(body).toContain(`--${kebab(flag.name)}`);
        for (const alias of flag.aliases ?? []) expect(body).toContain(`--${kebab(alias)}`);
      }
      expect(body).toContain(`/gl ${entry.example}`);
      expect(body).toContain(entry.summary.slice(1));
    }
  });

  it.each(
    nouns
      .flatMap((n) => [n.name, n.plural, ...(n.aliases ?? []), ...Object.keys(n.shortcuts ?? {})])
      .filter((w): w is string => w !== undefined),
  )('accepts the spelling %s', (word) => {
    expect(help(word).sections.length).toBeGreaterThan(0);
    expect(help(word.toUpperCase().replace(/-/g, '_')).title).toBe(help(word).title);
  });

  it('keeps every section within Slack limits and escaped for mrkdwn', () => {
    for (const topic of [undefined, ...NOUNS.map((n) => n.name)]) {
      for (const section of help(topic).sections) {
        expect(section.length).toBeGreaterThan(0);
        expect(section.length).toBeLessThanOrEqual(2900);
        expect(section).not.toMatch(/[<>]/);
      }
    }
  });

  it('mentions what the contract check looks for', () => {
    const jobs = text(help('jobs'));
    for (const word of ['--scope', 'retry', 'trace', 'artifacts', '--pipeline']) expect(jobs).toContain(word);
    const schedule = text(help('schedule'));
    for (const word of ['create', 'take', 'cron', 'activate', 'delete']) expect(schedule).toContain(word);
  });

  it('describes the flags that take a person', () => {
    const issues = text(help('issue'));
    expect(issues).toContain('`--author <id|username|@person>`');
    expect(issues).toContain('`--assignee <id|username|@person>`');
    expect(issues).toContain('`--assignees <id|username|@person,…>`');
    expect(issues).toContain('Slack @mention');
    expect(text(help('mr'))).toContain('`--assignee <id|username|@person>`');
    expect(text(help('todos'))).toContain('`--author <id|username|@person>`');
    expect(text(help('events'))).toContain('`--user <id|username|@person>`');
    expect(text(help('digest'))).toContain('`--user <id|username|@person>`');
  });

  it('shows on|off for unfurl and true|false for the switches that take a value', () => {
    expect(text(help('unfurl'))).toContain('`/gl unfurl private on|off`');
    expect(text(help('schedule'))).toContain('`--active true|false`');
    expect(text(help('issue'))).toContain('`--confidential true|false`');
    expect(text(help('mr'))).toContain('`--remove-source-branch true|false`');
  });

  it('refuses an unknown topic with the closest noun', () => {
    const result = buildHelp('pipline', { slashCommand: '/gl' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.suggestion).toBe('pipeline');
      expect(plain(result.error.message).split('\n')[0]).toBe(
        'There is no help on `pipline`. Did you mean `pipeline`?',
      );
    }
    const far = buildHelp('zzzzzz', { slashCommand: '/gl' });
    expect(far.ok).toBe(false);
  });

  it('matches the topic the parser gives /gl help <noun>', () => {
    const command = accepted('help merge_requests');
    expect(command.key).toBe('help');
    if (command.key === 'help') expect(help(command.args.topic).title).toBe(help('mr').title);
    const parsed = parseCommand('help', { serverUrl: SERVER });
    expect(parsed.ok && parsed.command.key === 'help' && parsed.command.args.topic).toBe(undefined);
  });
});

describe('the usage hint', () => {
  it('is short and names the nouns and help', () => {
    const hint = usageHint();
    // A line of Slack's command menu; it grew from 120 with `insights`.
    expect(hint.length).toBeLessThanOrEqual(130);
    for (const noun of NOUNS.filter((n) => n.group !== 'account')) expect(hint).toContain(noun.name);
    expect(hint).toContain('help');
  });
});
