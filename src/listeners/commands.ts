import type { App } from '@slack/bolt';
import { parseCommand } from '../grammar/index.js';
import type { CommandContext, CommandHandler, CommandHandlers, CommandKey, Services } from '../handlers/types.js';
import { connectionProblem } from '../operations/connection.js';
import { buildConnectPrompt } from '../views/account.js';
import { buildNotAvailable } from '../views/common.js';
import { buildUsageMessage } from '../views/help.js';
import { acknowledge } from './acknowledge.js';
import { deliver } from './deliver.js';

export function registerCommandListener(app: App, s: Services, handlers: CommandHandlers, now: () => Date): void {
  app.command(s.slashCommand, async ({ command, ack, respond, client, context, logger }) => {
    const parsed = parseCommand(command.text ?? '', { serverUrl: s.serverUrl });
    if (!parsed.ok) {
      await acknowledge(context, ack, { response_type: 'ephemeral', ...buildUsageMessage(parsed.error) });
      return;
    }
    const cmd = parsed.command;
    const ctx: CommandContext = {
      text: command.text ?? '',
      actor: { teamId: command.team_id, userId: command.user_id, userName: command.user_name },
      channelId: command.channel_id || null,
      now: now(),
    };
    logger.debug('command received', { key: cmd.key, team: ctx.actor.teamId, user: ctx.actor.userId });
    // A person without a usable token learns it from the ack itself: one message, no API call.
    const problem = cmd.needsToken ? connectionProblem(await s.account.connection(ctx.actor), s.serverUrl) : null;
    if (problem) {
      await acknowledge(context, ack, {
        response_type: 'ephemeral',
        ...buildConnectPrompt(problem, s.serverUrl, s.slashCommand),
      });
      return;
    }
    const handler = handlers[cmd.key] as CommandHandler<CommandKey> | undefined;
    if (!handler) {
      await acknowledge(context, ack, { response_type: 'ephemeral', ...buildNotAvailable(cmd.key) });
      return;
    }
    const delivery = {
      client,
      respond,
      userId: ctx.actor.userId,
      channelId: ctx.channelId,
      triggerId: command.trigger_id,
    };
    if (!cmd.needsToken) {
      // These answer from the bot's own state (help, whoami…): the answer can ride on the ack itself.
      const reply = await handler(cmd as never, ctx, s);
      if (reply.kind === 'message') {
        const type = reply.inChannel ? 'in_channel' : 'ephemeral';
        await acknowledge(context, ack, { response_type: type, ...reply.message });
        return;
      }
      await acknowledge(context, ack);
      await deliver(delivery, reply);
      return;
    }
    await acknowledge(context, ack);
    await deliver(delivery, await handler(cmd as never, ctx, s));
  });
}
