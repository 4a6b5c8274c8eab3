import { z } from 'zod';

// Every action_id / callback_id the bot puts on a surface, and the codec of button values.
// Values travel through Slack and come back from anyone who can see the message, so they are
// decoded with zod and never trusted further than that. Each noun defines its buttons (name and
// value schema) in src/buttons/; the app decodes a click against the buttons its nouns register.

export const ACTION_PREFIX = 'gl:';

export const CallbackIds = {
  connect: 'gl:connect',
} as const;

/** Shortcuts declared in manifest.yml (a test keeps the two equal). */
export const ShortcutIds = {
  issueFromMessage: 'gl_issue_from_message',
} as const;

export const BlockIds = {
  connectToken: 'connect_token',
} as const;

export const InputActionIds = {
  connectToken: 'token',
} as const;

/** A button: its name (the action_id after the prefix) and the schema of its value. */
export interface ButtonDef<N extends string = string, S extends z.ZodType = z.ZodType> {
  readonly name: N;
  readonly schema: S;
}

export type ButtonValue<D extends ButtonDef> = z.output<D['schema']>;

/** The buttons of one noun: `defineButtons('job', { retry: schema })` names them `job.retry`. */
export function defineButtons<P extends string, M extends Record<string, z.ZodType>>(
  prefix: P,
  schemas: M,
): { readonly [K in keyof M & string]: ButtonDef<`${P}.${K}`, M[K]> } {
  const out: Record<string, ButtonDef> = {};
  for (const [key, schema] of Object.entries(schemas)) out[key] = { name: `${prefix}.${key}`, schema };
  return out as { readonly [K in keyof M & string]: ButtonDef<`${P}.${K}`, M[K]> };
}

/**
 * A project path as buttons carry it. Segments may not be `.` or `..` (a value is attacker-controlled and
 * is put into an API path), and nothing but the characters a project path can hold.
 */
export const ProjectKeySchema = z.union([
  z
    .string()
    .min(1)
    .max(255)
    .regex(/^[A-Za-z0-9_.+-]+(?:\/[A-Za-z0-9_.+-]+)*$/)
    .refine((p) => p.split('/').every((segment) => segment !== '.' && segment !== '..')),
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
]);

export const Id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A commit sha as the server writes it (a typed `--sha` may be shortened). */
export const ShaSchema = z.string().regex(/^[0-9a-f]{7,64}$/i);

/** Where a row button sits: the list's command text and page, so the list can be redrawn after the action. */
export const ListPlace = {
  q: z.string().max(1200).optional(),
  n: z.number().int().positive().max(10_000).optional(),
};

/** action_id for a button; `slot` tells apart two buttons of the same kind in one actions block. */
export function actionIdFor(def: ButtonDef, slot?: string | number): string {
  return slot === undefined ? `${ACTION_PREFIX}${def.name}` : `${ACTION_PREFIX}${def.name}#${slot}`;
}

/** The value as sent: typed by the definition, so it is not validated again on the way out. */
export function encodeButtonValue<D extends ButtonDef>(def: D, value: z.input<D['schema']>): string {
  const text = JSON.stringify(value);
  if (text.length > 2000)
    throw new Error(`button value for ${def.name} is ${text.length} characters (Slack allows 2000)`);
  return text;
}

/** A modal a noun opens: its name (the callback_id after the prefix) and the schema of what it remembers. */
export interface ModalDef<N extends string = string, S extends z.ZodType = z.ZodType> {
  readonly name: N;
  readonly schema: S;
}

export type ModalValue<D extends ModalDef> = z.output<D['schema']>;

export const MODAL_PREFIX = 'gl:modal:';

/** The modals of one noun: `defineModals('issue', { create: schema })` names them `issue.create`. */
export function defineModals<P extends string, M extends Record<string, z.ZodType>>(
  prefix: P,
  schemas: M,
): { readonly [K in keyof M & string]: ModalDef<`${P}.${K}`, M[K]> } {
  return defineButtons(prefix, schemas);
}

export function callbackIdFor(def: ModalDef): string {
  return `${MODAL_PREFIX}${def.name}`;
}

/** The message a modal was opened from, to redraw it when the modal is submitted. */
export interface OpenedFrom {
  message?: { ts: string; ephemeral: boolean } | null;
  /**
   * The opening click's response_url: the one way to redraw an ephemeral message later (Slack keeps it
   * usable for 30 minutes and 5 answers).
   */
  responseUrl?: string | null;
  /** When the modal was opened: a response_url is only good for 30 minutes after its click. */
  at?: Date;
  /** Opened from the Home tab: its answer redraws the Home. */
  home?: boolean;
}

/**
 * A modal's private_metadata: the channel it was opened from (where its answer goes), optionally the message
 * it was opened from, and what the modal remembers (its value, checked against the modal's schema when it is
 * submitted).
 */
