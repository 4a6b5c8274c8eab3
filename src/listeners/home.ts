import type { App } from '@slack/bolt';
import { buildHelp } from '../grammar/index.js';
import type { Actor, Session } from '../operations/context.js';
import { buildHomeView } from '../views/home.js';

export interface HomeListenerOptions {
  serverUrl: string;
  slashCommand: string;
  sessionOf(actor: Actor): Session;
  ships(key: string): boolean;
}

export function registerHomeListener(app: App, o: HomeListenerOptions): void {
  app.event('app_home_opened', async ({ event, client, context }) => {
    if (event.tab !== 'home') return;
    const session = o.sessionOf({ teamId: context.teamId ?? '', userId: event.user, userName: '' });
    const help = buildHelp(undefined, { slashCommand: o.slashCommand, ships: o.ships });
    await client.views.publish({
      user_id: event.user,
      view: buildHomeView({
        connection: await session.connection(),
        serverUrl: o.serverUrl,
        slashCommand: o.slashCommand,
        help: help.ok ? help.help : null,
      }),
    });
  });
}
