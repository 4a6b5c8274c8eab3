import type { FakeMessage, FakeRecord, FakeSlack } from './fake-slack.js';
import {
  blockActionsBody,
  eventCallbackBody,
  functionExecutedEvent,
  messageShortcutBody,
  type SlackPerson,
  slashCommandBody,
  viewActionsBody,
  viewSubmissionBody,
} from './payloads.js';
import { type SignOptions, signedRequest } from './signing.js';

// Talks to the bot the way Slack does (signed requests to /slack/events) and reads
// back what people would see from the fake Slack.

export interface Ack {
  status: number;
  text: string;
  json: Record<string, unknown> | null;
}

export interface FoundButton {
  text: string;
  action_id: string;
  block_id?: string;
  value?: string;
  url?: string;
  confirm?: unknown;
  style?: string;
  message: FakeMessage;
}

type Block = { type?: string; block_id?: string; text?: { text?: string }; fields?: { text?: string }[] } & Record<
  string,
  unknown
>;

function textOfBlocks(blocks: unknown[] | undefined): string {
  const out: string[] = [];
  for (const raw of blocks ?? []) {
    const b = raw as Block;
    if (b.text?.text) out.push(b.text.text);
    for (const f of b.fields ?? []) if (f.text) out.push(f.text);
    const els = (b.elements as { type?: string; text?: unknown }[] | undefined) ?? [];
    for (const e of els) {
      const t = e.text as { text?: string } | string | undefined;
      if (typeof t === 'string') out.push(t);
      else if (t?.text) out.push(e.type === 'button' ? `[${t.text}]` : t.text);
    }
    const acc = b.accessory as { type?: string; text?: { text?: string } } | undefined;
    if (acc?.type === 'button' && acc.text?.text) out.push(`[${acc.text.text}]`);
    if (b.type === 'input') out.push(((b.label as { text?: string } | undefined)?.text ?? '') as string);
  }
  return out.join('\n');
}

export function messageText(m: { text?: string; blocks?: unknown[] }): string {
  return [m.text ?? '', textOfBlocks(m.blocks)].filter(Boolean).join('\n');
}

export function buttonsOf(m: FakeMessage): FoundButton[] {
  const out: FoundButton[] = [];
  for (const raw of m.blocks ?? []) {
    const b = raw as Block;
    const push = (e: Record<string, unknown> | undefined) => {
      if (e?.type !== 'button') return;
      out.push({
        text: (e.text as { text: string }).text,
        action_id: String(e.action_id),
        block_id: b.block_id,
        value: e.value as string | undefined,
        url: e.url as string | undefined,
        confirm: e.confirm,
        style: e.style as string | undefined,
        message: m,
      });
    };
    if (b.type === 'actions') for (const e of (b.elements as Record<string, unknown>[]) ?? []) push(e);
    if (b.type === 'section') push(b.accessory as Record<string, unknown> | undefined);
  }
  return out;
}

/** A button of a view that is not a message (the Home tab): pressed with `SlackDriver.clickInView`. */
export interface FoundViewButton extends Omit<FoundButton, 'message'> {
  view: Record<string, unknown>;
}

/** Every button of a view (the Home tab), in order. */
export function buttonsOfView(view: Record<string, unknown>): FoundViewButton[] {
  const asMessage = { blocks: view.blocks as unknown[] | undefined } as FakeMessage;
  return buttonsOf(asMessage).map(({ message: _message, ...b }) => ({ ...b, view }));
}

export class Interaction {
  ack: Ack = { status: 0, text: '', json: null };
  ackMessage: FakeMessage | null = null;

  constructor(
    readonly fake: FakeSlack,
    readonly fromSeq: number,
    readonly meta: { channel: string | null; user: SlackPerson; triggerId: string },
  ) {}

  records(pred?: (r: FakeRecord) => boolean): FakeRecord[] {
    return this.fake.since(this.fromSeq, pred);
  }

  /** Messages created or changed after the request (latest state), the ack's own message first. */
  messages(): FakeMessage[] {
    const seen = new Map<string, FakeMessage>();
    if (this.ackMessage) seen.set(this.ackMessage.key, this.ackMessage);
    for (const r of this.records((x) => !!x.message)) if (r.message) seen.set(r.message.key, r.message);
    return [...seen.values()].map((m) => this.fake.messages.get(m.key) ?? m).filter((m) => !m.deleted);
  }

  views(): Record<string, unknown>[] {
    const fromAck =
      this.ack.json && (this.ack.json.response_action === 'update' || this.ack.json.response_action === 'push')
        ? [this.ack.json.view as Record<string, unknown>]
        : [];
    return [...fromAck, ...this.records((r) => !!r.view && r.ok).map((r) => r.view as Record<string, unknown>)];
  }

