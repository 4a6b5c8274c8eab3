import type { PostMark } from '../delivery/slack.js';
import type { WatchCard } from '../store/watch-store.js';

// What marks a watch's posts, so that a post cut off by a kill is found by the kernel's one search
// (delivery/steps.ts): a card in the channel's history, the reply that says a failure was fixed in the card's thread.
// Watches post through the kernel's Slack port (delivery/slack.ts).

/** The metadata of a watch's card. */
export const WATCH_CARD_EVENT = 'gl_watch_card';
/** The metadata of the reply that says a failure was fixed. */
export const WATCH_FIX_EVENT = 'gl_watch_fix';

const payloadOf = (c: Pick<WatchCard, 'watchId' | 'key'>) => ({ watch: c.watchId, card: c.key });

export const cardMark = (c: Pick<WatchCard, 'watchId' | 'key'>): PostMark => ({
  event: WATCH_CARD_EVENT,
  payload: payloadOf(c),
});

export const fixMark = (c: Pick<WatchCard, 'watchId' | 'key'>): PostMark => ({
  event: WATCH_FIX_EVENT,
  payload: payloadOf(c),
});
