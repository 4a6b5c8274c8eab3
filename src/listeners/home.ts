import type { App } from '@slack/bolt';
import { buildHelp } from '../grammar/index.js';
import type { Services } from '../handlers/types.js';
import { buildHomeView } from '../views/home.js';

export function registerHomeListener(app: App, s: Services): void {
  app.event('app_home_opened', async ({ event, client, context }) => {
    if (event.tab !== 'home') return;
    const teamId = context.teamId ?? '';
    const connection = await s.account.connection({ teamId, userId: event.user, userName: '' });
    const help = buildHelp(undefined, { slashCommand: s.slashCommand });
    await client.views.publish({
      user_id: event.user,
      view: buildHomeView({
        connection,
        serverUrl: s.serverUrl,
        slashCommand: s.slashCommand,
        help: help.ok ? help.help : null,
      }),
    });
  });
}
