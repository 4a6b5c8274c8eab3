import { AccountButtons, LinkButtons, ListButtons, NoopButtons } from '../buttons/common.js';
import { connectionProblem } from '../connection.js';
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
import { withWatches } from '../views/watches.js';
import { ephemeral, noun, type Reply } from './types.js';

// The account and channel commands, and the buttons that belong to no one noun.

const accountNoun = noun('account', (deps) =>
  Object.assign(createAccountOperations(deps), {
    /** The Workflow Builder steps the person always allows, listed under whoami with Revoke. */
    stepConsents: (teamId: string, userId: string) => deps.steps.consents(teamId, userId),
    watches: deps.watches,
  }),
);

export const account = accountNoun.define({
  commands: {
    async help(command, _ctx, platform) {
      const result = buildHelp(command.args.topic, {
        slashCommand: platform.slashCommand,
        ships: (key) => platform.ships(key as CommandKey),
      });
      return ephemeral(result.ok ? buildHelpMessage(result.help) : buildUsageMessage(result.error));
    },
    async connect(_cmd, ctx, platform) {
      return {
        kind: 'modal',
        view: buildConnectModal({
          serverUrl: platform.serverUrl,
          slashCommand: platform.slashCommand,
          privateMetadata: platform.connectMetadata(ctx.channelId),
        }),
      };
    },
    async disconnect(_command, ctx, platform, ops) {
      return ephemeral(buildDisconnected(await ops.disconnect(ctx.actor), platform.serverUrl));
    },
    async whoami(_cmd, ctx, platform, ops) {
      const timeZone = await platform.timeZoneOf(ctx.actor.userId);
      const connection = await ctx.session.connection();
      const stepConsents = await ops.stepConsents(ctx.actor.teamId, ctx.actor.userId);
      const alerts = await ops.alertSetting(ctx.actor);
      const shown = buildWhoami(connection, {
        serverUrl: platform.serverUrl,
        slashCommand: platform.slashCommand,
        timeZone,
        stepConsents,
        alerts,
        now: ctx.now,
      });
      if (!connection || connectionProblem(connection, platform.serverUrl)) return ephemeral(shown);
      const watches = await ops.watches.listForCreator(ctx.actor.teamId, ctx.actor.userId);
      return ephemeral(withWatches(shown, watches, platform.slashCommand));
    },
    async use(command, ctx, platform, ops) {
      if (command.flags.clear) {
        const previous = await ops.clearProject(ctx);
        return {
          kind: 'message',
          message: buildChannelDefaultCleared(previous, ctx.actor.userId),
          inChannel: previous !== null,
        };
      }
      if (command.target.kind !== 'project' || !command.target.project) {
        return ephemeral(buildChannelDefaultShown(await ops.channelDefault(ctx), platform.slashCommand));
      }
      const { project, webUrl, isPublic } = await ops.useProject(ctx, command.target.project);
      const set = {
        project,
        webUrl,
        actorId: ctx.actor.userId,
        slashCommand: platform.slashCommand,
        ships: platform.ships,
      };
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
    accountNoun.on(
      AccountButtons.connect,
      async (_value, ctx, platform): Promise<Reply> => ({
        kind: 'modal',
        view: buildConnectModal({
          serverUrl: platform.serverUrl,
          slashCommand: platform.slashCommand,
          privateMetadata: platform.connectMetadata(ctx.channelId, { home: ctx.surface === 'home' }),
        }),
      }),
    ),
    accountNoun.on(
      AccountButtons.disconnect,
      async (_value, ctx, platform, ops): Promise<Reply> =>
        ephemeral(buildDisconnected(await ops.disconnect(ctx.actor), platform.serverUrl)),
    ),
    // A link button opens its URL in the browser; Slack still reports the click, which needs no answer.
    accountNoun.on(LinkButtons.open, async (): Promise<Reply> => ({ kind: 'none' })),
    accountNoun.on(NoopButtons.dismiss, async (): Promise<Reply> => ({ kind: 'delete' })),
    accountNoun.on(
      ListButtons.page,
      async (value, ctx, platform): Promise<Reply> => ({
        kind: 'update',
        message: await platform.redrawList({ query: value.q, page: value.n }, ctx),
      }),
    ),
  ],
});