export function encodeModalMetadata<D extends ModalDef>(
  def: D,
  channelId: string | null,
  value: z.input<D['schema']>,
  from: OpenedFrom = {},
): string {
  const m = from.message ? { t: from.message.ts, e: from.message.ephemeral } : undefined;
  const text = JSON.stringify({
    c: channelId,
    v: value,
    ...(m ? { m } : {}),
    ...(from.responseUrl ? { r: from.responseUrl } : {}),
    ...(from.at ? { a: from.at.getTime() } : {}),
    ...(from.home ? { h: true } : {}),
  });
  if (text.length > 3000)
    throw new Error(`private_metadata of ${def.name} is ${text.length} characters (Slack allows 3000)`);
  return text;
}

const ModalEnvelopeSchema = z
  .object({
    c: z.string().max(64).nullable(),
    v: z.unknown(),
    m: z
      .object({ t: z.string().max(64), e: z.boolean() })
      .strict()
      .optional(),
    r: z
      .url({ protocol: /^https?$/ })
      .max(1000)
      .optional(),
    a: z.number().int().nonnegative().optional(),
    h: z.literal(true).optional(),
  })
  .strict();

export type ModalDecodeResult =
  | {
      ok: true;
      name: string;
      channelId: string | null;
      message: { ts: string; ephemeral: boolean } | null;
      responseUrl: string | null;
      openedAt: Date | null;
      /** Opened from the Home tab. */
      home: boolean;
      value: unknown;
    }
  | { ok: false; reason: string };

/** The modal a submission names, where it was opened, and what it remembers, checked against its schema. */
export function decodeModalSubmission(
  callbackId: unknown,
  metadata: unknown,
  modals: ReadonlyMap<string, ModalDef>,
): ModalDecodeResult {
  if (typeof callbackId !== 'string' || !callbackId.startsWith(MODAL_PREFIX)) {
    return { ok: false, reason: "not one of this bot's forms" };
  }
  const name = callbackId.slice(MODAL_PREFIX.length);
  const def = modals.get(name);
  if (!def) return { ok: false, reason: `unknown form ${JSON.stringify(name.slice(0, 60))}` };
  let raw: unknown;
  try {
    raw = JSON.parse(String(metadata ?? ''));
  } catch {
    return { ok: false, reason: 'the form does not say where it came from' };
  }
  const envelope = ModalEnvelopeSchema.safeParse(raw);
  if (!envelope.success) return { ok: false, reason: 'the form does not say where it came from' };
  const value = def.schema.safeParse(envelope.data.v);
  if (!value.success) return { ok: false, reason: 'the form does not have the expected shape' };
  const m = envelope.data.m;
  return {
    ok: true,
    name,
    channelId: envelope.data.c,
    message: m ? { ts: m.t, ephemeral: m.e } : null,
    responseUrl: envelope.data.r ?? null,
    openedAt: envelope.data.a === undefined ? null : new Date(envelope.data.a),
    home: envelope.data.h === true,
    value: value.data,
  };
}

/** One input of a submitted modal as Slack sends it (the field that is set depends on the element's type). */
export interface ViewInputState {
  type: string;
  value?: string | null;
  selected_date?: string | null;
  selected_option?: { value: string } | null;
  selected_options?: { value: string }[];
}

/** A submitted modal's inputs: block_id → action_id → state. */
export type ViewStateValues = Readonly<Record<string, Readonly<Record<string, ViewInputState>>>>;

// The connect modal remembers where it was opened, to answer there (and whether that was the Home tab, which is
// drawn again once the person is connected).
const ConnectMetadataSchema = z.object({ c: z.string().max(64).nullable(), h: z.literal(true).optional() }).strict();
export type ConnectMetadata = { channelId: string | null; home?: boolean };

export function encodeConnectMetadata(m: ConnectMetadata): string {
  return JSON.stringify({ c: m.channelId, ...(m.home ? { h: true } : {}) });
}

export function decodeConnectMetadata(text: unknown): Required<ConnectMetadata> {
  try {
    const parsed = ConnectMetadataSchema.safeParse(JSON.parse(String(text)));
    return parsed.success
      ? { channelId: parsed.data.c, home: parsed.data.h === true }
      : { channelId: null, home: false };
  } catch {
    return { channelId: null, home: false };
  }
}

export type DecodeResult = { ok: true; name: string; value: unknown } | { ok: false; reason: string };

/** The button a click names and its value, checked against that button's schema. */
export function decodeButtonAction(
  actionId: unknown,
  value: unknown,
  buttons: ReadonlyMap<string, ButtonDef>,
): DecodeResult {
  if (typeof actionId !== 'string' || !actionId.startsWith(ACTION_PREFIX)) {
    return { ok: false, reason: "not one of this bot's buttons" };
  }
  const name = actionId.slice(ACTION_PREFIX.length).split('#')[0] as string;
  const def = buttons.get(name);
  if (!def) return { ok: false, reason: `unknown button ${JSON.stringify(name.slice(0, 60))}` };
  let raw: unknown = {};
  if (typeof value === 'string' && value.length > 0) {
    if (value.length > 2000) return { ok: false, reason: 'the button value is too long' };
    try {
      raw = JSON.parse(value);
    } catch {
      return { ok: false, reason: 'the button value is not valid JSON' };
    }
  }
  const parsed = def.schema.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: 'the button value does not have the expected shape' };
  return { ok: true, name, value: parsed.data };
}
