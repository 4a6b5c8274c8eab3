import type { UnknownPersonError } from '../errors.js';
import { code, link, type Md, md, mention } from './mrkdwn.js';

/** Why a person named in a command could not be found. */
export function unknownPerson(err: UnknownPersonError, serverUrl: string): Md {
  switch (err.reason) {
    case 'no_user':
      return md`There is no user ${code(`@${err.who}`)} on ${link(serverUrl, serverUrl)}. Check the spelling, or give their numeric id. Nothing was sent.`;
    case 'not_connected':
      return md`${mention(err.who)} has not connected to this bot, so it does not know their account on the server. Give their username (${code('@name')}) or numeric id instead. Nothing was sent.`;
    case 'no_username':
      return md`${mention(err.who)} connected before the bot learned usernames; they can connect again, or you can give their username (${code('@name')}) or numeric id instead. Nothing was sent.`;
  }
}
