import { findBlockViolations, findLimitViolations } from '../views/limits.js';
import { checkUnfurls, historyPage, parseMetadata } from './fake-slack-rules.js';
import type { FakeFile, FakeMessage, FakeRecord, FakeWorkspace } from './fake-slack-state.js';
import { type Body, truthy } from './fake-slack-wire.js';

// The Web API methods the bot calls, as Slack documents them: each answers { ok: true, … } or { ok: false, error }
// (always HTTP 200), refuses blocks that break the limits, and records what it showed people on the record of the
// call (`rec.message`, `rec.view`).

export function callMethod(
  workspace: FakeWorkspace,
  {
    method,
    body,
    rec,
    viaExecution,
  }: { method: string; body: Body; rec: Omit<FakeRecord, 'seq'>; viaExecution?: string },
): Body {
  const ok = (extra: Body = {}) => ({ ok: true, ...extra });
  const err = (error: string) => ({ ok: false, error });
  const checkBlocks = (): Body | null => {
    const v = findBlockViolations(body.blocks, 'message');
    if (v.length) {
      rec.violations.push(...v);
      return err('invalid_blocks');
    }
    return null;
  };
  switch (method) {
    case 'auth.test':
      return ok({
        team_id: workspace.team.id,
        user_id: workspace.bot.userId,
        bot_id: workspace.bot.botId,
        team: 'Test',
        user: 'bot',
      });
    case 'chat.postMessage':
    case 'chat.postEphemeral': {
      if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
      if (body.text == null && body.blocks == null) return err('no_text');
      const bad = checkBlocks();
      if (bad) return bad;
      if (workspace.refusedFileImages && showsSlackFile(body.blocks)) return err(workspace.refusedFileImages);
      const ephemeral = method === 'chat.postEphemeral';
      if (ephemeral && (typeof body.user !== 'string' || !workspace.users.has(body.user))) return err('user_not_found');
      const refused = ephemeral ? undefined : workspace.refusedChannels.get(workspace.resolveChannel(body.channel));
      if (refused) return err(refused);
      const meta = body.metadata === undefined || ephemeral ? null : parseMetadata(body.metadata);
      if (meta && 'error' in meta) return err(meta.error);
      const threadTs = !ephemeral && typeof body.thread_ts === 'string' && body.thread_ts ? body.thread_ts : null;
      rec.message = workspace.addMessage({
        channel: workspace.resolveChannel(body.channel),
        text: String(body.text ?? ''),
        blocks: body.blocks as unknown[] | undefined,
        ...(threadTs ? { threadTs } : {}),
        ephemeral,
        visibleTo: ephemeral ? String(body.user) : null,
        source: method,
        ...(meta ? { metadata: meta.metadata } : {}),
        ...(viaExecution ? { functionExecutionId: viaExecution } : {}),
      });
      return ephemeral
        ? ok({ message_ts: rec.message.ts })
        : ok({ channel: rec.message.channel, ts: rec.message.ts, message: workspace.apiMessage(rec.message, true) });
    }
    case 'chat.update': {
      const m = workspace.findMessage(body);
      if (!m) return err('message_not_found');
      if (m.user) return err('cant_update_message');
      const bad = checkBlocks();
      if (bad) return bad;
      const meta = body.metadata === undefined ? null : parseMetadata(body.metadata);
      if (meta && 'error' in meta) return err(meta.error);
      m.text = String(body.text ?? '');
      m.blocks = body.blocks as unknown[] | undefined;
      // metadata left out of an update stays as it was
      if (meta) m.metadata = meta.metadata;
      m.version += 1;
      m.source = 'chat.update';
      rec.message = m;
      return ok({ channel: m.channel, ts: m.ts, text: m.text });
    }
    case 'chat.getPermalink': {
      if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
      const m = workspace.findMessage({ channel: body.channel, ts: body.message_ts });
      if (!m) return err('message_not_found');
      const thread = m.threadTs ? `?thread_ts=${m.threadTs}&cid=${m.channel}` : '';
      return ok({
        channel: m.channel,
        permalink: `https://${workspace.team.domain}.slack.com/archives/${m.channel}/p${m.ts.replace('.', '')}${thread}`,
      });
    }
    case 'chat.delete': {
      if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
      const m = workspace.findMessage(body);
      if (!m) return err('message_not_found');
      if (m.user) return err('cant_delete_message');
      m.deleted = true;
      m.source = 'chat.delete';
      rec.message = m;
      return ok({ channel: m.channel, ts: m.ts });
    }
    case 'chat.unfurl': {
      // user_auth_message, user_auth_required, user_auth_url and user_auth_blocks only matter to a person who
      // has not authorised the app; they change nothing here.
      const target = unfurlTargetOf(workspace, body);
      if ('error' in target) return err(target.error);
      const shown = 'message' in target ? target.message : target.draft;
      const checked = checkUnfurls(body.unfurls, shown.text);
      if ('error' in checked) {
        rec.violations.push(...checked.violations);
        return err(checked.error);
      }
      shown.unfurls = { ...shown.unfurls, ...checked.unfurls };
      if ('message' in target) rec.message = target.message;
      return ok();
    }
    case 'conversations.history': {
      if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
      const channel = workspace.resolveChannel(body.channel);
      // Replies in threads are not part of a channel's history (conversations.replies reads them).
      const shown = [...workspace.messages.values()].filter(
        (m) => m.channel === channel && !m.deleted && !m.ephemeral && (!m.threadTs || m.threadTs === m.ts),
      );
      const page = historyPage(shown, body);
      if ('error' in page) return err(page.error);
      const withMetadata = truthy(body.include_all_metadata);
      return ok({
        messages: page.messages.map((m) => workspace.apiMessage(m, withMetadata)),
        has_more: page.has_more,
        pin_count: 0,
        ...(body.latest ? { latest: String(body.latest) } : {}),
        response_metadata: { next_cursor: page.next_cursor },
      });
    }
    case 'conversations.replies': {
      if (typeof body.channel !== 'string' || !body.channel) return err('channel_not_found');
      const channel = workspace.resolveChannel(body.channel);
      const parent = workspace.messages.get(`${channel}:${String(body.ts ?? '')}`);
      if (!parent || parent.deleted || parent.ephemeral) return err('thread_not_found');
      const thread = [...workspace.messages.values()].filter(
        (m) => m.channel === channel && !m.deleted && m.threadTs === parent.ts,
      );
      const page = historyPage(thread, body);
      if ('error' in page) return err(page.error);
      const withMetadata = truthy(body.include_all_metadata);
      // The parent first, then its replies oldest first, as Slack answers.
      const replies = [...page.messages].reverse();
      return ok({
        messages: [parent, ...replies].map((m) => workspace.apiMessage(m, withMetadata)),
        has_more: page.has_more,
        response_metadata: { next_cursor: page.next_cursor },
      });
    }
    case 'views.open':
    case 'views.push':
    case 'views.update':
    case 'views.publish': {
      if (method === 'views.open' || method === 'views.push') {
        const t = workspace.takeTrigger(body.trigger_id);
        if (t) {
          rec.violations.push(t);
          return err(t);
        }
      }
      const view = body.view as Record<string, unknown> | undefined;
      if (!view || typeof view !== 'object') return err('invalid_arguments');
      // A home tab is published for one known person, and only a home view can be (its limit is 100 blocks).
      if (method === 'views.publish') {
        if (typeof body.user_id !== 'string' || !workspace.users.has(body.user_id)) {
          rec.violations.push('invalid `user_id`');
          return { ...err('invalid_arguments'), response_metadata: { messages: ['invalid `user_id`'] } };
        }
        if (view.type !== 'home') {
          rec.violations.push(`views.publish needs a home view, got ${String(view.type)}`);
          return err('invalid_arguments');
        }
      } else if (view.type !== 'modal') {
        rec.violations.push(`${method} needs a modal, got ${String(view.type)}`);
        return err('invalid_arguments');
      }
      const v = findLimitViolations(view);
      if (v.length) {
        rec.violations.push(...v);
        return err('invalid_arguments');
      }
      const id = method === 'views.update' && typeof body.view_id === 'string' ? body.view_id : workspace.nextId('V');
      const stored = { ...view, id };
      workspace.views.set(id, stored);
      rec.view = stored;
      return ok({ view: stored });
    }
    case 'functions.completeSuccess':
    case 'functions.completeError': {
      const execution = workspace.functionExecutions.get(String(body.function_execution_id ?? ''));
      if (!execution) return err('function_execution_not_found');
      if (execution.ended !== null) return err('execution_not_in_running_state');
      if (method === 'functions.completeError') {
        if (typeof body.error !== 'string' || body.error === '') return err('invalid_arguments');
        execution.ended = { error: body.error };
      } else {
        let outputs = body.outputs;
        if (typeof outputs === 'string') outputs = JSON.parse(outputs);
        if (!outputs || typeof outputs !== 'object') return err('invalid_arguments');
        execution.ended = { outputs: outputs as Record<string, unknown> };
      }
      return ok();
    }
    case 'users.info': {
      const u = workspace.users.get(String(body.user ?? ''));
      if (!u) return err('user_not_found');
      return ok({
        user: {
          id: u.id,
          name: u.name,
          real_name: u.realName ?? u.name,
          tz: u.tz ?? 'UTC',
          is_admin: u.isAdmin === true,
          is_owner: false,
          profile: {},
        },
      });
    }
    case 'conversations.open': {
      const user = String(body.users ?? '').split(',')[0] ?? '';
      if (!workspace.users.has(user)) return err('user_not_found');
      return ok({ channel: { id: workspace.dmFor(user) } });
    }
    case 'files.getUploadURLExternal': {
      if (workspace.refusedUploads) return err(workspace.refusedUploads);
      const length = Number(body.length);
      if (typeof body.filename !== 'string' || !Number.isFinite(length) || length <= 0) return err('invalid_arguments');
      const id = workspace.nextId('F');
      const altText = typeof body.alt_text === 'string' && body.alt_text !== '' ? { altText: body.alt_text } : {};
      workspace.files.set(id, { id, filename: body.filename, content: null, bytes: null, ...altText });
      return ok({ upload_url: `${workspace.baseUrl}/upload/${id}`, file_id: id });
    }
    case 'files.completeUploadExternal': {
      let list = body.files;
      if (typeof list === 'string') list = JSON.parse(list);
      if (!Array.isArray(list) || list.length === 0) return err('invalid_arguments');
      const done: FakeFile[] = [];
      for (const f of list as { id: string; title?: string }[]) {
        const file = workspace.files.get(f.id);
        if (!file || file.content === null || file.bytes === null) return err('file_not_found');
        file.title = f.title ?? file.filename;
        const altText = file.altText === undefined ? {} : { altText: file.altText };
        done.push({ id: file.id, name: file.filename, content: file.content, bytes: file.bytes, ...altText });
      }
      const channel = typeof body.channel_id === 'string' ? body.channel_id : null;
      if (channel) {
        rec.message = workspace.addMessage({
          channel: workspace.resolveChannel(channel),
          text: String(body.initial_comment ?? ''),
          ephemeral: false,
          visibleTo: null,
          source: method,
          files: done,
        });
      }
      return ok({ files: done.map((f) => ({ id: f.id, name: f.name })) });
    }
    default:
      return err('unknown_method');
  }
}

