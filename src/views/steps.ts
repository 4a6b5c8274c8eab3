import type { Button } from '@slack/types';
import { type ConsentAnswer, consentActionId, encodeConsentValue } from '../buttons/step-consent.js';
import { StepConsentButtons } from '../buttons/steps.js';
import { NotConnectedError, RefusedError, TokenRevokedError, TokenUnreadableError } from '../errors.js';
import {
  ForbiddenError,
  GitlabError,
  NotFoundError,
  RateLimitedError,
  UnauthorizedError,
  UnavailableError,
} from '../gitlab/errors.js';
import { onServer } from '../gitlab/project.js';
import type { StepConsent } from '../store/step-store.js';
import {
  actions,
  type Block,
  button,
  context,
  fields,
  header,
  message,
  plain,
  type SlackMessage,
  section,
} from './blocks.js';
import { formatDateTime } from './format.js';
import { LIMITS, truncate } from './limits.js';
import { bold, code, link, linked, md, type Text } from './mrkdwn.js';

// What a Workflow Builder step shows: the DM that asks its person (the step, its inputs as the workflow gave them,
// the run of the workflow as far as Slack names it, Allow once / Always … / Deny), that DM once answered, the
// sentence a step fails with, and the "Always" consents listed on the Home tab and by whoami, with Revoke.

/** What a view shows of a step: steps/definitions.ts defines each step, and gives at least this. */
export interface ShownStep {
  id: string;
  /** As the manifest titles it: "Run a pipeline". */
  title: string;
  /** The inputs the person is shown, in order, with their labels. */
  shown: readonly (readonly [key: string, label: string])[];
}

/** What a completed step hands back to its workflow, by output name. */
type StepOutputs = Readonly<Record<string, string | number>>;

export interface ConsentQuestion {
  step: ShownStep;
  executionId: string;
  inputs: Readonly<Record<string, string>>;
  /** Slack's id of this run of the workflow (the event names no workflow that runs again). */
  workflowExecutionId: string | null;
  /** What "Always" covers, in words ("Run a pipeline on demo/web at main"); null: only Allow once is offered. */
  alwaysLabel: string | null;
  serverUrl: string;
  slashCommand: string;
}

/** An input as its person reads it: cut to what a glance takes in, escaped where it is placed. */
const SHOWN_INPUT_MAX = 500;

function inputFields(q: ConsentQuestion): Text[] {
  const out: Text[] = [];
  for (const [key, label] of q.step.shown) {
    const value = q.inputs[key];
    if (!value) continue;
    out.push(md`*${label}*\n${truncate(value, SHOWN_INPUT_MAX)}`);
  }
  return out;
}

function askedLine(q: ConsentQuestion): Text {
  const run = q.workflowExecutionId ? md` (run ${code(q.workflowExecutionId)})` : '';
  return md`A Slack workflow${run} reached its step ${bold(q.step.title)}, which acts as *you* with your connection to ${link(q.serverUrl, q.serverUrl)}. Nothing is done unless you allow it.`;
}

/** "Always for Run a pipeline on demo/web", within a button's 75 characters. */
export function alwaysButtonText(label: string): string {
  return truncate(`Always for ${label}`, LIMITS.buttonText);
}

function consentButtons(q: ConsentQuestion): Button[] {
  const value = encodeConsentValue(q.executionId);
  const make = (answer: ConsentAnswer, text: string, style?: 'primary' | 'danger'): Button => ({
    type: 'button',
    text: plain(text, LIMITS.buttonText),
    action_id: consentActionId(answer),
    value,
    ...(style ? { style } : {}),
  });
  return [
    make('once', 'Allow once', 'primary'),
    ...(q.alwaysLabel ? [make('always', alwaysButtonText(q.alwaysLabel))] : []),
    make('deny', 'Deny', 'danger'),
  ];
}

export function buildConsentQuestion(q: ConsentQuestion): SlackMessage {
  const blocks: Block[] = [header(`A workflow asks to act as you: ${q.step.title}`), section(askedLine(q))];
  const shown = inputFields(q);
  if (shown.length > 0) blocks.push(fields(shown));
  blocks.push(
    { type: 'actions', block_id: 'step_consent', elements: consentButtons(q) },
    context([
      q.alwaysLabel
        ? md`Only you can answer; without an answer within an hour the step fails. “Always” covers ${q.alwaysLabel} from any workflow, and nothing else (another branch or project asks again), until you revoke it (${code(`${q.slashCommand} whoami`)} and your Home list it).`
        : md`Only you can answer; without an answer within an hour the step fails. There is no “Always” for this step: its title and text are the workflow's to choose, so each one is asked about.`,
    ]),
  );
  return message(
    md`A workflow asks to act as you: ${q.step.title} (${q.inputs.project ?? ''}). Allow once, always, or deny?`,
    blocks,
  );
}

