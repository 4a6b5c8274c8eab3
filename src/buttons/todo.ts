import { z } from 'zod';
import { defineButtons, Id, ListPlace } from '../ids.js';

// The buttons of todo lists (and of anything else that shows todos: digests, the Home tab). `o` is the
// Slack user whose todos the list shows, when known: a click by anyone else cannot be about their own todos.

const SlackUserId = z
  .string()
  .regex(/^[UW][A-Z0-9]{1,30}$/)
  .optional();

export const TodoButtons = defineButtons('todo', {
  /** Marks one todo done. */
  done: z.object({ t: Id, o: SlackUserId, ...ListPlace }).strict(),
  /**
   * Marks every pending todo of the clicker done. `a`: the button sits on a list shown in a channel, which carries
   * no Slack confirmation (everyone would be asked about "your" todos): the owner is asked in a message instead.
   */
  doneAll: z.object({ o: SlackUserId, a: z.literal(1).optional(), ...ListPlace }).strict(),
  /** The next page of a todo list: turned only by the person whose todos it shows. */
  page: z
    .object({ o: SlackUserId, q: z.string().min(1).max(1200), n: z.number().int().positive().max(10_000) })
    .strict(),
});