/** What chat.unfurl addresses: channel and ts (a posted message), or unfurl_id and source (links in the composer). */
function unfurlTargetOf(
  w: FakeWorkspace,
  body: Body,
): { message: FakeMessage } | { draft: { text: string; unfurls?: Record<string, Body> } } | { error: string } {
  if (body.unfurl_id !== undefined || body.source !== undefined) {
    if (typeof body.unfurl_id !== 'string' || !body.unfurl_id) return { error: 'invalid_arguments' };
    if (body.source !== 'composer' && body.source !== 'conversations_history') return { error: 'invalid_source' };
    if (body.channel !== undefined || body.ts !== undefined) return { error: 'invalid_arguments' };
    const draft = body.source === 'composer' ? w.composing.get(body.unfurl_id) : undefined;
    return draft ? { draft } : { error: 'cannot_find_message' };
  }
  if (typeof body.channel !== 'string' || !body.channel) return { error: 'missing_channel' };
  if (typeof body.ts !== 'string' || !body.ts) return { error: 'missing_ts' };
  const message = w.findMessage(body);
  return message ? { message } : { error: 'cannot_find_message' };
}

/** Whether blocks show an uploaded file: an image block whose source is a `slack_file`. */
function showsSlackFile(blocks: unknown): boolean {
  return (
    Array.isArray(blocks) &&
    blocks.some(
      (b) =>
        (b as { type?: unknown; slack_file?: unknown })?.type === 'image' &&
        (b as { slack_file?: unknown }).slack_file !== undefined,
    )
  );
}
