import { z } from 'zod';
import { defineButtons } from '../ids.js';

// The buttons of the prompt a person gets before a preview of their link into a non-public project is shown to
// a channel. The value names the message (channel `c`, ts `t`), its links (`u`, as posted: the preview is keyed
// by them) and the poster (`o`): only they may answer.

/** Links longer than this are not offered for a preview (four of them keep a value far below 2000 characters). */
export const PREVIEW_URL_MAX = 350;
/** Links of one message previewed at most. */
export const PREVIEW_LINKS_MAX = 4;

const PreviewValue = z
  .object({
    c: z.string().regex(/^[A-Z][A-Z0-9]{1,30}$/),
    t: z.string().regex(/^\d{1,12}\.\d{1,8}$/),
    o: z.string().regex(/^[UW][A-Z0-9]{1,30}$/),
    u: z
      .array(
        z
          .string()
          .max(PREVIEW_URL_MAX)
          .regex(/^https?:\/\/\S+$/i),
      )
      .min(1)
      .max(PREVIEW_LINKS_MAX),
  })
  .strict();

export const UnfurlButtons = defineButtons('unfurl', {
  /** Show the previews in the channel, this once. */
  show: PreviewValue,
  /** Show them, and from now on show the poster's previews in this channel without asking. */
  always: PreviewValue,
  /** Not now: the prompt goes away, nothing is shown (only its poster `o` may say so; older prompts name nobody). */
  skip: z.object({ o: PreviewValue.shape.o.optional() }).strict(),
});

export type PreviewButtonValue = z.infer<typeof PreviewValue>;