  text(): string {
    const parts = this.messages().map(messageText);
    for (const v of this.views()) parts.push(textOfBlocks(v.blocks as unknown[] | undefined));
    return parts.join('\n');
  }

  buttons(): FoundButton[] {
    return this.messages()
      .reverse()
      .flatMap((m) => buttonsOf(m));
  }

  button(match: RegExp): FoundButton | undefined {
    return this.buttons().find((b) => match.test(b.text) || match.test(b.action_id));
  }

  violations(): string[] {
    return this.records().flatMap((r) => r.violations.map((v) => `${r.method}: ${v}`));
  }

  waitFor(pred: (r: FakeRecord) => boolean, timeoutMs = 5000): Promise<FakeRecord | null> {
    return this.fake.waitFor(pred, { fromSeq: this.fromSeq, timeoutMs });
  }

  /** Waits until a message matching `pred` exists (the ack's own message counts). */
  async waitForMessage(pred: (text: string, m: FakeMessage) => boolean, timeoutMs = 5000): Promise<FakeMessage | null> {
    const check = () => this.messages().find((m) => pred(messageText(m), m)) ?? null;
    const now = check();
    if (now) return now;
    const rec = await this.waitFor(() => check() !== null, timeoutMs);
    return rec ? check() : null;
  }
}

const safeHost = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

type Option = { text: { text: string }; value: string };

interface InputElement {
  type: string;
  action_id: string;
  initial_value?: string;
  initial_date?: string;
  options?: Option[];
  initial_options?: Option[];
}

const YES = /^(y|yes|true|x|on)$/i;

/**
 * What Slack sends for an input given the text a person typed (undefined: left as it was): a date picker's
 * `selected_date`, the checkboxes whose value or text was typed (a yes ticks a single one), or a text's `value`.
 */
function inputState(el: InputElement, typed: string | null | undefined): Record<string, unknown> {
  switch (el.type) {
    case 'datepicker':
      return { type: el.type, selected_date: typed === undefined ? (el.initial_date ?? null) : typed };
    case 'checkboxes': {
      if (typed === undefined) return { type: el.type, selected_options: el.initial_options ?? [] };
      const options = el.options ?? [];
      const words = (typed ?? '')
        .split(',')
        .map((w) => w.trim().toLowerCase())
        .filter(Boolean);
      const chosen =
        options.length === 1 && words.length === 1 && YES.test(words[0] ?? '')
          ? options
          : options.filter((o) => words.includes(o.value.toLowerCase()) || words.includes(o.text.text.toLowerCase()));
      return { type: el.type, selected_options: chosen };
    }
    default:
      return { type: el.type, value: typed === undefined ? (el.initial_value ?? null) : typed };
  }
}

/** How to answer an input in a console form: a date as YYYY-MM-DD, checkboxes by yes or their values. */
export function inputHint(element: unknown): string {
  const el = element as Partial<InputElement> | undefined;
  if (el?.type === 'datepicker') return ' (YYYY-MM-DD)';
  if (el?.type === 'checkboxes') {
    const options = el.options ?? [];
    return options.length === 1
      ? ` (${options[0]?.text.text ?? ''}? yes/no)`
      : ` (${options.map((o) => o.value).join(', ')}, separated by commas)`;
  }
  return '';
}

export class SlackDriver {
  constructor(
    readonly o: {
      botUrl: string;
      signingSecret: string;
      fake: FakeSlack;
      command: string;
    },
  ) {}

  private async post(raw: string, sign: SignOptions | undefined, contentType?: string): Promise<Ack> {
    const { headers, body } = signedRequest(this.o.signingSecret, raw, sign);
    if (contentType) headers['content-type'] = contentType;
    const res = await fetch(`${this.o.botUrl}/slack/events`, { method: 'POST', headers, body });
    const text = await res.text();
    let json: Record<string, unknown> | null = null;
    try {
      json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      json = null;
    }
    return { status: res.status, text, json };
  }

  async command(
    user: SlackPerson,
    text: string,
    opts: { channel?: string; sign?: SignOptions; escape?: boolean } = {},
  ): Promise<Interaction> {
    const channel = opts.channel ?? 'C0TEST';
    const fake = this.o.fake;
    const triggerId = fake.issueTrigger();
    const it = new Interaction(fake, fake.lastSeq, { channel, user, triggerId });
    const responseUrl = fake.registerResponseUrl({ channel, user: user.id });
    const raw = slashCommandBody({
      user,
      command: this.o.command,
      text,
      channel,
      responseUrl,
      triggerId,
      escape: opts.escape,
    });
    it.ack = await this.post(raw, opts.sign);
    const body = it.ack.json ?? (it.ack.text ? { text: it.ack.text } : null);
    if (it.ack.status === 200 && body && (body.text != null || body.blocks != null)) {
      const inChannel = body.response_type === 'in_channel';
      it.ackMessage = fake.addMessage({
        channel,
        text: String(body.text ?? ''),
        blocks: body.blocks as unknown[] | undefined,
        ephemeral: !inChannel,
        visibleTo: inChannel ? null : user.id,
        source: 'ack',
      });
    }
    return it;
  }

