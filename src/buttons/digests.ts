import { z } from 'zod';
import { defineButtons, Id } from '../ids.js';

// The buttons of digests. `w` says which surface the button sits on, so the handler redraws the right thing:
// the list (`list`), the digest's own card (`card`), a posted digest (`post`, which is left as posted), or the
// person's Home tab (`home`).

export const DigestSurfaceSchema = z.enum(['list', 'card', 'post', 'home']);
export type DigestSurface = z.infer<typeof DigestSurfaceSchema>;

const DigestValue = z.object({ d: Id, w: DigestSurfaceSchema }).strict();

export const DigestButtons = defineButtons('digest', {
  pause: DigestValue,
  resume: DigestValue,
  run: DigestValue,
  remove: DigestValue,
  /** One todo of a todos digest, marked done as the clicker. */
  done: z.object({ d: Id, t: Id }).strict(),
  /** Every pending todo, marked done as the clicker. */
  alldone: z.object({ d: Id }).strict(),
});
