import { z } from 'zod';
import { defineButtons, Id } from '../ids.js';

// The buttons of pipeline watches. `s` says which surface the button sits on, so the handler redraws the right
// thing: the channel's list of watches (`list`), the watch's own card (`card`) or the person's Home tab (`home`).

export const WatchSurfaceSchema = z.enum(['list', 'card', 'home']);
export type WatchSurface = z.infer<typeof WatchSurfaceSchema>;

const WatchValue = z.object({ w: Id, s: WatchSurfaceSchema }).strict();

export const WatchButtons = defineButtons('watch', {
  pause: WatchValue,
  resume: WatchValue,
  remove: WatchValue,
});
