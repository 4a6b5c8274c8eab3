import type { ConsentAnswer } from '../buttons/step-consent.js';
import { connectionProblem } from '../connection.js';
import { NotConnectedError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Actor, RequestContext, Session } from '../operations/context.js';
import type { StepExecution, StepStore } from '../store/step-store.js';
import type { SlackMessage } from '../views/blocks.js';
import {
  abandonedSentence,
  badInputSentence,
  buildConsentAnswered,
  buildConsentQuestion,
  buildConsentUsed,
  type ConsentQuestion,
  notAllowedSentence,
  type StepResult,
  stepFailureSentence,
} from '../views/steps.js';
import {
  isStepId,
  projectOfInput,
  STEPS,
  type StepDefinition,
  type StepId,
  type StepOutputs,
  type StepRunDeps,
  scopeOf,
} from './definitions.js';

// Workflow Builder steps, from Slack's function_executed to the step completed or failed. A step never acts as a
// person on the word of whoever built the workflow: unless the person said "Always" to this step on this project
// with these steering inputs (definitions.ts, scopeOf), they are asked in a DM first, and the execution waits in the database (any replica, after any restart, takes the
// answer; the sweep fails it after an hour). Every move is decided by the store (store/step-store.ts), so a
// redelivered event or a double click does one thing. Slack is reached through a port (StepSlack) that the
// listener implements with the Web API.

/** How the steps reach Slack. Tokens are workflow tokens; none is ever logged. */
export interface StepSlack {
  /** Posts the question into the person's DM with the execution's workflow token (a click then carries a new one). */
  ask(token: string, userId: string, m: SlackMessage): Promise<{ channel: string; ts: string }>;
  /** Posts a message of the bot's own into the person's DM (with the bot's token: it outlives the execution). */
  tell(userId: string, m: SlackMessage): Promise<void>;
  /** Draws the question again once it is answered. */
  redraw(dm: { channel: string; ts: string }, m: SlackMessage): Promise<void>;
  /** functions.completeSuccess with the first of `tokens` Slack accepts. */
  complete(executionId: string, outputs: StepOutputs, tokens: readonly string[]): Promise<void>;
  /** functions.completeError likewise. */
  fail(executionId: string, error: string, tokens: readonly string[]): Promise<void>;
  /** The person as people read them: "@alice". */
  nameOf(userId: string): Promise<string>;
}

/** A function_executed for one of the steps, as the listener read it. */
export interface ExecutedStep {
  executionId: string;
  workflowExecutionId: string | null;
  teamId: string;
  step: StepId;
  /** The inputs as Slack sent them (checked here). */
  inputs: unknown;
  /** The workflow token (bot_access_token). */
  token: string;
}

export interface ConsentClick {
  executionId: string;
  teamId: string;
  userId: string;
  answer: ConsentAnswer;
  /** The workflow token the click carried (a click on a message posted with one carries a fresh one). */
  token: string | null;
}

export interface StepService {
  /** What came of a function_executed: 'again' when it had been received already. */
  executed(e: ExecutedStep): Promise<'started' | 'asked' | 'failed' | 'again'>;
  /**
   * A consent click; 'stale' when the question was answered already or expired; `askedOf` (the person it asks)
   * when the clicker is someone else, and nothing changed.
   */
  answered(c: ConsentClick): Promise<'done' | 'stale' | { askedOf: string }>;
  /**
   * Fails the executions nobody answered within their hour, and those left running by a replica that died while
   * they ran (never run again); how many (each is taken by one replica).
   */
  sweep(): Promise<number>;
}