/** What came of a step, as its person's DM says once it is answered (or was not). */
export type StepResult =
  | { kind: 'completed'; outputs: StepOutputs }
  | { kind: 'failed'; sentence: string }
  | { kind: 'denied' }
  | { kind: 'expired' };

function answerLine(answer: ConsentAnswer | 'expired', q: ConsentQuestion): Text {
  switch (answer) {
    case 'once':
      return ':white_check_mark: You allowed it once.';
    case 'always':
      return q.alwaysLabel
        ? md`:white_check_mark: You allowed ${q.alwaysLabel} always; Revoke it on your Home or with ${code(`${q.slashCommand} whoami`)}.`
        : ':white_check_mark: You allowed it once.';
    case 'deny':
      return ':no_entry: You denied it: nothing was done, and the workflow stops at this step.';
    case 'expired':
      return ':hourglass: Nobody answered within an hour: nothing was done, and the workflow stopped at this step.';
  }
}

function resultLine(q: Pick<ConsentQuestion, 'step' | 'serverUrl'>, result: StepResult): Text | null {
  if (result.kind === 'failed') return md`:warning: The step failed: ${result.sentence}`;
  if (result.kind !== 'completed') return null;
  const o = result.outputs;
  // The outputs are drawn on the configured host already; a link goes nowhere else all the same.
  const onHost = (url: unknown) => (typeof url === 'string' ? onServer(q.serverUrl, url) : null);
  if (q.step.id === 'run_pipeline') {
    const label = `pipeline #${o.pipeline_id}`;
    return md`:rocket: Started ${linked(onHost(o.pipeline_url), label)} (${String(o.status ?? '')}).`;
  }
  const label = `issue #${o.issue_iid}`;
  return md`:memo: Created ${linked(onHost(o.issue_url), label)}.`;
}

/** The consent DM once answered: the question without its buttons, the answer, and what came of it. */
export function buildConsentAnswered(
  q: ConsentQuestion,
  answer: ConsentAnswer | 'expired',
  result: StepResult,
): SlackMessage {
  const lines: Text[] = [answerLine(answer, q)];
  const outcome = resultLine(q, result);
  if (outcome) lines.push(outcome);
  const blocks: Block[] = [header(`A workflow asked to act as you: ${q.step.title}`), section(askedLine(q))];
  const shown = inputFields(q);
  if (shown.length > 0) blocks.push(fields(shown));
  blocks.push(...lines.map((l) => section(l)));
  return message(md`A workflow asked to act as you: ${q.step.title} (${q.inputs.project ?? ''}).`, blocks);
}

export interface ConsentUsed {
  step: ShownStep;
  project: string;
  /** Slack's id of this run of the workflow, when it named one. */
  workflowExecutionId: string | null;
  /** The consent the step acted under: its scope (what Revoke takes back) and its words. */
  consent: { scope: string; label: string };
  result: StepResult;
  serverUrl: string;
  slashCommand: string;
}

/**
 * The DM a step sends its person when it acted as them under their "Always", without asking: what ran, for which
 * step of which run, what came of it (linked on the configured host), and Revoke (the Home's and whoami's button).
 */
export function buildConsentUsed(u: ConsentUsed): SlackMessage {
  const run = u.workflowExecutionId ? md` (run ${code(u.workflowExecutionId)})` : '';
  const lines: Text[] = [
    md`:robot_face: A Slack workflow${run} reached its step ${bold(u.step.title)} and it acted as you on ${code(u.project)}, under your “Always for ${u.consent.label}”.`,
  ];
  const outcome = resultLine(u, u.result);
  if (outcome) lines.push(outcome);
  return message(md`A workflow step acted as you: ${u.step.title} on ${u.project}.`, [
    ...lines.map((l) => section(l)),
    actions([button({ text: 'Revoke', def: StepConsentButtons.revoke, value: { s: u.consent.scope } })]),
    context([
      md`Revoke takes back this “Always”: the next run asks you first. ${code(`${u.slashCommand} whoami`)} and your Home list every one.`,
    ]),
  ]);
}

export interface FailureContext {
  /** The person the step acts as, as people read them ("@alice"). */
  person: string;
  project: string;
  ref?: string;
  serverUrl: string;
  slashCommand: string;
}

