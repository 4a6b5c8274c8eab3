import { z } from 'zod';
import { defineButtons } from '../ids.js';

// Revoke of an "Always" a person gave a Workflow Builder step (listed on their Home and by whoami). The value
// names the consent's scope; it is only ever removed from the clicker's own consents.

export const StepConsentButtons = defineButtons('step', {
  revoke: z
    .object({
      s: z
        .string()
        .min(1)
        .max(600)
        .regex(/^step:[a-z_]+:\S+$/),
    })
    .strict(),
});
