// The few lines of a failed job's trace that say why it failed, found by the first rule of EXCERPT_RULES that
// finds any. Pure: the trace's text in, the lines and the rule's name out; nothing is read or sent here.

import { redactTrace } from '../redact.js';
import { cleanLines, scriptLines } from './clean.js';
import { EXCERPT_RULES, type ExcerptRule } from './rules.js';

/** At most this many lines: enough for a test's name, its assertion and where it failed; a card stays a card. */
export const EXCERPT_MAX_LINES = 10;
/** A longer line keeps its start (what failed) and ends with `…`. */
export const EXCERPT_LINE_CHARS = 200;

export interface FailureExcerpt {
  /** The rule that found the lines: its id and where the lines came from ("pytest's summary"). */
  rule: { id: string; from: string };
  /** Colours and section markers removed, secrets redacted (`redactTrace`), each line at most EXCERPT_LINE_CHARS. */
  lines: string[];
}

const blank = (line: string) => line.trim() === '';

function blocksOf(rule: ExcerptRule, block: NonNullable<ExcerptRule['block']>, lines: readonly string[]): string[][] {
  const blocks: string[][] = [];
  let open: string[] | null = null;
  for (const line of lines) {
    if (block.start.test(line)) {
      open = [line];
      blocks.push(open);
    } else if (open && block.end?.test(line)) open = null;
    else if (open) open.push(line);
  }
  const counted = block.needs ? blocks.filter((b) => b.some((line) => block.needs?.test(line))) : blocks;
  const chosen = block.lastOnly ? counted.slice(-1) : counted;
  return chosen.map((b) => b.filter((line) => !blank(line) && !rule.skip?.test(line)));
}

function found(rule: ExcerptRule, lines: readonly string[]): string[] {
  if (rule.block) return blocksOf(rule, rule.block, lines).flat();
  const pick = rule.pick;
  if (!pick) return [];
  return lines.filter((line) => !blank(line) && pick.test(line) && !rule.skip?.test(line));
}

function kept(rule: ExcerptRule, lines: string[], room: number): string[] {
  if (lines.length <= room) return lines;
  if (rule.keep === 'first') return lines.slice(0, room);
  if (rule.keep === 'last') return lines.slice(lines.length - room);
  return [lines[0] as string, ...lines.slice(lines.length - (room - 1))];
}

function clipped(line: string): string {
  return line.length > EXCERPT_LINE_CHARS ? `${line.slice(0, EXCERPT_LINE_CHARS - 1)}…` : line;
}

/** The lines of `trace` that explain its job's failure, or null when no rule finds any (an empty trace). */
export function explainFailure(trace: string, rules: readonly ExcerptRule[] = EXCERPT_RULES): FailureExcerpt | null {
  // Redacted whole, before lines are cut from it: a secret spread over lines (a PEM block) is still found.
  const lines = redactTrace(scriptLines(cleanLines(trace)).join('\n')).split('\n');
  for (const rule of rules) {
    const explaining = found(rule, lines);
    if (explaining.length === 0) continue;
    const tally = rule.tally ? lines.findLast((line) => rule.tally?.test(line)) : undefined;
    const withTally = tally !== undefined && !explaining.includes(tally);
    const shown = kept(rule, explaining, EXCERPT_MAX_LINES - (withTally ? 1 : 0));
    if (withTally) shown.push(tally);
    return { rule: { id: rule.id, from: rule.from }, lines: shown.map(clipped) };
  }
  return null;
}
