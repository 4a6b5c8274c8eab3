import {
  allNouns,
  type Entry,
  entriesOf,
  entryByKey,
  lookupNoun,
  type Noun,
  nounCandidates,
  spellingsOfNoun,
} from './nouns.js';
import type { FlagSpec, NounGroup, TargetSpec } from './spec-types.js';
import { closest } from './suggest.js';
import { capitalize, echo, escapeMrkdwn, kebabCase } from './text.js';
import type { HelpText, UsageError } from './types.js';
import { DEFAULT_SLASH_COMMAND, example, flagSynopsis, nounsLine, synopsis, usageError } from './usage.js';
import { isListType } from './values.js';

/** Slack refuses section text over 3000 characters; stay clear of it after escaping. */
export const SECTION_LIMIT = 2900;

const GROUP_TITLES: Readonly<Record<NounGroup, string>> = {
  account: 'Account and channel',
  ci: 'CI: jobs, pipelines, schedules, deployments',
  insights: 'Insights',
  issues: 'Issues and merge requests',
  awards: 'Award emoji',
  activity: 'Todos, events, keys',
  digests: 'Digests',
  links: 'Link previews',
};

function targetHelp(target: TargetSpec, slash: string): string | undefined {
  switch (target) {
    case 'none':
      return undefined;
    case 'project':
      return `\`[<project>]\`: \`group/sub/project\`, a numeric project id or a link; left out, the channel's default (\`${slash} use\`).`;
    case 'issue':
      return '`<ref>` of an issue: `#12` (channel default project), `group/project#12`, `group/project 12` or a pasted issue link.';
    case 'merge_request':
      return '`<ref>` of a merge request: `!34` (channel default project), `group/project!34`, `group/project 34` or a pasted link.';
    case 'awardable':
      return '`<ref>` for emoji: `#12` (issue), `!34` (merge request) or `$5` (snippet), optionally after `group/project`, or a pasted link.';
    default:
      return `\`[<project>] <id>\` of a ${target}: \`123\` (channel default project), \`group/project 123\`${target === 'deployment' ? '' : ' or a pasted link'}.`;
  }
}

function describeFlag(flag: FlagSpec): string {
  let values = '';
  if (flag.type === 'enum') values = ` (one of ${flag.values.map((v) => `\`${v}\``).join(', ')})`;
  if (flag.type === 'enum-list') values = ` (any of ${flag.values.map((v) => `\`${v}\``).join(', ')})`;
  if (isListType(flag.type)) values += '; comma-separated or repeated';
  const spellings = (flag.aliases ?? []).map((a) => `\`--${kebabCase(a)}\``);
  const aliases = spellings.length > 0 ? ` _(also ${spellings.join(', ')})_` : '';
  return `• \`${flagSynopsis(flag)}\` — ${flag.summary}${values}${aliases}`;
}

function entryBlock(entry: Entry, slash: string): string {
  const aliases = entry.verbAliases && entry.verbAliases.length > 0 ? ` _(also ${entry.verbAliases.join(', ')})_` : '';
  const lines = [`*${capitalize(entry.summary)}*${aliases}`, `\`${synopsis(entry, slash, true)}\``];
  for (const flag of entry.flags as readonly FlagSpec[]) lines.push(describeFlag(flag));
  if (entry.shareable) lines.push('• `--share` — post the card in the channel, where it keeps itself up to date');
  lines.push(`e.g. \`${example(entry, slash)}\``);
  return lines.join('\n');
}

