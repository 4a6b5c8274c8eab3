import { expect } from 'vitest';
import { findLimitViolations } from '../../src/views/limits.js';
import type { FakeRecord, FakeSlack } from './fake-slack.js';
import { Interaction, messageText } from './slack-driver.js';
import { TOKENS } from './start-sim.js';

// Checks every surface a test made the bot show: Slack accepted it, it fits Slack's
// limits, and what a person reads has none of the bot's insides in it.

/** Words that must never reach a person: leftovers of a bug, not of the server's data. */
const UNREADABLE: [RegExp, string][] = [
  [/\bundefined/, '"undefined"'],
  [/\bNaN/, '"NaN"'],
  [/\[object \w+\]/, '"[object …]"'],
  [/^\s*at \S+ \(?\S+:\d+:\d+\)?\s*$/m, 'a stack frame'],
  [/\b(?:Type|Reference|Syntax|Range)Error\b/, 'a JavaScript error name'],
  [/\bE(?:CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|PIPE|AI_AGAIN|NETUNREACH|ADDRINUSE|HOSTUNREACH)\b/, 'an errno code'],
  [/\bERR_[A-Z_]{3,}\b/, 'a Node error code'],
  [/\bgitlab_[a-z_]+\b/, 'an internal error code'],
  [/PRIVATE-TOKEN/i, 'a token header'],
];

/** What is wrong with a text a person reads; code blocks (traces, the server's own output) are left out. */
export function findUnreadable(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '```…```');
  const out = UNREADABLE.filter(([re]) => re.test(prose)).map(([, what]) => what);
  for (const token of Object.values(TOKENS)) if (text.includes(token)) out.push('a token');
  return out;
}

type Surface = { text?: unknown; blocks?: unknown };

/** Texts a person reads on a message: its text, blocks, button labels and the confirm dialogs of its buttons. */
function visibleText(m: Surface): string {
  const blocks = Array.isArray(m.blocks) ? (m.blocks as Record<string, unknown>[]) : [];
  const parts = [messageText({ text: typeof m.text === 'string' ? m.text : '', blocks })];
  for (const b of blocks) {
    const elements = [...(Array.isArray(b.elements) ? b.elements : []), b.accessory] as (
      | { confirm?: Record<string, { text?: string }> }
      | undefined
    )[];
    for (const e of elements) {
      for (const part of Object.values(e?.confirm ?? {})) if (typeof part?.text === 'string') parts.push(part.text);
    }
  }
  return parts.join('\n');
}

/** The message a record carried as it was sent (not the stored message, which later calls may change). */
function sentMessage(r: FakeRecord): Surface | null {
  const isMessageCall =
    r.kind === 'response_url' || ['chat.postMessage', 'chat.postEphemeral', 'chat.update'].includes(r.method);
  if (!isMessageCall) return null;
  if (r.body.delete_original === true || r.body.delete_original === 'true') return null;
  return { text: r.body.text, blocks: r.body.blocks };
}

/** Every problem of these records and ack messages, as lines that say where. */
export function findSurfaceProblems(records: FakeRecord[], extra: Surface[] = []): string[] {
  const problems: string[] = [];
  const check = (where: string, m: Surface) => {
    for (const v of findLimitViolations(m)) problems.push(`${where}: ${v}`);
    const text = visibleText(m);
    for (const u of findUnreadable(text)) problems.push(`${where}: shows ${u}: ${text.slice(0, 300)}`);
    // The bot never notifies a whole channel: a raw <!…> can only be server text that escaped escaping.
    if (/<!(?:channel|here|everyone|subteam)/.test(text))
      problems.push(`${where}: notifies everyone: ${text.slice(0, 300)}`);
  };
  extra.forEach((m, i) => {
    check(`ack message ${i + 1}`, m);
  });
  for (const r of records) {
    const where = `#${r.seq} ${r.method}`;
    for (const v of r.violations) problems.push(`${where}: refused by Slack's limits: ${v}`);
    if (!r.ok) problems.push(`${where}: Slack answered ${r.error ?? 'not ok'}`);
    const sent = sentMessage(r);
    if (sent) check(where, sent);
    if (r.view) check(where, r.view);
    if (r.method === 'files.completeUploadExternal' && typeof r.body.initial_comment === 'string') {
      for (const u of findUnreadable(r.body.initial_comment)) problems.push(`${where}: comment shows ${u}`);
    }
  }
  return problems;
}

/**
 * Every message, card and modal of an interaction (or of a fake Slack since `fromSeq`) was
 * accepted, fits Slack's block and text limits, and reads without stack traces, `undefined`,
 * `NaN`, `[object Object]`, raw error codes or tokens.
 */
export function expectWithinLimits(target: Interaction | FakeSlack, fromSeq = 0): void {
  if (target instanceof Interaction) {
    expect(target.violations()).toEqual([]);
    expect(findSurfaceProblems(target.records(), target.ackMessage ? [target.ackMessage] : [])).toEqual([]);
    return;
  }
  expect(findSurfaceProblems(target.since(fromSeq))).toEqual([]);
}

/** The bot logged no unexpected error (each would have shown the person a reference id). */
export function expectNoUnexpectedErrors(logs: readonly string[], fromIndex = 0): void {
  expect(logs.slice(fromIndex).filter((l) => /unexpected error/i.test(l))).toEqual([]);
}
