import { context, message, type SlackMessage, section } from './blocks.js';
import { channelMention, code, Md, md } from './mrkdwn.js';

// A reply meant for a thread that Slack refused to take from the bot: the person who asked is told why, privately,
// above the answer they would have seen there.

function why(error: string, channelId: string): Md {
  switch (error) {
    case 'not_in_channel':
    case 'channel_not_found':
      return md`I can't post in ${channelMention(channelId)}: I'm not a member of it. Invite me there to get answers in its threads.`;
    case 'is_archived':
      return md`I can't post in ${channelMention(channelId)}: it is archived.`;
    default:
      if (error.startsWith('restricted_action'))
        return md`I can't post in ${channelMention(channelId)}: posting there is restricted (${code(error)}).`;
      return md`Slack did not take my reply in ${channelMention(channelId)} (${code(error)}).`;
  }
}

/** The answer a thread did not get, for the person alone, with why it is not in the thread. */
export function buildThreadRefused(error: string, channelId: string, answer: SlackMessage): SlackMessage {
  const note = context([md`:warning: ${why(error, channelId)} Only you can see this.`]);
  const shown = answer.blocks ?? [section(Md.trusted(answer.text))];
  return message(md`${Md.trusted(answer.text)} (${why(error, channelId)})`, [...shown, note]);
}