function nounHeader(noun: Noun, slash: string): string {
  const entries = entriesOf(noun);
  const verbs = [...new Set(entries.flatMap((e) => (e.verb === null ? [] : [e.verb])))];
  const spellings = spellingsOfNoun(noun);
  const lines = [`*\`${slash} ${noun.name}\`* — ${noun.summary}`];
  if (verbs.length > 0) lines.push(`Verbs: ${verbs.map((v) => `\`${v}\``).join(', ')}`);
  if (spellings.length > 1) lines.push(`Also written: ${spellings.map((w) => `\`${w}\``).join(', ')}`);
  const targets = [...new Set(entries.map((e) => e.target))];
  for (const target of targets) {
    const line = targetHelp(target, slash);
    if (line) lines.push(line);
  }
  if (entries.some((e) => e.access === 'read')) {
    lines.push('Add `--share` to a read to post the answer in the channel; otherwise only you see it.');
  }
  return lines.join('\n');
}

/** Pack blocks into as few sections as fit Slack's limit (measured after mrkdwn escaping). */
function packSections(blocks: string[]): string[] {
  const sections: string[] = [];
  let current = '';
  const fits = (text: string) => escapeMrkdwn(text).length <= SECTION_LIMIT;
  for (const block of blocks) {
    const joined = current === '' ? block : `${current}\n\n${block}`;
    if (fits(joined)) {
      current = joined;
      continue;
    }
    if (current !== '') sections.push(current);
    current = block;
    while (!fits(current)) {
      // A single block too long for one section: cut it at the last line that fits.
      const lines = current.split('\n');
      let head = '';
      while (lines.length > 0 && fits(head === '' ? (lines[0] ?? '') : `${head}\n${lines[0] ?? ''}`)) {
        head = head === '' ? (lines.shift() ?? '') : `${head}\n${lines.shift() ?? ''}`;
      }
      if (head === '') head = lines.shift()?.slice(0, SECTION_LIMIT / 2) ?? '';
      sections.push(head);
      current = lines.join('\n');
    }
  }
  if (current !== '') sections.push(current);
  return sections.map(escapeMrkdwn);
}

/** Which commands this bot carries out; help advertises only those. */
type Ships = (key: string) => boolean;

function overview(slash: string, ships: Ships): HelpText {
  const intro = [
    `\`${slash} <noun> [<verb>] [<target>] [<arguments>] [--flags]\``,
    `Answers are shown only to you; add \`--share\` to a read to post it in the channel. \`${slash} help <noun>\` shows one noun's verbs, flags and examples.`,
  ].join('\n');
  const groups = new Map<NounGroup, string[]>();
  for (const noun of allNouns()) {
    const entries = entriesOf(noun).filter((e) => ships(e.key));
    if (entries.length === 0) continue;
    const lines = groups.get(noun.group) ?? [];
    const only = entries.length === 1 ? entries[0] : undefined;
    if (only) {
      const full = synopsis(only, slash, true);
      lines.push(`• \`${full.length <= 60 ? full : synopsis(only, slash, false)}\` — ${noun.summary}`);
    } else {
      const word = noun.plural ?? noun.name;
      lines.push(`• \`${slash} ${word}\` — ${noun.summary}`);
    }
    groups.set(noun.group, lines);
  }
  const use = entryByKey('use');
  const blocks = [intro];
  for (const [group, lines] of groups) blocks.push(`*${GROUP_TITLES[group]}*\n${lines.join('\n')}`);
  blocks.push(
    [
      '*Targets*',
      '• a project: `group/sub/project` or its numeric id',
      '• `group/project#12` an issue, `group/project!34` a merge request, `group/project$5` a snippet',
      '• `group/project 123` after `job`, `pipeline`, `schedule` or `deployment`',
      '• a pasted link to an issue, merge request, job, pipeline or schedule of this server',
      `• \`#12\`, \`!34\`, \`$5\` or a bare id: in the channel's default project (\`${synopsis(use, slash, false)}\`)`,
      'Quote text with spaces: `"…"` or `\'…\'`.',
    ].join('\n'),
  );
  return { title: `${slash}: GitLab from Slack`, sections: packSections(blocks) };
}

function nounHelp(noun: Noun, slash: string, ships: Ships): HelpText {
  const blocks = [
    nounHeader(noun, slash),
    ...(noun.notes ?? []),
    ...entriesOf(noun)
      .filter((e) => ships(e.key))
      .map((e) => entryBlock(e, slash)),
  ];
  return { title: `${slash} ${noun.name}: help`, sections: packSections(blocks) };
}

export type HelpResult = { ok: true; help: HelpText } | { ok: false; error: UsageError };

/** `/gl help` (no topic) or `/gl help <noun>` (any spelling of the noun), generated from the spec table. */
export function buildHelp(
  topic: string | undefined,
  options: { slashCommand?: string; ships?: Ships } = {},
): HelpResult {
  const slash = options.slashCommand ?? DEFAULT_SLASH_COMMAND;
  const ships = options.ships ?? (() => true);
  const word = topic?.trim() ?? '';
  if (word === '') return { ok: true, help: overview(slash, ships) };
  const hit = lookupNoun(word);
  if (hit && entriesOf(hit.noun).some((e) => ships(e.key))) return { ok: true, help: nounHelp(hit.noun, slash, ships) };
  if (hit) return { ok: false, error: { message: escapeMrkdwn(`${echo(word)} is not carried out by this bot yet.`) } };
  const suggestion = closest(word, nounCandidates());
  const near = suggestion === undefined ? undefined : lookupNoun(suggestion)?.noun;
  if (suggestion !== undefined && near !== undefined) {
    return { ok: false, error: usageError(`There is no help on ${echo(word)}.`, { noun: near, suggestion, slash }) };
  }
  return { ok: false, error: { message: escapeMrkdwn(`There is no help on ${echo(word)}. ${nounsLine(slash)}`) } };
}

/** The manifest's usage hint: the shape of a command and the nouns, short enough for Slack's command menu. */
export function usageHint(): string {
  const nouns = allNouns()
    .filter((n) => n.group !== 'account')
    .map((n) => n.name);
  return `[${[...nouns, 'help'].join('|')}] [verb] [target] [flags]`;
}
