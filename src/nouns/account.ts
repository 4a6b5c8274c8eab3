import { AccountButtons, LinkButtons, ListButtons, NoopButtons } from '../buttons/common.js';
import { buildHelp, type CommandKey } from '../grammar/index.js';
import { createAccountOperations } from '../operations/account.js';
import {
  buildChannelDefaultAnnounced,
  buildChannelDefaultCleared,
  buildChannelDefaultSet,
  buildChannelDefaultShown,
  buildConnectModal,
  buildDisconnected,
  buildWhoami,
} from '../views/account.js';
import { buildHelpMessage, buildUsageMessage } from '../views/help.js';
import { ephemeral, noun, type Reply } from './types.js';

// The account and channel commands, and the buttons that belong to no one noun.

const n = noun('account', (d) => createAccountOperations(d));

export const account = n.define({
  commands: {
    async help(cmd, _ctx, s) {
      const result = buildHelp(cmd.args.topic, {
        slashCommand: s.slashCommand,
        ships: (key) => s.ships(key as CommandKey),
      });
      return ephemeral(result.ok ? buildHelpMessage(result.help) : buildUsageMessage(result.error));
    },
    async connect(_cmd, ctx, s) {
      return {
        kind: 'modal',
        view: buildConnectModal({
          serverUrl: s.serverUrl,
          slashCommand: s.slashCommand,
          privateMetadata: s.connectMetadata(ctx.channelId),
        }),
      };
    },
    async disconnect(_cmd, ctx, s, ops) {
      return ephemeral(buildDisconnected(await ops.disconnect(ctx.actor), s.serverUrl));
    },
    async whoami(_cmd, ctx, s, ops) {
      const [timeZone, alerts] = await Promise.all([s.timeZoneOf(ctx.actor.userId), ops.alertSetting(ctx.actor)]);
      return ephemeral(
        buildWhoami(await ctx.session.connection(), {
          serverUrl: s.serverUrl,
          slashCommand: s.slashCommand,
          timeZone,
          alerts,
          now: ctx.now,
        }),
      );
    },
    async use(cmd, ctx, s, ops) {
      if (cmd.flags.clear) {
        const previous = await ops.clearProject(ctx);
        return {
          kind: 'message',
          message: buildChannelDefaultCleared(previous, ctx.actor.userId),
          inChannel: previous !== null,
        };
      }
      if (cmd.target.kind !== 'project' || !cmd.target.project) {
        return ephemeral(buildChannelDefaultShown(await ops.channelProject(ctx), s.slashCommand));
      }
      const { project, webUrl, isPublic } = await ops.useProject(ctx, cmd.target.project);
      const set = { project, webUrl, actorId: ctx.actor.userId, slashCommand: s.slashCommand, ships: s.ships };
      if (isPublic) return { kind: 'message', message: buildChannelDefaultSet(set), inChannel: true };
      // Not everyone here may see a non-public project: its name and link go to the person alone, and the
      // channel hears only that a default was set.
      return {
        kind: 'message',
        message: buildChannelDefaultSet({ ...set, privately: true }),
        after: { kind: 'message', message: buildChannelDefaultAnnounced(ctx.actor.userId), inChannel: true },
      };
    },
  },
  buttons: [
    // Opened straight away: the click's trigger_id lives three seconds. Connecting from the Home tab draws the
    // Home again once connected.
    n.on(
      AccountButtons.connect,
      async (_v, ctx, s): Promise<Reply> => ({
        kind: 'modal',
        view: buildConnectModal({
          serverUrl: s.serverUrl,
          slashCommand: s.slashCommand,
          privateMetadata: s.connectMetadata(ctx.channelId, { home: ctx.surface === 'home' }),
        }),
      }),
    ),
    n.on(
      AccountButtons.disconnect,
      async (_v, ctx, s, ops): Promise<Reply> =>
        ephemeral(buildDisconnected(await ops.disconnect(ctx.actor), s.serverUrl)),
    ),
    // A link button opens its URL in the browser; Slack still reports the click, which needs no answer.
    n.on(LinkButtons.open, async (): Promise<Reply> => ({ kind: 'none' })),
    n.on(NoopButtons.dismiss, async (): Promise<Reply> => ({ kind: 'delete' })),
    n.on(
      ListButtons.page,
      async (v, ctx, s): Promise<Reply> => ({
        kind: 'update',
        message: await s.redrawList({ query: v.q, page: v.n }, ctx),
      }),
    ),
  ],
});
