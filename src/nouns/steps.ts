import { StepConsentButtons } from '../buttons/steps.js';
import type { StepStore } from '../store/step-store.js';
import { buildStepConsentRevoked } from '../views/steps.js';
import { ephemeral, noun, type Reply } from './types.js';

// Workflow Builder steps as a noun: the Revoke of an "Always" a person gave a step, from their Home tab or from
// whoami. The steps themselves (function_executed, the consent DM) are served by slack/routing/workflow-steps.ts.

const stepNoun = noun('step', (deps): { store: StepStore } => ({ store: deps.steps }));

export const steps = stepNoun.define({
  buttons: [
    stepNoun.on(StepConsentButtons.revoke, async (value, ctx, platform, ops): Promise<Reply> => {
      const { teamId, userId } = ctx.actor;
      const label = (await ops.store.consents(teamId, userId)).find((c) => c.scope === value.s)?.label ?? null;
      const removed = await ops.store.revoke(teamId, userId, value.s);
      const said = buildStepConsentRevoked(removed ? label : null);
      if (ctx.surface === 'home') return { kind: 'home', view: await platform.redrawHome(ctx, { shown: said }) };
      return ephemeral(said);
    }),
  ],
});
