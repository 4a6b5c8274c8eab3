import { z } from 'zod';
import { defineModals, Id, ProjectKeySchema, ShaSchema } from '../ids.js';

// The merge modal: a Slack confirm dialog cannot hold a choice, so the card's Merge button opens this
// small form with the question and the remove-source-branch checkbox; its submission merges.

export const MrModals = defineModals('mr', {
  /** `w`: merge when the pipeline succeeds instead of now. */
  merge: z.object({ p: ProjectKeySchema, i: Id, s: ShaSchema, w: z.boolean() }).strict(),
});

/** The merge modal's one input: the remove-source-branch checkbox. */
export const MergeModalInput = { block: 'remove_source_branch', action: 'remove', option: 'remove' } as const;
