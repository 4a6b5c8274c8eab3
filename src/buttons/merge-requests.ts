import { z } from 'zod';
import { defineButtons, Id, ProjectKeySchema, ShaSchema } from '../ids.js';

// The buttons of merge request cards and lists, and the merge modal. Short keys keep values far below
// Slack's 2000 characters (the Merge button's value is also cut to fit, see views/merge-requests.ts).
// The merge modal is in src/modals/merge-requests.ts.

const Ref = { p: ProjectKeySchema, i: Id };

const MrValue = z.object(Ref).strict();

/**
 * What the merge modal shows before it is submitted, as the card showed it: the head sha the merge is
 * pinned to, the title and branches, and the remove-source-branch choice the merge request asks for
 * (`r`; `f` when its author made it, which GitLab applies whatever the merger ticks).
 */
const OpenMergeValue = z
  .object({
    ...Ref,
    s: ShaSchema,
    t: z.string().max(200),
    sb: z.string().max(255),
    tb: z.string().max(255),
    r: z.boolean(),
    f: z.boolean(),
  })
  .strict();

/** The typed prompt's "Yes, merge": everything the command asked for, pinned to the sha the prompt named. */
const ConfirmMergeValue = z
  .object({
    ...Ref,
    s: ShaSchema,
    r: z.literal(true).optional(),
    w: z.literal(true).optional(),
    m: z.string().min(1).max(1000).optional(),
  })
  .strict();

export const MrButtons = defineButtons('mr', {
  show: MrValue,
  /** Opens the merge modal. */
  merge: OpenMergeValue,
  /** Opens the merge modal set to merge when the pipeline succeeds. */
  autoMerge: OpenMergeValue,
  confirmMerge: ConfirmMergeValue,
  cancelAutoMerge: MrValue,
  close: MrValue,
  reopen: MrValue,
  subscribe: MrValue,
  unsubscribe: MrValue,
  todo: MrValue,
  changes: MrValue,
  /** The typed prompt's "Yes, delete". */
  delete: MrValue,
});

export type OpenMergeButtonValue = z.infer<typeof OpenMergeValue>;
