import { connectionProblem } from '../../connection.js';
import { parseCommand } from '../../grammar/index.js';
import { secretRefusal } from '../../grammar/parse.js';
import { unescapeSlack } from '../../grammar/text.js';
import type { Dispatch } from '../../nouns/assemble.js';
import type { CommandContext } from '../../nouns/types.js';
import type { Actor, Session } from '../../operations/context.js';
import { containsSecret } from '../../redact.js';
import { buildConnectPrompt } from '../../views/account.js';
import { buildUsageMessage } from '../../views/help.js';
import { acknowledge } from '../transport/acknowledge.js';
import { logsDebug, markCommand, markRefused, requestLogger } from '../transport/observe-requests.js';
import { deliver } from '../web-api/deliver.js';
import { respondTo } from '../web-api/respond.js';
import { startWorkingNote } from '../web-api/working-note.js';
import type { Routes } from './routes.js';

export interface CommandListenerOptions {
  dispatch: Dispatch;
  /** Where links point (GITLAB_PUBLIC_URL, else GITLAB_URL). */
  serverUrl: string;
  /** GITLAB_URL: connections are made to it. */
  gitlabUrl: string;
  slashCommand: string;
  sessionOf(actor: Actor): Session;
  now(): Date;
  /** How long a command's answer may take before "working on it…" is shown (default 2000 ms). */
  workingNoteMs?: number;
}

const WORKING_NOTE_MS = 2000;

export function registerCommandListener(routes: Routes, o: CommandListenerOptions): void {
  routes.command(o.slashCommand, async ({ command, ack, client, context }) => {
    const text = command.text ?? '';
    // A secret the bot knows (someone's token, its own keys) is refused like a token-shaped word: never run,
    // never shown back, and the person is told to revoke it. The text as Slack escaped it is checked, and as the
    // person typed it when that differs.
    const typed = unescapeSlack(text);
    const parsed =
      containsSecret(text) || (typed !== text && containsSecret(typed))
        ? secretRefusal({ kind: 'generic' }, o.slashCommand)
        : parseCommand(text, { serverUrl: [o.serverUrl, o.gitlabUrl], slashCommand: o.slashCommand });
    if (!parsed.ok) {
      markCommand(context, `${parsed.error.noun ?? 'unknown'}.unknown`);
      markRefused(context);
      await acknowledge(context, ack, { response_type: 'ephemeral', ...buildUsageMessage(parsed.error) });
      return;
    }
    // A command that needs the person's token answers after its ack, so nothing but the parse comes before it: the
    // command's context (its session among it) is made once the ack is on its way.
    if (parsed.command.needsToken) await acknowledge(context, ack);
    const cmd = parsed.command;
    markCommand(context, cmd.key);
    const actor = { teamId: command.team_id, userId: command.user_id, userName: command.user_name };
    const ctx: CommandContext = {
      text: command.text ?? '',
      actor,
      channelId: command.channel_id || null,
      now: o.now(),
      session: o.sessionOf(actor),
      responseUrl: command.response_url ?? null,
      shared: cmd.share,
    };
    if (logsDebug(context)) requestLogger(context)?.debug('command received', { key: cmd.key, team: actor.teamId });
    // The app refuses to start unless every command of the table has a handler (nouns/assemble.ts).
    const handler = o.dispatch.command(cmd.key);
    if (!handler) throw new Error(`no handler for ${cmd.key}`);
    const respond = respondTo(command.response_url);
    const delivery = { client, respond, userId: actor.userId, channelId: ctx.channelId, triggerId: command.trigger_id };
    if (!cmd.needsToken) {
      // These answer from the bot's own state (help, whoami…): the answer can ride on the ack itself.
      const reply = await handler(cmd, ctx);
      if (reply.kind === 'message') {
        const type = reply.inChannel ? 'in_channel' : 'ephemeral';
        await acknowledge(context, ack, { response_type: type, ...reply.message });
        return;
      }
      await acknowledge(context, ack);
      await deliver(delivery, reply);
      return;
    }
    // Acknowledged above. A person without a usable token is told so, and nothing is asked of the server.
    const problem = connectionProblem(await ctx.session.connection(), o.gitlabUrl);
    if (problem) {
      markRefused(context);
      await deliver(delivery, { kind: 'message', message: buildConnectPrompt(problem, o.serverUrl, o.slashCommand) });
      return;
    }
    if (!respond) {
      await deliver(delivery, await handler(cmd, ctx));
      return;
    }
    const note = startWorkingNote({
      respond,
      afterMs: o.workingNoteMs ?? WORKING_NOTE_MS,
      text: ':hourglass_flowing_sand: Working on it… the server is taking a moment; the answer will take this place.',
    });
    ctx.workingOn = (message) => note.say(message);
    // A card that follows what it shows counts the response_url's uses: the note is one of them.
    ctx.responseUsesSpent = () => {
      void note.settle();
      return note.shown ? 2 : 1;
    };
    let reply: Awaited<ReturnType<typeof handler>>;
    try {
      reply = await handler(cmd, ctx);
    } catch (err) {
      await note.settle();
      if (note.shown) await respond({ delete_original: true }).catch(() => undefined);
      throw err;
    }
    await note.settle();
    await deliver(note.shown ? { ...delivery, replaceNote: true } : delivery, reply);
  });
}