export interface StepServiceOptions {
  store: StepStore;
  slack: StepSlack;
  run: StepRunDeps;
  /** The session of the person a step acts as (asks the server again about a token marked revoked). */
  sessionOf(actor: Actor): Session;
  now(): Date;
  logger: Logger;
  serverUrl: string;
  /** GITLAB_URL: the server people's connections are made to. */
  gitlabUrl: string;
  slashCommand: string;
  /** How long a question waits for its answer (default an hour). */
  waitMs?: number;
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * How long a running step holds its lease: longer than any run (the server's calls time out in seconds). Past it,
 * its replica is taken for dead: the next sweep (every 30 s, on any replica) fails it with a sentence and redraws
 * its DM, instead of the hour and more a question waits.
 */
export const STEP_RUN_LEASE_MS = 2 * 60 * 1000;

export function createStepService(o: StepServiceOptions): StepService {
  const log = o.logger.child({ component: 'steps' });
  const waitMs = o.waitMs ?? HOUR_MS;

  const definitionOf = (e: Pick<StepExecution, 'step'>): StepDefinition | null =>
    isStepId(e.step) ? STEPS[e.step] : null;

  const questionOf = (e: StepExecution, def: StepDefinition): ConsentQuestion => ({
    step: def,
    executionId: e.executionId,
    inputs: e.inputs,
    workflowExecutionId: e.workflowExecutionId,
    alwaysLabel: scopeOf(def, e.project, e.inputs)?.label ?? null,
    serverUrl: o.serverUrl,
    slashCommand: o.slashCommand,
  });

  /** The click's fresh token first, then the one stored with the execution. */
  const tokensOf = (fresh: string | null, e: StepExecution): string[] =>
    [fresh, e.openToken()].filter((t): t is string => typeof t === 'string' && t !== '');

  const nameOf = async (userId: string) => {
    try {
      return await o.slack.nameOf(userId);
    } catch {
      return `<@${userId}>`;
    }
  };

  /** Tells Slack how the step ended; a refusal from Slack is logged (the execution is done either way). */
  const settle = async (e: StepExecution, tokens: readonly string[], end: StepResult) => {
    try {
      if (end.kind === 'completed') await o.slack.complete(e.executionId, end.outputs, tokens);
      else if (end.kind === 'failed') await o.slack.fail(e.executionId, end.sentence, tokens);
      else {
        const sentence = notAllowedSentence(await nameOf(e.userId), end.kind === 'expired');
        await o.slack.fail(e.executionId, sentence, tokens);
      }
    } catch (err) {
      log.warn('Slack did not take the end of a workflow step', {
        execution: e.executionId,
        step: e.step,
        error: err instanceof Error ? err.message : String(err),
      });
    }
    await o.store.finish(e.executionId, end.kind);
  };

  const redraw = async (e: StepExecution, answer: ConsentAnswer | 'expired', end: StepResult) => {
    const def = definitionOf(e);
    if (!e.dm || !def) return;
    try {
      await o.slack.redraw(e.dm, buildConsentAnswered(questionOf(e, def), answer, end));
    } catch (err) {
      log.warn('could not redraw the question of a workflow step', {
        execution: e.executionId,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  };

  const failureOf = async (err: unknown, e: StepExecution): Promise<StepResult> => ({
    kind: 'failed',
    sentence: stepFailureSentence(err, {
      person: await nameOf(e.userId),
      project: e.project,
      ...(e.inputs.ref ? { ref: e.inputs.ref } : {}),
      serverUrl: o.serverUrl,
      slashCommand: o.slashCommand,
    }),
  });

  /** Carries the step out as its person (the execution is running: this caller owns it). */
  const run = async (e: StepExecution, fresh: string | null): Promise<StepResult> => {
    const def = definitionOf(e);
    const tokens = tokensOf(fresh, e);
    if (!def) {
      const end: StepResult = { kind: 'failed', sentence: badInputSentence(`no step ${e.step}`) };
      await settle(e, tokens, end);
      return end;
    }
    const actor: Actor = { teamId: e.teamId, userId: e.userId, userName: e.userId };
    const ctx: RequestContext = { actor, channelId: null, now: o.now(), session: o.sessionOf(actor) };
    let end: StepResult;
    try {
      end = { kind: 'completed', outputs: await def.run(ctx, projectOfInput(e.project), e.inputs, o.run) };
    } catch (err) {
      end = await failureOf(err, e);
      if (end.kind === 'failed' && end.sentence.startsWith('Something unexpected')) {
        log.error('a workflow step failed unexpectedly', {
          execution: e.executionId,
          step: e.step,
          error: err instanceof Error ? err : new Error(String(err)),
        });
      }
    }
    await settle(e, tokens, end);
    return end;
  };

  /** Tells the person a step acted as them under their "Always": once, whoever claims the row's notice. */
  const tellConsentUsed = async (e: StepExecution, def: StepDefinition, result: StepResult) => {
    try {
      if (!(await o.store.claimConsentNotice(e.executionId))) return;
      const scope = scopeOf(def, e.project, e.inputs);
      if (!scope) return;
      const m = buildConsentUsed({
        step: def,
        project: e.project,
        workflowExecutionId: e.workflowExecutionId,
        consent: { scope: scope.key, label: scope.label },
        result,
        serverUrl: o.serverUrl,
        slashCommand: o.slashCommand,
      });
      await o.slack.tell(e.userId, m);
    } catch (err) {
      log.warn('could not tell a person that a workflow step acted as them', {
        execution: e.executionId,
        step: e.step,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  };

  return {
    async executed(x) {
      const def = STEPS[x.step];
      const decoded = def.decode(x.inputs);
      const raw = (x.inputs && typeof x.inputs === 'object' ? x.inputs : {}) as Record<string, unknown>;
      const userId = decoded.ok ? decoded.step.userId : typeof raw.user_id === 'string' ? raw.user_id : '';
      const project = decoded.ok ? decoded.step.project : '';
      const scope = decoded.ok ? scopeOf(def, project, decoded.step.inputs) : null;
      // Storing it is the claim: a redelivery (a retry, another replica) stores nothing and does nothing.
      const fresh = await o.store.receive({
        executionId: x.executionId,
        teamId: x.teamId,
        userId: userId.slice(0, 64),
        step: def.id,
        project,
        inputs: decoded.ok ? decoded.step.inputs : {},
        workflowExecutionId: x.workflowExecutionId,
        scope: scope?.key ?? '',
        token: x.token,
        expiresAt: new Date(o.now().getTime() + waitMs),
      });
      if (!fresh) {
        log.info('a workflow step delivered again was not run again', { execution: x.executionId, step: def.id });
        return 'again';
      }
      const stored = await o.store.get(x.executionId);
      if (!stored) return 'again';
      if (!decoded.ok) {
        await settle(stored, [x.token], { kind: 'failed', sentence: badInputSentence(decoded.reason) });
        return 'failed';
      }
      if (scope && (await o.store.allows(x.teamId, userId, scope.key))) {
        const started = await o.store.startAllowed(x.executionId, STEP_RUN_LEASE_MS);
        if (!started) return 'again';
        const end = await run(started, x.token);
        await tellConsentUsed(started, def, end);
        return end.kind === 'completed' ? 'started' : 'failed';
      }
      // Someone with no connection at all is not asked: the step could not act as them anyway.
      const actor: Actor = { teamId: x.teamId, userId, userName: userId };
      const problem = connectionProblem(await o.sessionOf(actor).connection(), o.gitlabUrl);
      if (problem === 'not_connected' || problem === 'other_server') {
        await settle(stored, [x.token], await failureOf(new NotConnectedError(), stored));
        return 'failed';
      }
      try {
        const dm = await o.slack.ask(x.token, userId, buildConsentQuestion(questionOf(stored, def)));
        await o.store.asked(x.executionId, dm);
        return 'asked';
      } catch (err) {
        log.warn('could not ask a person about a workflow step', {
          execution: x.executionId,
          error: err instanceof Error ? err.message : String(err),
        });
        const person = await nameOf(userId);
        await settle(stored, [x.token], {
          kind: 'failed',
          sentence: `${person} could not be asked in a DM whether the step may act as them; nothing was done.`,
        });
        return 'failed';
      }
    },

    async answered(c) {
      const e = await o.store.decide(c.executionId, c.userId, c.answer, STEP_RUN_LEASE_MS);
      if (!e || e.teamId !== c.teamId) {
        // Someone else's question (a DM shown on a shared screen, a forwarded message) is answered by its person alone.
        const asked = e ? null : await o.store.get(c.executionId);
        if (asked && asked.teamId === c.teamId && asked.userId !== c.userId) return { askedOf: asked.userId };
        // Answered already (a double click, a click that reached another replica) or expired.
        return 'stale';
      }
      const def = definitionOf(e);
      if (c.answer === 'deny') {
        const end: StepResult = { kind: 'denied' };
        await settle(e, tokensOf(c.token, e), end);
        await redraw(e, 'deny', end);
        return 'done';
      }
      // An "Always" covers exactly what the question showed; a step with no scope (an issue's free text) had no
      // Always button, and an old one counts as Allow once.
      const scope = def ? scopeOf(def, e.project, e.inputs) : null;
      if (c.answer === 'always' && scope) {
        await o.store.allow({ teamId: e.teamId, userId: e.userId, scope: scope.key, label: scope.label });
      }
      const end = await run(e, c.token);
      await redraw(e, c.answer, end);
      return 'done';
    },

    async sweep() {
      const expired = await o.store.takeExpired(STEP_RUN_LEASE_MS);
      for (const e of expired) {
        const end: StepResult = { kind: 'expired' };
        await settle(e, tokensOf(null, e), end);
        await redraw(e, 'expired', end);
      }
      // Not run again: a pipeline or an issue may have been created before the replica died.
      const abandoned = await o.store.takeAbandoned(STEP_RUN_LEASE_MS);
      for (const e of abandoned) {
        log.warn('a workflow step was left running by a replica that stopped; it is failed, not run again', {
          execution: e.executionId,
          step: e.step,
        });
        const end: StepResult = { kind: 'failed', sentence: abandonedSentence(e.project) };
        await settle(e, tokensOf(null, e), end);
        // The person who answered sees it too, instead of a question that no longer says what happened; one who
        // was not asked (their "Always") is told as after any run under it.
        if (e.outcome === 'once' || e.outcome === 'always') await redraw(e, e.outcome, end);
        const def = definitionOf(e);
        if (e.outcome === 'allowed' && def) await tellConsentUsed(e, def, end);
      }
      await o.store.prune();
      return expired.length + abandoned.length;
    },
  };
}
