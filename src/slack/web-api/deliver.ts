import type { WebClient } from '@slack/web-api';
import type { Reply } from '../../nouns/types.js';
import { slackErrorCode } from '../../slack-errors.js';
import type { SlackMessage } from '../../views/blocks.js';
import { plainText } from '../../views/mrkdwn.js';
import { buildThreadRefused } from '../../views/thread-reply.js';
import type { Respond } from './respond.js';

// How a Reply reaches Slack. Slash commands answer through their response_url (respond),
// buttons redraw the card they sit on, modals need the request's trigger_id, the Home tab is published for
// the person, and link previews are attached to the message that carried the links.

export interface Delivery {
  client: WebClient;
  respond: Respond | undefined;
  userId: string;
  channelId: string | null;
  triggerId: string | undefined;
  /** The clicked message, for in-place redraws. */
  message?: { ts: string; ephemeral: boolean } | null;
  /** A "working on it…" note was shown through `respond`: the answer takes its place. */
  replaceNote?: boolean;
}

const asResponse = (m: SlackMessage) => (m.blocks ? { text: m.text, blocks: m.blocks } : { text: m.text });

/** A file name Slack shows and people save: letters, digits, dots, dashes and underscores, never empty. */
const safeFileName = (name: string) =>
  name
    .replace(/[^\w.-]+/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 200) || 'file';

export async function say(d: Delivery, message: SlackMessage, inChannel = false): Promise<void> {
  if (d.respond && d.replaceNote) {
    // The note is replaced by a private answer; an answer for the channel is a new message, so the note goes.
    if (!inChannel) return d.respond({ replace_original: true, ...asResponse(message) });
    await d.respond({ delete_original: true });
    return say({ ...d, replaceNote: false }, message, inChannel);
  }
  if (d.respond) {
    const type = inChannel ? 'in_channel' : 'ephemeral';
    // Returned, not awaited: nothing here holds the message (its blocks) while the answer is on its way.
    return d.respond(
      message.blocks
        ? { response_type: type, replace_original: false, text: message.text, blocks: message.blocks }
        : { response_type: type, replace_original: false, text: message.text },
    );
  }
  if (inChannel && d.channelId) {
    await d.client.chat.postMessage({ channel: d.channelId, ...asResponse(message) });
    return;
  }
  if (d.channelId) {
    await d.client.chat.postEphemeral({ channel: d.channelId, user: d.userId, ...asResponse(message) });
    return;
  }
  const dm = await d.client.conversations.open({ users: d.userId });
  if (dm.channel?.id) await d.client.chat.postMessage({ channel: dm.channel.id, ...asResponse(message) });
}

export async function deliver(d: Delivery, reply: Reply): Promise<void> {
  // Only a message takes the note's place; anything else (a form, a file, nothing) leaves no note behind.
  if (d.replaceNote && d.respond && reply.kind !== 'message') {
    await d.respond({ delete_original: true });
    return deliver({ ...d, replaceNote: false }, reply);
  }
  switch (reply.kind) {
    case 'none':
      return;
    case 'message':
      if (!reply.after) return say(d, reply.message, reply.inChannel ?? false);
      await say(d, reply.message, reply.inChannel ?? false);
      await deliver({ ...d, replaceNote: false }, reply.after);
      return;
    case 'thread':
      return replyInThread(d, reply.threadTs, reply.message);
    case 'modal':
      if (!d.triggerId) throw new Error('a modal needs a trigger_id');
      await d.client.views.open({ trigger_id: d.triggerId, view: reply.view });
      return;
    case 'update': {
      // The click's own response_url is fresh and replaces ephemeral and posted messages alike.
      if (d.respond) return d.respond({ replace_original: true, ...asResponse(reply.message) });
      const m = d.message;
      if (m && !m.ephemeral && d.channelId) {
        await d.client.chat.update({ channel: d.channelId, ts: m.ts, ...asResponse(reply.message) });
        return;
      }
      return say(d, reply.message);
    }
    case 'delete': {
      if (d.respond) await d.respond({ delete_original: true });
      else if (d.message && !d.message.ephemeral && d.channelId)
        await d.client.chat.delete({ channel: d.channelId, ts: d.message.ts });
      return;
    }
    case 'home':
      await d.client.views.publish({ user_id: d.userId, view: reply.view });
      return;
    case 'unfurl': {
      const t = reply.target;
      const where = 'unfurlId' in t ? { unfurl_id: t.unfurlId, source: t.source } : { channel: t.channel, ts: t.ts };
      await d.client.chat.unfurl({ ...where, unfurls: reply.unfurls });
      if (reply.after) await deliver(d, reply.after);
      return;
    }
    case 'upload': {
      let channel = reply.inChannel ? d.channelId : null;
      if (!channel) channel = (await d.client.conversations.open({ users: d.userId })).channel?.id ?? null;
      if (!channel) throw new Error('no channel to upload the file into');
      const f = reply.file;
      const shared = {
        channel_id: channel,
        filename: safeFileName(f.filename),
        // A title is plain text, but it may become notification text: it must not notify anyone.
        title: plainText(f.title),
        ...(f.altText ? { alt_text: f.altText.slice(0, 1000) } : {}),
      };
      await d.client.filesUploadV2(
        typeof f.content === 'string' ? { ...shared, content: f.content } : { ...shared, file: f.content },
      );
      return say(d, reply.message, reply.inChannel);
    }
  }
}

/**
 * Posts into the thread; when Slack will not take it from the bot (not a member, archived, restricted), the person
 * reads why and the reply privately: through the request's response_url, else ephemeral, else in a DM.
 */
async function replyInThread(d: Delivery, threadTs: string, m: SlackMessage): Promise<void> {
  if (!d.channelId) return say(d, m);
  try {
    await d.client.chat.postMessage({
      channel: d.channelId,
      thread_ts: threadTs,
      ...asResponse(m),
      unfurl_links: false,
    });
    return;
  } catch (err) {
    const refused = slackErrorCode(err);
    if (!refused) throw err;
    const privately = buildThreadRefused(refused, d.channelId, m);
    if (d.respond) return say(d, privately);
    try {
      await d.client.chat.postEphemeral({ channel: d.channelId, user: d.userId, ...asResponse(privately) });
    } catch (again) {
      if (!slackErrorCode(again)) throw again;
      await say({ ...d, channelId: null }, privately);
    }
  }
}
