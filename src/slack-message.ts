import type { KnownBlock } from '@slack/types';

// What the bot sends Slack as a message: the shape views build and the Slack side posts. Only the shape, so the
// services that hand a message on (a digest run that tells its person how it went) name it without views/.

export type Block = KnownBlock;

/** A message as views return it: fallback text for notifications plus blocks. */
export interface SlackMessage {
  text: string;
  blocks?: Block[];
}
