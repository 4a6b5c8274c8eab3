import { decodeConsentClick, STEP_CONSENT_PREFIX } from '../../buttons/step-consent.js';
import { InvalidInputError, StaleActionError } from '../../errors.js';
import { STEP_IDS } from '../../steps/definitions.js';
import type { StepService } from '../../steps/service.js';
import { md, mention } from '../../views/mrkdwn.js';
import { acknowledge } from '../transport/acknowledge.js';
import type { Routes } from './routes.js';

// Bolt glue of Workflow Builder steps: each step's function_executed (the routes acknowledge it at once; the
// step then runs, or asks its person and waits), and the person's answer to the consent DM. What must happen once
// is decided by the step service's store.

interface FunctionExecuted {
  function_execution_id?: unknown;
  workflow_execution_id?: unknown;
  bot_access_token?: unknown;
  inputs?: unknown;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function registerWorkflowSteps(routes: Routes, o: { steps: StepService }): void {
  for (const step of STEP_IDS) {
    routes.function(step, async ({ event, body, context, logger }) => {
      const e = event as unknown as FunctionExecuted;
      const executionId = text(e.function_execution_id);
      const token = text(e.bot_access_token);
      // Without an execution id or its token the step can be neither completed nor failed.
      if (!executionId || !token || !/^[A-Za-z0-9_-]{1,64}$/.test(executionId)) {
        logger.warn(`a function_executed of ${step} came without an execution id or its token`);
        return;
      }
      await o.steps.executed({
        executionId,
        workflowExecutionId: text(e.workflow_execution_id)?.slice(0, 64) ?? null,
        teamId: context.teamId ?? text((body as { team_id?: unknown }).team_id) ?? '',
        step,
        inputs: e.inputs,
        token,
      });
    });
  }

  routes.action({ prefix: STEP_CONSENT_PREFIX }, async ({ ack, body, action, context }) => {
    await acknowledge(context, ack);
    const click = decodeConsentClick(action.action_id, action.value);
    if (!click) throw new StaleActionError('not a question of a workflow step');
    const answered = await o.steps.answered({
      ...click,
      teamId: body.team?.id ?? body.user.team_id ?? '',
      userId: body.user.id,
      token: text((body as { bot_access_token?: unknown }).bot_access_token),
    });
    if (typeof answered === 'object') {
      throw new InvalidInputError(
        md`This question is for ${mention(answered.askedOf)}, whom the step would act as: only they can answer it. Nothing was done.`,
      );
    }
    // A button of a step that has ended (answered, failed, timed out) says so instead of doing nothing.
    if (answered === 'stale') {
      throw new InvalidInputError(
        'This step has ended already (it was answered, failed or timed out): this click did nothing.',
      );
    }
  });
}
