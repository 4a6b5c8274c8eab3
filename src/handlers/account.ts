import { buildHelp } from '../grammar/index.js';
import {
  buildChannelDefaultCleared,
  buildChannelDefaultSet,
  buildChannelDefaultShown,
  buildConnectModal,
  buildDisconnected,
  buildWhoami,
} from '../views/account.js';
import { buildHelpMessage, buildUsageMessage } from '../views/help.js';
import { type ButtonHandlers, type CommandHandlers, ephemeral } from './types.js';

export const accountCommands: CommandHandlers = {
  async help(cmd, _ctx, s) {
    const result = buildHelp(cmd.args.topic, { slashCommand: s.slashCommand });
    return ephemeral(result.ok ? buildHelpMessage(result.help) : buildUsageMessage(result.error));
  },
  async connect(_cmd, ctx, s) {
    return {
      kind: 'modal',
      view: buildConnectModal({ serverUrl: s.serverUrl, privateMetadata: s.connectMetadata(ctx.channelId) }),
    };
  },
  async disconnect(_cmd, ctx, s) {
    return ephemeral(buildDisconnected(await s.account.disconnect(ctx.actor), s.serverUrl));
  },
  async whoami(_cmd, ctx, s) {
    return ephemeral(buildWhoami(await s.account.connection(ctx.actor), s.serverUrl, s.slashCommand));
  },
  async use(cmd, ctx, s) {
    if (cmd.flags.clear) {
      const previous = await s.account.clearProject(ctx);
      return {
        kind: 'message',
        message: buildChannelDefaultCleared(previous, ctx.actor.userId),
        inChannel: previous !== null,
      };
    }
    if (cmd.target.kind !== 'project' || !cmd.target.project) {
      return ephemeral(buildChannelDefaultShown(await s.account.channelProject(ctx), s.slashCommand));
    }
    const { project, webUrl } = await s.account.useProject(ctx, cmd.target.project);
    return {
      kind: 'message',
      message: buildChannelDefaultSet(project, webUrl, ctx.actor.userId, s.slashCommand),
      inChannel: true,
    };
  },
};

export const accountButtons: ButtonHandlers = {
  // Opened straight away: the click's trigger_id lives three seconds.
  async 'account.connect'(_v, ctx, s) {
    return {
      kind: 'modal',
      view: buildConnectModal({ serverUrl: s.serverUrl, privateMetadata: s.connectMetadata(ctx.channelId) }),
    };
  },
  // A link button opens its URL in the browser; Slack still reports the click, which needs no answer.
  async 'link.open'() {
    return { kind: 'none' };
  },
};