/** The sentence a step fails with (Slack shows it in the workflow's activity): plain words, no markup. */
export function stepFailureSentence(err: unknown, c: FailureContext): string {
  const say = (s: string) => truncate(s, 1000);
  if (err instanceof NotConnectedError) {
    return say(`${c.person} is not connected to ${c.serverUrl}; they can connect with ${c.slashCommand} connect.`);
  }
  if (err instanceof TokenRevokedError || err instanceof TokenUnreadableError) {
    return say(
      `${c.person}'s connection to ${c.serverUrl} no longer works; they can connect again with ${c.slashCommand} connect.`,
    );
  }
  if (err instanceof RefusedError) {
    const r = err.refusal;
    if (r.reason === 'no_ref') return say(`${c.project} has no branch or tag ${c.ref ?? ''}.`);
    if (r.status === 404) return say(`No project ${c.project} on ${c.serverUrl}, or ${c.person} cannot see it.`);
    return say(
      `The server refused it for ${c.person} (${r.status ?? 'no answer'})${r.serverMessage ? `: ${r.serverMessage}` : '.'}`,
    );
  }
  if (err instanceof NotFoundError)
    return say(`No project ${c.project} on ${c.serverUrl}, or ${c.person} cannot see it.`);
  if (err instanceof ForbiddenError || err instanceof UnauthorizedError) {
    return say(
      `The server refused it for ${c.person} (${err.status})${err.serverMessage ? `: ${err.serverMessage}` : '.'}`,
    );
  }
  if (err instanceof RateLimitedError)
    return say('The server is rate limiting requests; nothing was done. Run the workflow again later.');
  if (err instanceof UnavailableError) {
    return say(`The server at ${c.serverUrl} is unavailable; the step may not have been carried out.`);
  }
  if (err instanceof GitlabError) {
    return say(
      `The server refused it (${err.status ?? 'no answer'})${err.serverMessage ? `: ${err.serverMessage}` : '.'}`,
    );
  }
  return 'Something unexpected went wrong in the bot; whoever runs it can find it in its log.';
}

/** The sentence of a step its person did not allow (Deny, or no answer within the hour). */
export function notAllowedSentence(person: string, expired: boolean): string {
  return expired ? `not allowed by ${person}: no answer within an hour` : `not allowed by ${person}`;
}

/** The sentence of a step whose replica died while it ran: it is not run again (it may have been carried out). */
export function abandonedSentence(project: string): string {
  return truncate(
    `the bot restarted while this step ran; check ${project} for whether it ran (it was not run again).`,
    1000,
  );
}

/** The sentence of a step whose inputs the bot cannot use. */
export function badInputSentence(reason: string): string {
  return truncate(`The step's inputs cannot be used: ${reason}.`, 1000);
}

/** "Ran under it: 3 times in the last day, the latest 3 Mar 2026, 14:02 (completed)". */
function ranUnder(runs: StepConsent['runs'], timeZone: string): string {
  const [latest] = runs;
  const times = runs.length === 1 ? 'once' : `${runs.length} times`;
  const outcome = latest?.outcome && latest.outcome !== 'allowed' ? ` (${latest.outcome})` : ' (running)';
  return `Ran under it: ${times} in the last day, the latest ${latest ? formatDateTime(latest.at, timeZone) : ''}${outcome}`;
}

/**
 * The person's "Always" answers to steps, each with Revoke and the runs made under it without asking: on the Home
 * tab and under whoami. Empty when none.
 */
export function buildStepConsentBlocks(consents: readonly StepConsent[], timeZone = 'UTC'): Block[] {
  if (consents.length === 0) return [];
  const rows = consents
    .slice(0, 10)
    .flatMap((c) => [
      section(
        md`${c.label} · since ${formatDateTime(c.grantedAt, timeZone)}`,
        button({ text: 'Revoke', def: StepConsentButtons.revoke, value: { s: c.scope } }),
      ),
      ...(c.runs.length > 0 ? [context([ranUnder(c.runs, timeZone)])] : []),
    ]);
  const more = consents.length > 10 ? [context([`…and ${consents.length - 10} more.`])] : [];
  return [section(':key: *Workflow steps you always allow* (they act as you without asking)'), ...rows, ...more];
}

export function buildStepConsentRevoked(label: string | null): SlackMessage {
  if (label === null) return message('That “Always” was already revoked: the next run of the step asks you again.');
  return message(md`Revoked: ${label} asks you again the next time a workflow runs it.`);
}
