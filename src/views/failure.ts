import type { Button } from '@slack/types';
import { JobButtons } from '../buttons/ci.js';
import type { FailureVerdict } from '../failure/history.js';
import type { FailureNote } from '../failure/note.js';
import { onServer, type Project, projectButtonKey, projectPageUrl } from '../gitlab/project.js';
import { type Block, button, context, section } from './blocks.js';
import { LIMITS } from './limits.js';
import { bold, code, escapeText, italic, linked, Md, md, type Text } from './mrkdwn.js';
import { shortSha } from './status.js';

// Why a job failed, as every failure surface shows it: the trace's explaining lines in a code block with the
// Trace button beside it, where they came from ("from pytest's summary"), and whether the job is flaky or broken.

/** "flaky? failed 3 of the last 10 runs of `unit-tests` on `main`" or "failing since 4f2a9c1e *Bump vite*". */
export function verdictText(verdict: FailureVerdict): Md {
  if (verdict.kind === 'flaky') {
    const why = verdict.sameCommit ? ', passed and failed on the same commit' : '';
    return md`:warning: flaky? failed ${verdict.failed} of the last ${verdict.runs} runs of ${code(verdict.name)} on ${code(verdict.ref)}${why}`;
  }
  const runs = verdict.failedRuns > 1 ? ` (${verdict.failedRuns} runs)` : '';
  const title = verdict.since.title ? md` ${italic(verdict.since.title.split('\n')[0] ?? '')}` : '';
  return md`:rotating_light: failing since ${code(shortSha(verdict.since.sha))}${title}${runs}`;
}

/** The excerpt's lines as a code block of at most `budget` characters as sent: lines that do not fit are left out. */
function codeBlock(lines: readonly string[], budget: number): Md | null {
  const shown: string[] = [];
  let size = 6;
  for (const line of lines) {
    const escaped = escapeText(line.replace(/```/g, "'''"));
    if (size + escaped.length + 1 > budget) break;
    shown.push(escaped);
    size += escaped.length + 1;
  }
  return shown.length > 0 ? Md.trusted(`\`\`\`${shown.join('\n')}\`\`\``) : null;
}

function traceButton(project: Project, jobId: number, slot: string): Button {
  return button({ text: 'Trace', def: JobButtons.trace, value: { p: projectButtonKey(project), j: jobId }, slot });
}

export interface FailureBlocksOptions {
  project: Project;
  serverUrl: string;
  /** Each note starts with its job's name (a pipeline's several failed jobs); a job's own card leaves it out. */
  named: boolean;
  /** A Trace button beside each excerpt (a card that has its own Trace button leaves it out). */
  traceButtons: boolean;
  /** Failed jobs not explained here ("and 2 more"). */
  more?: number;
}

/** One note's blocks: its excerpt under `title` (when there is one), Trace beside it, then its source and verdict. */
export function noteBlocks(
  note: FailureNote,
  o: { project: Project; title: Md | null; traceButton: string | null; alwaysTitle?: boolean },
): Block[] {
  const blocks: Block[] = [];
  const head = o.title ? md`${o.title}\n` : md``;
  const block = note.excerpt ? codeBlock(note.excerpt.lines, LIMITS.sectionText - head.text.length) : null;
  const accessory = o.traceButton ? traceButton(o.project, note.job.id, o.traceButton) : undefined;
  if (block) blocks.push(section(md`${head}${block}`, accessory));
  else if (o.title && o.alwaysTitle) blocks.push(section(md`${o.title} · _the trace says nothing more_`, accessory));
  const about: Text[] = [];
  if (note.excerpt && block) about.push(`from ${note.excerpt.rule.from}`);
  if (note.verdict) about.push(verdictText(note.verdict));
  if (about.length > 0) blocks.push(context(about));
  return blocks;
}

/** "and 2 more failed jobs", when some were not explained. */
export function moreFailedBlocks(more: number | undefined): Block[] {
  return more && more > 0 ? [context([`and ${more} more failed job${more === 1 ? '' : 's'}`])] : [];
}

/** The blocks that say why: for each note, its excerpt with Trace beside it, then where it came from and the verdict. */
export function failureBlocks(notes: readonly FailureNote[], o: FailureBlocksOptions): Block[] {
  const blocks: Block[] = [];
  notes.forEach((note, i) => {
    const title = o.named
      ? md`:x: ${bold(
          linked(
            onServer(o.serverUrl, note.job.web_url) ?? projectPageUrl(o.serverUrl, o.project, `-/jobs/${note.job.id}`),
            note.job.name,
          ),
        )} #${note.job.id}`
      : md`*Why it failed*`;
    const traceButton = o.traceButtons ? `f${i}` : null;
    blocks.push(...noteBlocks(note, { project: o.project, title, traceButton, alwaysTitle: o.named }));
  });
  blocks.push(...moreFailedBlocks(o.more));
  return blocks;
}
