import type { HomeView } from '@slack/types';
import { AccountButtons } from '../buttons/common.js';
import type { HelpText } from '../grammar/index.js';
import { type Connection, connectionProblem } from '../store/token-store.js';
import { actions, type Block, button, context, divider, header, section } from './blocks.js';
import { formatDateTime } from './format.js';
import { code, link, Md, md } from './mrkdwn.js';

export function buildHomeView(o: {
  connection: Connection | null;
  serverUrl: string;
  slashCommand: string;
  help: HelpText | null;
}): HomeView {
  const problem = connectionProblem(o.connection, o.serverUrl);
  const as = o.connection?.username ? md` as ${code(`@${o.connection.username}`)}` : '';
  const status =
    problem === null && o.connection
      ? section(
          md`:white_check_mark: Connected to ${link(o.serverUrl, o.serverUrl)}${as} since ${formatDateTime(o.connection.createdAt)}.`,
        )
      : section(
          problem === 'token_revoked'
            ? ':warning: Your token was refused by the server. Connect a new one.'
            : problem === 'token_unreadable'
              ? ":warning: Your stored token can't be read any more. Connect again."
              : md`:key: Not connected to ${link(o.serverUrl, o.serverUrl)} yet. Commands and buttons act with your own token.`,
        );
  const blocks: Block[] = [header('GitLab from Slack'), status];
  if (problem !== null) {
    blocks.push(actions([button({ text: 'Connect', def: AccountButtons.connect, value: {}, style: 'primary' })]));
  }
  blocks.push(divider());
  if (o.help) blocks.push(...o.help.sections.slice(0, 90).map((text) => section(Md.trusted(text))));
  blocks.push(context([md`Type ${code(`${o.slashCommand} help <noun>`)} in any channel for details.`]));
  return { type: 'home', blocks };
}
