import { message, type SlackMessage, section } from './blocks.js';
import { code } from './mrkdwn.js';

/** For commands the language knows but this bot version does not carry out yet. */
export function buildNotAvailable(key: string): SlackMessage {
  return message(`${key} is not available in this version of the bot yet.`, [
    section(
      `:construction: ${code(key.replace('.', ' '))} is part of the command language but not available in this version of the bot yet. Nothing was sent to the server.`,
    ),
  ]);
}
