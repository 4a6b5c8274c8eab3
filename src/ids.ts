import { z } from 'zod';

// Every action_id / callback_id the bot puts on a surface, and the codec of button
// values. Values travel through Slack and come back from anyone who can see the
// message, so they are decoded with zod and never trusted further than that.

export const ACTION_PREFIX = 'gl:';

export const CallbackIds = {
  connect: 'gl:connect',
} as const;

export const BlockIds = {
  connectToken: 'connect_token',
} as const;

export const InputActionIds = {
  connectToken: 'token',
} as const;

const ProjectSchema = z.union([z.string().min(1).max(255), z.number().int().positive()]);

const id = z.number().int().positive();
/** Where a row button sits: the list's command text and page, so the list can be redrawn after the action. */
const listContext = { q: z.string().max(1200).optional(), n: z.number().int().positive().max(10_000).optional() };
const JobButton = z.object({ p: ProjectSchema, j: id, ...listContext }).strict();
const PipelineButton = z.object({ p: ProjectSchema, i: id, ...listContext }).strict();
const ScheduleButton = z.object({ p: ProjectSchema, s: id, ...listContext }).strict();

export type JobButtonValue = z.infer<typeof JobButton>;
export type PipelineButtonValue = z.infer<typeof PipelineButton>;
export type ScheduleButtonValue = z.infer<typeof ScheduleButton>;

// One schema per button. Short keys keep values far below Slack's 2000-character limit.
export const ButtonSchemas = {
  'account.connect': z.object({}).strict(),
  'noop.dismiss': z.object({}).strict(),
  'link.open': z.object({}).strict(),
  /** The next page of a list: its command text (re-parsed, so filters stay) and the page to show. */
  'list.page': z.object({ q: z.string().min(1).max(1500), n: z.number().int().positive().max(10_000) }).strict(),
  'job.show': JobButton,
  'job.retry': JobButton,
  'job.cancel': JobButton,
  'job.play': JobButton,
  'job.erase': JobButton,
  'job.keep': JobButton,
  'job.trace': JobButton,
  'pipeline.show': PipelineButton,
  'pipeline.retry': PipelineButton,
  'pipeline.cancel': PipelineButton,
  'pipeline.jobs': PipelineButton,
  'schedule.show': ScheduleButton,
  'schedule.take': ScheduleButton,
  'schedule.activate': ScheduleButton,
  'schedule.deactivate': ScheduleButton,
  'schedule.delete': ScheduleButton,
} as const;

export type ButtonName = keyof typeof ButtonSchemas;
export type ButtonValue<N extends ButtonName> = z.infer<(typeof ButtonSchemas)[N]>;
export type ButtonAction = { [N in ButtonName]: { name: N; value: ButtonValue<N> } }[ButtonName];

/** action_id for a button; `slot` tells apart two buttons of the same kind in one actions block. */
export function actionIdFor(name: ButtonName, slot?: string | number): string {
  return slot === undefined ? `${ACTION_PREFIX}${name}` : `${ACTION_PREFIX}${name}#${slot}`;
}

export function encodeButtonValue<N extends ButtonName>(name: N, value: ButtonValue<N>): string {
  const text = JSON.stringify(ButtonSchemas[name].parse(value));
  if (text.length > 2000) throw new Error(`button value for ${name} is ${text.length} characters (Slack allows 2000)`);
  return text;
}

// The connect modal remembers where it was opened, to answer there.
const ConnectMetadataSchema = z.object({ c: z.string().max(64).nullable() }).strict();
export type ConnectMetadata = { channelId: string | null };

export function encodeConnectMetadata(m: ConnectMetadata): string {
  return JSON.stringify({ c: m.channelId });
}

export function decodeConnectMetadata(text: unknown): ConnectMetadata {
  try {
    const parsed = ConnectMetadataSchema.safeParse(JSON.parse(String(text)));
    return parsed.success ? { channelId: parsed.data.c } : { channelId: null };
  } catch {
    return { channelId: null };
  }
}

export type DecodeResult = { ok: true; action: ButtonAction } | { ok: false; reason: string };

export function decodeButtonAction(actionId: unknown, value: unknown): DecodeResult {
  if (typeof actionId !== 'string' || !actionId.startsWith(ACTION_PREFIX)) {
    return { ok: false, reason: "not one of this bot's buttons" };
  }
  const name = actionId.slice(ACTION_PREFIX.length).split('#')[0] as string;
  if (!Object.hasOwn(ButtonSchemas, name)) return { ok: false, reason: `unknown button ${JSON.stringify(name)}` };
  let raw: unknown = {};
  if (typeof value === 'string' && value.length > 0) {
    try {
      raw = JSON.parse(value);
    } catch {
      return { ok: false, reason: 'the button value is not valid JSON' };
    }
  }
  const schema = ButtonSchemas[name as ButtonName] as z.ZodType;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'the button value does not have the expected shape' };
  return { ok: true, action: { name, value: parsed.data } as ButtonAction };
}
