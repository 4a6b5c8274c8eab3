import { z } from 'zod';
import { defineModals, Id, ProjectKeySchema } from '../ids.js';

// The issue form: what it remembers besides its inputs (the project, and flags typed with the command that
// have no input of their own). Its inputs are named by the block ids below.

export const IssueModals = defineModals('issue', {
  create: z
    .object({
      p: ProjectKeySchema,
      /** --milestone-id */
      m: Id.optional(),
      /** --created-at */
      t: z.string().max(40).optional(),
    })
    .strict(),
  /** The form opened from a message's "Create issue" shortcut: the project (unless asked in the form), the thread. */
  fromMessage: z
    .object({
      p: ProjectKeySchema.optional(),
      /** The project is not public: the answer in the thread does not name it (views/audience.ts). */
      h: z.literal(1).optional(),
      /** The ts of the thread the answer goes to. */
      th: z.string().regex(/^\d{1,12}\.\d{1,8}$/),
    })
    .strict(),
});

/** Block ids of the create form's inputs; each input's action_id is the same word. */
export const IssueFormFields = {
  title: 'title',
  description: 'description',
  labels: 'labels',
  assignees: 'assignees',
  due: 'due',
  confidential: 'confidential',
  /** Only in a form opened without a project. */
  project: 'project',
} as const;

export type IssueFormField = keyof typeof IssueFormFields;
