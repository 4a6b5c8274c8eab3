import { findBlockViolations } from '../views/limits.js';
import type { FakeRecord, FakeWorkspace } from './fake-slack-state.js';
import type { Body } from './fake-slack-wire.js';

// A response_url, as Slack serves it: a new message (ephemeral unless `in_channel`), or the message the click came
// from (or, for a command, the message it posted) replaced or deleted; at most five uses; blocks held to the same limits as chat.postMessage. Answers the HTTP
// status and body Slack would.

export function answerResponseUrl(w: FakeWorkspace, id: string, body: Body): [number, Body] {
  const entry = w.responseUrls.get(id);
  const rec: Omit<FakeRecord, 'seq'> = {
    kind: 'response_url',
    method: 'response_url',
    body,
    ok: false,
    violations: [],
  };
  const fail = (status: number, error: string): [number, Body] => {
    rec.error = error;
    w.record(rec);
    return [status, { ok: false, error }];
  };
  if (!entry) return fail(404, 'no_active_hooks');
  entry.uses += 1;
  if (entry.uses > 5) return fail(404, 'used_url');
  const violations = findBlockViolations(body.blocks, 'message');
  if (violations.length) {
    rec.violations.push(...violations);
    return fail(400, 'invalid_blocks');
  }
  const truthy = (x: unknown) => x === true || x === 'true';
  if (truthy(body.delete_original)) {
    const m = entry.originKey ? w.messages.get(entry.originKey) : undefined;
    if (!m) return fail(404, 'message_not_found');
    m.deleted = true;
    rec.message = m;
  } else if (truthy(body.replace_original)) {
    const m = entry.originKey ? w.messages.get(entry.originKey) : undefined;
    if (!m) return fail(404, 'message_not_found');
    m.text = String(body.text ?? '');
    m.blocks = body.blocks as unknown[] | undefined;
    m.version += 1;
    m.source = 'response_url';
    rec.message = m;
  } else {
    if (body.text == null && body.blocks == null) return fail(400, 'no_text');
    const inChannel = body.response_type === 'in_channel';
    rec.message = w.addMessage({
      channel: entry.channel,
      text: String(body.text ?? ''),
      blocks: body.blocks as unknown[] | undefined,
      ephemeral: !inChannel,
      visibleTo: inChannel ? null : entry.user,
      source: 'response_url',
    });
    // A slash command's response_url has no message of its own until it posts one: that one is what a later
    // `replace_original` through it replaces (Slack: a command's URL only updates the message that command produced).
    entry.originKey ??= rec.message.key;
  }
  rec.ok = true;
  w.record(rec);
  return [200, { ok: true }];
}
