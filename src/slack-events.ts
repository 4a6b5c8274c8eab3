import { z } from 'zod';

// The Events API events nouns may handle, and the part of each the bot reads. Slack sends more fields than
// these (and adds new ones); what is not read here is dropped, and an event without what is read is refused
// before any noun sees it.

const SlackUserId = z.string().regex(/^[UW][A-Z0-9]{1,30}$/);

export const SLACK_EVENTS = {
  /** The person opened the app's Home (or Messages, or About) tab. */
  app_home_opened: z.object({
    user: SlackUserId,
    tab: z.string().max(40).optional(),
  }),
  /**
   * A message with links of the app's unfurl domains was posted (`conversations_history`), or is being typed
   * (`composer`: then `channel` is not a real channel and the unfurl is addressed by `unfurl_id`).
   */
  link_shared: z.object({
    user: SlackUserId,
    channel: z.string().min(1).max(64),
    message_ts: z.string().min(1).max(64),
    links: z.array(z.object({ url: z.string().min(1).max(4000), domain: z.string().max(255).optional() })).max(100),
    source: z.string().max(64).optional(),
    unfurl_id: z.string().min(1).max(128).optional(),
  }),
} as const;

export type SlackEventType = keyof typeof SLACK_EVENTS;
export type SlackEventOf<T extends SlackEventType> = z.output<(typeof SLACK_EVENTS)[T]>;

export const SLACK_EVENT_TYPES = Object.keys(SLACK_EVENTS) as SlackEventType[];

export type SlackEventDecodeResult<T extends SlackEventType> =
  | { ok: true; event: SlackEventOf<T> }
  | { ok: false; reason: string };

/** The fields of an event the bot reads, checked; anything else Slack sent is left out. */
export function decodeSlackEvent<T extends SlackEventType>(type: T, raw: unknown): SlackEventDecodeResult<T> {
  const parsed = SLACK_EVENTS[type].safeParse(raw);
  if (!parsed.success) return { ok: false, reason: `the ${type} event does not have the expected shape` };
  return { ok: true, event: parsed.data as SlackEventOf<T> };
}
