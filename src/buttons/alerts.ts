import { z } from 'zod';
import { defineButtons, Id } from '../ids.js';

// The buttons of a todo alert DM. Done marks one todo done as the clicker; `g` lists the todos the message shows
// (a grouped alert), so that it is drawn again with each as it is now. Open is a link button (views/common.ts).

export const AlertButtons = defineButtons('alert', {
  done: z.object({ t: Id, g: z.array(Id).max(40).optional() }).strict(),
});
