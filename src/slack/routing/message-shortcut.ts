import type { MessageShortcut } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { ShortcutIds } from '../../ids.js';
import { openIssueFromMessage } from '../../nouns/issue-from-message.js';
import type { Platform } from '../../nouns/types.js';
import type { Actor, RequestContext, Session } from '../../operations/context.js';
import type { IssueOperations } from '../../operations/issues.js';
import { acknowledge, setAnswerChannel } from '../transport/acknowledge.js';
import { deliver } from '../web-api/deliver.js';
import type { Routes } from './routes.js';

// Bolt glue of the message shortcut "Create issue": what Slack says about the message (its text, files, thread,
// permalink, the names of people it mentions) goes to the issue form. Failures (not connected, no such project) are
// said by the error middleware through the shortcut's response_url, to the person alone.

export interface MessageShortcutOptions {
  platform: Platform;
  issues: IssueOperations;
  sessionOf(actor: Actor): Session;
  now(): Date;
}

/** A permalink Slack gave, kept only when it is a plain https address of a sane length. */
const PERMALINK = /^https:\/\/[^\s<>|]{1,490}$/;

async function permalinkOf(
  client: WebClient,
  channel: string,
  ts: string,
  logger: { info(message: string): void },
): Promise<string | null> {
  try {
    const res = await client.chat.getPermalink({ channel, message_ts: ts });
    return typeof res.permalink === 'string' && PERMALINK.test(res.permalink) ? res.permalink : null;
  } catch (err) {
    logger.info(`no permalink for a message; the issue goes without a link to it (${String(err)})`);
    return null;
  }
}

async function slackNameOf(client: WebClient, userId: string): Promise<string | null> {
  try {
    const { user } = await client.users.info({ user: userId });
    const name = user?.profile?.display_name || user?.real_name || user?.name;
    return name ? name.slice(0, 80) : null;
  } catch {
    return null;
  }
}

function filesOf(message: MessageShortcut['message']): { name: string }[] {
  const files: unknown = message.files;
  if (!Array.isArray(files)) return [];
  return files.flatMap((file: { name?: unknown; title?: unknown }) => {
    const name =
      typeof file?.name === 'string' && file.name ? file.name : typeof file?.title === 'string' ? file.title : '';
    return name ? [{ name }] : [];
  });
}

export function registerMessageShortcut(routes: Routes, options: MessageShortcutOptions): void {
  routes.shortcut(ShortcutIds.issueFromMessage, async ({ ack, shortcut, client, context, logger }) => {
    await acknowledge(context, ack);
    const channelId = shortcut.channel.id;
    setAnswerChannel(context, channelId);
    const actor = {
      teamId: shortcut.team?.id ?? shortcut.user.team_id ?? '',
      userId: shortcut.user.id,
      userName: shortcut.user.username ?? shortcut.user.name,
    };
    const ctx: RequestContext = { actor, channelId, now: options.now(), session: options.sessionOf(actor) };
    const message = shortcut.message;
    // Not connected: the Connect prompt (by the error middleware), before anything is asked of Slack.
    await ctx.session.token();
    const threadTs = typeof message.thread_ts === 'string' && message.thread_ts ? message.thread_ts : message.ts;
    const view = await openIssueFromMessage(ctx, options.platform, options.issues, {
      message: {
        text: typeof message.text === 'string' ? message.text : '',
        files: filesOf(message),
        permalink: await permalinkOf(client, channelId, message.ts, logger),
        threadTs,
        responseUrl: typeof shortcut.response_url === 'string' ? shortcut.response_url : null,
      },
      slackName: (id) => slackNameOf(client, id),
    });
    const delivery = { client, respond: undefined, userId: actor.userId, channelId, triggerId: shortcut.trigger_id };
    await deliver(delivery, { kind: 'modal', view });
  });
}