  async click(user: SlackPerson, button: FoundButton, sign?: SignOptions): Promise<Interaction> {
    const fake = this.o.fake;
    const m = fake.messages.get(button.message.key) ?? button.message;
    const triggerId = fake.issueTrigger();
    const it = new Interaction(fake, fake.lastSeq, { channel: m.channel, user, triggerId });
    const responseUrl = fake.registerResponseUrl({ channel: m.channel, user: user.id, originKey: m.key });
    const execution = m.functionExecutionId ? fake.functionExecutions.get(m.functionExecutionId) : undefined;
    const raw = blockActionsBody({
      user,
      channel: m.channel,
      messageTs: m.ts,
      ephemeral: m.ephemeral,
      message: { text: m.text, blocks: m.blocks },
      button,
      responseUrl,
      triggerId,
      ...(execution
        ? {
            functionContext: {
              executionId: execution.id,
              callbackId: execution.callbackId,
              inputs: execution.inputs,
              token: fake.issueWorkflowToken(execution.id),
            },
          }
        : {}),
    });
    it.ack = await this.post(raw, sign);
    return it;
  }

  /** A click of a button on a view (the Home tab): no message, no channel, no response_url. */
  async clickInView(user: SlackPerson, button: FoundViewButton, sign?: SignOptions): Promise<Interaction> {
    const fake = this.o.fake;
    const triggerId = fake.issueTrigger();
    const it = new Interaction(fake, fake.lastSeq, { channel: null, user, triggerId });
    it.ack = await this.post(viewActionsBody({ user, view: button.view, button, triggerId }), sign);
    return it;
  }

  /** Opens the person's Home tab: the app_home_opened event Slack sends. */
  openHome(user: SlackPerson): Promise<Interaction> {
    return this.event({ type: 'app_home_opened', user: user.id, channel: `D${user.id.slice(1)}`, tab: 'home' });
  }

  /**
   * A person posts a message in a channel (its links written as Slack writes them, `<url>`); when it has links of
   * the app's unfurl domain (`unfurled`, default all of them), Slack sends link_shared for those. The interaction is
   * that event's (or, without such links, one with no request).
   */
  async postMessage(
    user: SlackPerson,
    {
      channel,
      text,
      urls,
      unfurled = urls,
    }: { channel: string; text: string; urls: readonly string[]; unfurled?: readonly string[] },
  ): Promise<{ message: FakeMessage; it: Interaction }> {
    const fake = this.o.fake;
    const written = urls.reduce((t, u) => t.split(u).join(`<${u}>`), text);
    const message = fake.addMessage({
      channel,
      text: written,
      ephemeral: false,
      visibleTo: null,
      source: 'person',
      user: user.id,
    });
    if (unfurled.length === 0) {
      const it = new Interaction(fake, fake.lastSeq, { channel, user, triggerId: '' });
      it.ack = { status: 200, text: '', json: null };
      return { message, it };
    }
    const links = [...new Set(unfurled)].map((url) => ({ url, domain: safeHost(url) }));
    const it = await this.event({ type: 'link_shared', user: user.id, channel, message_ts: message.ts, links });
    return { message, it };
  }

  /**
   * A person's message as Slack keeps it, with no event sent for it: its text as Slack writes it (markup and all),
   * optionally with files (by name) or in the thread of `threadTs`.
   */
  writeMessage(
    user: SlackPerson,
    {
      channel,
      text,
      files: fileNames = [],
      threadTs,
    }: { channel: string; text: string; files?: readonly string[]; threadTs?: string },
  ): FakeMessage {
    const fake = this.o.fake;
    const files = fileNames.map((name) => ({ id: fake.nextId('F'), name, content: '', bytes: Buffer.alloc(0) }));
    return fake.addMessage({
      channel,
      text,
      ephemeral: false,
      visibleTo: null,
      source: 'person',
      user: user.id,
      ...(files.length ? { files } : {}),
      ...(threadTs ? { threadTs } : {}),
    });
  }

