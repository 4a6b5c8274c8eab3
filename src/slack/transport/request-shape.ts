import { parse as parseQuery } from 'node:querystring';
import { z } from 'zod';

// Whether a signed body is one of the objects Slack sends, read the way Bolt will read it. Bolt trusts the
// shape of a verified body: `payload=null` or a JSON `null` made it throw outside any listener and the
// process exit. Only the fields Bolt reads before a listener runs are checked, so a new field Slack adds
// changes nothing here.

const FORM = 'application/x-www-form-urlencoded';

const id = z.string().min(1);
const withId = z.looseObject({ id });

// Commands and interactions come with every person's request, before its ack: they are checked field by field
// (the same rules zod's looseObject would apply, without its copy of every field). Events keep the schema below.

type Fields = Record<string, unknown>;
const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown) => typeof v === 'string' && v.length >= 1;
const isOptionalString = (v: unknown) => v === undefined || typeof v === 'string';
const hasId = (v: unknown) => isObject(v) && isId(v.id);
const isOptionalObject = (v: unknown) => v === undefined || isObject(v);
const COMMAND_NAME = /^\/\S+$/;

/** A slash command: a form whose fields are single strings. */
function isCommand(fields: Fields): boolean {
  return (
    typeof fields.command === 'string' &&
    COMMAND_NAME.test(fields.command) &&
    isId(fields.user_id) &&
    isOptionalString(fields.team_id) &&
    isOptionalString(fields.channel_id) &&
    isOptionalString(fields.text)
  );
}

const isAction = (v: unknown) => isObject(v) && isId(v.action_id);

/**
 * What each kind of interaction carries whenever Slack sends it, and its listener reads: a click with no action
 * (or an action without its string id) or a submission with no view is none of Slack's, and is refused at once
 * instead of reaching a listener that cannot read it.
 */
function carriesItsKind(payload: Fields): boolean {
  switch (payload.type) {
    case 'block_actions':
      return Array.isArray(payload.actions) && payload.actions.length > 0 && payload.actions.every(isAction);
    case 'view_submission':
    case 'view_closed':
      return isObject(payload.view) && isOptionalString(payload.view.callback_id);
    case 'block_suggestion':
      return isId(payload.action_id);
    case 'shortcut':
    case 'message_action':
      return isId(payload.callback_id);
    default:
      return true;
  }
}

/** An interaction's `payload`: buttons, modals, shortcuts, option lists. */
function isInteraction(payload: unknown): boolean {
  if (!isObject(payload)) return false;
  const { team, channel, actions } = payload;
  return (
    isId(payload.type) &&
    hasId(payload.user) &&
    (team === undefined || team === null || hasId(team)) &&
    (channel === undefined || hasId(channel)) &&
    (actions === undefined || (Array.isArray(actions) && actions.every(isObject))) &&
    isOptionalObject(payload.view) &&
    isOptionalObject(payload.message) &&
    isOptionalObject(payload.container) &&
    carriesItsKind(payload)
  );
}

/** The Events API's three bodies. */
const eventsApi = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('url_verification'), challenge: z.string() }),
  z.looseObject({ type: z.literal('app_rate_limited') }),
  z.looseObject({
    type: z.literal('event_callback'),
    event_id: z.string().optional(),
    event: z.looseObject({
      type: id,
      channel: z.union([z.string(), withId]).optional(),
      channel_id: z.string().optional(),
      item: z.looseObject({}).optional(),
    }),
  }),
]);

/**
 * What the events the bot listens to carry whenever Slack sends them: Home is opened by someone, and a workflow
 * step names its function and its execution. A `user` is a person's id (or, in a few events, their object).
 */
function eventCarriesItsType(event: Fields): boolean {
  const { user } = event;
  if (user !== undefined && !isId(user) && !hasId(user)) return false;
  switch (event.type) {
    case 'app_home_opened':
      return isId(user);
    case 'link_shared':
      return isId(user) && Array.isArray(event.links) && event.links.every(isObject);
    case 'function_executed':
      return (
        isObject(event.function) &&
        isId(event.function.callback_id) &&
        isId(event.function_execution_id) &&
        isOptionalObject(event.inputs)
      );
    default:
      return true;
  }
}

function isEventsApiBody(value: unknown): boolean {
  if (!eventsApi.safeParse(value).success) return false;
  const body = value as Fields;
  return body.type !== 'event_callback' || eventCarriesItsType(body.event as Fields);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** A signed body read the way Bolt reads it (the form, an interaction's payload, or JSON), or why it is not Slack's. */
export type SlackBody = { ok: true; body: Record<string, unknown> } | { ok: false; problem: string };

/**
 * Reads a signed body as Bolt's receiver would (a form's `payload` is the body when there is one) and checks it is
 * one Slack sends. `contentType` is the request's header as Bolt compares it: only an exact form content type is
 * read as a form, anything else as JSON. The body is read once here and handed to Bolt as it is.
 */
export function readSlackBody(contentType: string | undefined, raw: string): SlackBody {
  if (contentType === FORM) {
    const fields = parseQuery(raw);
    if (fields.payload !== undefined) {
      if (typeof fields.payload !== 'string') return { ok: false, problem: 'more than one payload' };
      const payload = parseJson(fields.payload);
      if (!payload.ok) return { ok: false, problem: 'a payload that is not JSON' };
      return isInteraction(payload.value)
        ? { ok: true, body: payload.value as Fields }
        : { ok: false, problem: 'a payload that is not an interaction' };
    }
    return isCommand(fields)
      ? { ok: true, body: fields }
      : { ok: false, problem: 'a form that is neither a command nor an interaction' };
  }
  const body = parseJson(raw);
  if (!body.ok) return { ok: false, problem: 'a body that is not JSON' };
  return isEventsApiBody(body.value)
    ? { ok: true, body: body.value as Fields }
    : { ok: false, problem: 'JSON that is not an Events API body' };
}

/** Why a body is not one Slack sends (a short reason for the log), or null when it is. */
export function bodyProblem(contentType: string | undefined, raw: string): string | null {
  const read = readSlackBody(contentType, raw);
  return read.ok ? null : read.problem;
}