  /** A message shortcut (`callbackId`) used by `user` on a message: its form opens with the trigger_id. */
  async shortcut(
    user: SlackPerson,
    callbackId: string,
    message: FakeMessage,
    sign?: SignOptions,
  ): Promise<Interaction> {
    const fake = this.o.fake;
    const m = fake.messages.get(message.key) ?? message;
    const triggerId = fake.issueTrigger();
    const it = new Interaction(fake, fake.lastSeq, { channel: m.channel, user, triggerId });
    const responseUrl = fake.registerResponseUrl({ channel: m.channel, user: user.id });
    const raw = messageShortcutBody({
      user,
      callbackId,
      channel: m.channel,
      message: fake.apiMessage(m, false) as Record<string, unknown> & { ts: string },
      responseUrl,
      triggerId,
    });
    it.ack = await this.post(raw, sign);
    return it;
  }

  /** A person's message of these links alone, posted: the message, and the link_shared event. */
  shareLinks(user: SlackPerson, channel: string, urls: string[]): Promise<{ message: FakeMessage; it: Interaction }> {
    return this.postMessage(user, { channel, text: urls.join(' '), urls });
  }

  /**
   * Links a person is still typing in a message composer: Slack sends link_shared with source `composer`,
   * an unfurl_id, and a channel and message_ts that name no posted message.
   */
  async composeLinks(user: SlackPerson, urls: string[]): Promise<{ unfurlId: string; it: Interaction }> {
    const unfurlId = this.o.fake.startComposing(urls);
    const links = [...new Set(urls)].map((url) => ({ url, domain: safeHost(url) }));
    const it = await this.event({
      type: 'link_shared',
      user: user.id,
      channel: 'COMPOSER',
      message_ts: `${user.id}-${unfurlId}`,
      unfurl_id: unfurlId,
      source: 'composer',
      links,
    });
    return { unfurlId, it };
  }

  /**
   * A workflow reaches a Workflow Builder step of the app: Slack starts a function execution and sends
   * function_executed with its workflow token. `deliver` posts the same callback again (a retry: same event_id).
   */
  async runStep(
    step: { callbackId: string; title: string },
    inputs: Record<string, unknown>,
  ): Promise<{ it: Interaction; executionId: string; deliver(o?: { retry?: number }): Promise<Ack> }> {
    const fake = this.o.fake;
    const { executionId, token } = fake.startFunctionExecution(step.callbackId, inputs);
    const event = functionExecutedEvent({
      callbackId: step.callbackId,
      title: step.title,
      inputs,
      executionId,
      workflowExecutionId: fake.nextId('Wx'),
      token,
    });
    const raw = eventCallbackBody(event);
    const it = new Interaction(fake, fake.lastSeq, { channel: null, user: { id: '', name: '' }, triggerId: '' });
    // Slack signs each delivery anew: here each one a second before the previous, so each has its own signature.
    const first = Math.floor(Date.now() / 1000);
    let sent = 0;
    const deliver = async (o: { retry?: number } = {}) => {
      const timestamp = first - sent;
      sent += 1;
      const { headers, body } = signedRequest(this.o.signingSecret, raw, { timestamp });
      headers['content-type'] = 'application/json';
      if (o.retry) {
        headers['x-slack-retry-num'] = String(o.retry);
        headers['x-slack-retry-reason'] = 'http_timeout';
      }
      const res = await fetch(`${this.o.botUrl}/slack/events`, { method: 'POST', headers, body });
      return { status: res.status, text: await res.text(), json: null };
    };
    it.ack = await deliver();
    return { it, executionId, deliver };
  }

  /** An Events API event (e.g. app_home_opened), signed like Slack's. */
  async event(event: Record<string, unknown>): Promise<Interaction> {
    const fake = this.o.fake;
    const it = new Interaction(fake, fake.lastSeq, {
      channel: null,
      user: { id: String(event.user ?? ''), name: '' },
      triggerId: '',
    });
    it.ack = await this.post(eventCallbackBody(event), undefined, 'application/json');
    return it;
  }

  /** Submits a modal; `values` maps an input's block_id to the text typed into it. */
  async submitView(user: SlackPerson, view: Record<string, unknown>, values: Record<string, string | null>) {
    const fake = this.o.fake;
    const triggerId = fake.issueTrigger();
    const it = new Interaction(fake, fake.lastSeq, { channel: null, user, triggerId });
    const state: Record<string, Record<string, unknown>> = {};
    for (const raw of (view.blocks as Block[] | undefined) ?? []) {
      if (raw.type !== 'input' || !raw.block_id) continue;
      const el = raw.element as InputElement;
      state[raw.block_id] = {
        [el.action_id]: inputState(el, raw.block_id in values ? values[raw.block_id] : undefined),
      };
    }
    it.ack = await this.post(viewSubmissionBody({ user, view, values: state, triggerId }), undefined);
    return it;
  }
}
