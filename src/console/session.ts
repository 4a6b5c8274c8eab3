import fs from 'node:fs';
import path from 'node:path';
import { NoopButtons } from '../buttons/common.js';
import { actionIdFor, BlockIds, ShortcutIds } from '../ids.js';
import type { FakeFile, FakeMessage, FakeRecord, FakeSlack } from './fake-slack.js';
import { maskTokens } from './mask.js';
import type { SlackPerson } from './payloads.js';
import { mrkdwnToText, type RenderedButton, renderBlocks } from './render.js';
import { type FoundButton, type Interaction, inputHint, type SlackDriver } from './slack-driver.js';
import { describeStepEnd, parseStepLine, STEP_HELP } from './step-command.js';

// The console's conversation: one line in, what Slack would have shown out. Lines are
// slash commands, button presses by number, or console commands (as, tick, help, quit).
// Button numbers run on through the whole session, so any button still on screen can be
// pressed; a redrawn message gets new numbers and its old ones stop working.

export interface SessionDeps {
  slack: SlackDriver;
  fake: FakeSlack;
  people: Record<string, SlackPerson>;
  /** Advances the simulator's fake runner. */
  tick(): Promise<void>;
  /**
   * Asks the person a question (the next script line in script mode); null at end of input.
   * A `secret` answer (a token) must not be shown back.
   */
  ask(question: string, o?: { secret?: boolean }): Promise<string | null>;
  write(text: string): void;
  channel: string;
  slashCommand: string;
  /** Slack channel ids people know by name: `C0DEMO` → `demo`. */
  channelNames?: Record<string, string>;
  /** The host of the server's links: only links to it are sent to the bot to preview (Slack's unfurl domain). */
  linkHost?: string;
  /** How long the bot may stay quiet before a turn counts as finished (when it cannot say it is done: no `busy`). */
  quietMs?: number;
  /**
   * Whether the bot is still handling a request it was sent (more of the answer may come). When given, a turn
   * ends as soon as the bot has nothing in flight; what it sends later on its own (a digest run it started) is
   * printed when it comes.
   */
  busy?: () => boolean;
  turnTimeoutMs?: number;
  /** Waits that long (the console's `wait <seconds>`, for scripts that wait for a cron); real time by default. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * How long a turn waits for an answer that may never come (a link the bot does not preview, a button that only
   * opens a URL); whatever comes later is printed when it comes.
   */
  mayNotAnswerMs?: number;
  /** Where files that are not text (a chart's PNG) are written, so a person can open them; absent: not written. */
  fileDir?: string;
}

export interface Session {
  readonly user: string;
  /** Handles one line; resolves false when the person asked to quit. */
  handle(line: string): Promise<boolean>;
  /** Stops printing what the bot sends between lines. */
  close(): void;
}

const HELP = [
  'Type what you would type in Slack, or a console command:',
  '  /gl <command>        e.g. /gl jobs demo/web --scope failed   (the /gl may be left out)',
  '  3, click 3           press button 3; numbers run on through the session, and any button',
  '                       still shown can be pressed (a redrawn message gets new numbers)',
  '  as <user>            act as alice, bob, root or eve (each is connected with its simulator token)',
  '  home                 open your Home tab in Slack: your connection, todos, merge requests, issues, digests',
  '  post <text>          post a message in #demo as yourself; links of the server in it are previewed',
  '  shortcut issue <n>   "Create issue" on message n: the issue form, filled in from the message; the',
  '                       answer goes in its thread (messages in channels are numbered like buttons, and',
  '                       a message keeps its number when it is updated)',
  '  tick                 advance the simulator: jobs progress, pipelines finish, activity appears',
  STEP_HELP,
  '  y, n                 answer your own last "Yes, …" prompt of a typed command (its Yes or Never mind)',
  '  wait <seconds>       let time pass (at most 600 s) and print what arrives, e.g. a digest on its cron',
  '  help, quit',
  'What the bot sends on its own (a digest on its cron, a DM) is printed when it is sent.',
].join('\n');

/** The "Never mind" of a typed command's confirmation prompt. */
const DISMISS_ACTION = actionIdFor(NoopButtons.dismiss);

/**
 * A record of something people see: a message the app sent or changed, a view it opened or published, or a
 * workflow step it completed.
 */
const shows = (r: FakeRecord): boolean =>
  (!!r.message && !r.message.user) || (!!r.view && r.ok) || (r.ok && r.method.startsWith('functions.complete'));

/** Which numbers a message's buttons got, for the version of it that was shown. */
interface NumberedMessage {
  version: number;
  first: number;
  count: number;
}

interface NumberedButton extends RenderedButton {
  messageKey: string;
  version: number;
  /** A button of a Home tab: whose Home, and the view it was on (a Home published again replaces it). */
  home?: { userId: string; view: Record<string, unknown> };
}

/** An input whose answer is a secret: the connect modal's token, or anything labelled like one. */
function isSecretInput(block: Record<string, unknown>, label: string): boolean {
  return block.block_id === BlockIds.connectToken || /\b(token|password|secret)\b/i.test(label);
}

export function createSession(d: SessionDeps): Session {
  let user = 'alice';
  let nextNumber = 1;
  const buttons = new Map<number, NumberedButton>();
  /** Messages shown in channels (not ephemeral ones), by number, for message shortcuts; a message keeps its number. */
  let nextMessage = 1;
  const messageNumbers = new Map<string, number>();
  const numberedMessages = new Map<number, string>();
  const messageNumberOf = (m: FakeMessage): number | null => {
    if (m.ephemeral) return null;
    const known = messageNumbers.get(m.key);
    if (known !== undefined) return known;
    const n = nextMessage++;
    messageNumbers.set(m.key, n);
    numberedMessages.set(n, m.key);
    return n;
  };
  const numbered = new Map<string, NumberedMessage>();
  const quietMs = d.quietMs ?? 250;
  const turnTimeoutMs = d.turnTimeoutMs ?? 15_000;
  const mayNotAnswerMs = d.mayNotAnswerMs ?? 3000;
  const person = () => d.people[user] as SlackPerson;
  const userName = (id: string) => Object.values(d.people).find((p) => p.id === id)?.name;
  /** Whose direct message with the bot a channel is (the fake names a DM after its person). */
  const dmOf = (channel: string) => Object.values(d.people).find((p) => `D${p.id.slice(1)}` === channel)?.name;
  const channelName = (id: string): string | undefined => {
    const named = d.channelNames?.[id];
    if (named) return `#${named}`;
    const dm = id.startsWith('D') ? dmOf(id) : undefined;
    return dm ? `@${dm}'s DM` : undefined;
  };
  const channelLabel = (id: string) => channelName(id) ?? `#${id}`;
  /** The Home tab each person was last shown, by Slack user id: only its buttons can still be pressed. */
  const homes = new Map<string, string>();
  /** Published Home tabs already printed (by record), and removed messages already said to be gone. */
  const printedViews = new Set<number>();
  const printedRemovals = new Set<string>();
  /**
   * Each person's last typed-command confirmation shown ("Yes, …" / Never mind), by the Slack id it was shown to,
   * for a bare `y` or `n`: a question is answered only by whom it was asked of.
   */
  const lastPrompts = new Map<string, { yes: number; no: number }>();
  /** While a line is handled its turn prints what comes; between lines what the bot sends is printed at once. */
  let inTurn = false;
  let closed = false;
  const render = (blocks: unknown[] | undefined, fallback: string, firstButton: number | null) =>
    renderBlocks(blocks, fallback, { userName, channelName, firstButton });

  /**
   * Waits until the bot has answered and then stayed quiet, or the turn times out. An answer
   * carried by the ack itself counts; an empty ack of a form submission may be all there is.
   */
  async function settle(it: Interaction, o: { mayNotAnswer?: boolean } = {}): Promise<void> {
    // The request was acknowledged, so the bot counts it as in flight until its answer is delivered.
    if (d.busy) {
      const until = Date.now() + (o.mayNotAnswer ? mayNotAnswerMs : turnTimeoutMs);
      while (d.busy() && Date.now() < until) {
        await d.fake.waitFor(() => true, { fromSeq: d.fake.lastSeq, timeoutMs: 10 });
      }
      return;
    }
    const started = Date.now();
    const limit = o.mayNotAnswer ? mayNotAnswerMs : turnTimeoutMs;
    let last = d.fake.lastSeq;
    let lastChange = Date.now();
    for (;;) {
      // Only what people see counts as the answer: the bot's other calls (a time zone, a DM opened) come before it.
      const answered = it.ack.text.length > 0 || it.records(shows).length > 0;
      if (d.fake.lastSeq !== last) {
        last = d.fake.lastSeq;
        lastChange = Date.now();
      }
      if (answered && Date.now() - lastChange >= quietMs) return;
      if (Date.now() - started >= limit) return;
      await d.fake.waitFor(() => true, { fromSeq: d.fake.lastSeq, timeoutMs: quietMs });
    }
  }

  function where(m: FakeMessage): string {
    return `${place(m)}${threadOf(m)}`;
  }

  /** ", in the thread of message 3" for a reply in a thread. */
  function threadOf(m: FakeMessage): string {
    if (!m.threadTs || m.threadTs === m.ts) return '';
    const parent = messageNumbers.get(`${m.channel}:${m.threadTs}`);
    return parent === undefined ? ', in a thread' : `, in the thread of message ${parent}`;
  }

  function place(m: FakeMessage): string {
    if (m.user) return `${userName(m.user) ?? m.user} in ${channelLabel(m.channel)}`;
    if (m.ephemeral) {
      const only = m.visibleTo && m.visibleTo !== person().id ? (userName(m.visibleTo) ?? m.visibleTo) : 'you';
      return `only ${only} can see this, in ${channelLabel(m.channel)}`;
    }
    const dm = dmOf(m.channel);
    if (dm) return `direct message to ${dm}`;
    return `posted in ${channelLabel(m.channel)}`;
  }

  /** A message as printed, its buttons numbered: the version already shown keeps its numbers, a new one gets the next. */
  function describe(m: FakeMessage): string {
    const known = numbered.get(m.key);
    const same = known?.version === m.version;
    const r = render(m.blocks, m.text, same && known ? known.first : nextNumber);
    if (!same) {
      numbered.set(m.key, { version: m.version, first: nextNumber, count: r.buttons.length });
      for (const b of r.buttons) buttons.set(b.number, { ...b, messageKey: m.key, version: m.version });
      nextNumber += r.buttons.length;
      const no = r.buttons.find((b) => b.action_id === DISMISS_ACTION);
      const yes = r.buttons.find((b) => b !== no && b.value !== undefined);
      if (no && yes && !m.user && m.visibleTo) lastPrompts.set(m.visibleTo, { yes: yes.number, no: no.number });
    }
    const edited = m.version > 1 && !m.user ? ', updated' : '';
    const numberShown = messageNumberOf(m);
    const numberText = numberShown === null ? '' : ` · message ${numberShown}`;
    const files = [...(m.files ?? []), ...imageFilesOf(m)].map(describeFile);
    // Link previews Slack shows under a message, as the bot unfurled them.
    const unfurls = Object.values(m.unfurls ?? {}).map(
      (u) => `▏ ${render(u.blocks as unknown[] | undefined, '', null).text.replace(/\n/g, '\n▏ ')}`,
    );
    return `┌ ${where(m)}${edited}${numberText}\n${indent([r.text, ...files, ...unfurls].filter(Boolean).join('\n'))}`;
  }

  /** Files an image block of the message shows (`slack_file`: one the bot uploaded without sharing it). */
  function imageFilesOf(m: FakeMessage): FakeFile[] {
    return (m.blocks ?? []).flatMap((b) => {
      const id = (b as { type?: string; slack_file?: { id?: string } }).slack_file?.id;
      const f = (b as { type?: string }).type === 'image' && id ? d.fake.files.get(id) : undefined;
      if (!f?.bytes) return [];
      return [
        {
          id: f.id,
          name: f.filename,
          content: f.content ?? '',
          bytes: f.bytes,
          ...(f.altText ? { altText: f.altText } : {}),
        },
      ];
    });
  }

  /** A text file is shown by its first lines; an image is written to a file whose path is printed, with its alt text. */
  function describeFile(f: FakeFile): string {
    if (!isBinary(f.bytes)) return `📎 ${f.name} (${f.bytes.length} bytes)\n${preview(f.content)}`;
    const alt = f.altText ? `\n${f.altText}` : '';
    if (!d.fileDir) return `📎 ${f.name} (${f.bytes.length} bytes)${alt}`;
    const saved = path.join(d.fileDir, `${f.id}-${path.basename(f.name)}`);
    fs.mkdirSync(d.fileDir, { recursive: true });
    fs.writeFileSync(saved, f.bytes);
    return `📎 ${f.name} (${f.bytes.length} bytes), saved to ${saved}${alt}`;
  }

  /** A Home tab as published: its buttons numbered, and the only Home of its person whose buttons work. */
  function describeHome(userId: string, view: Record<string, unknown>): string {
    const r = render(view.blocks as unknown[] | undefined, '', nextNumber);
    const key = `home:${userId}:${String(view.id)}`;
    homes.set(userId, String(view.id));
    for (const b of r.buttons) buttons.set(b.number, { ...b, messageKey: key, version: 1, home: { userId, view } });
    nextNumber += r.buttons.length;
    return `┌ Home tab of ${userName(userId) ?? userId}\n${indent(r.text)}`;
  }

  /** Prints every message, modal and file of a turn; numbers its buttons; opens modals as forms. */
  async function show(it: Interaction): Promise<void> {
    if (it.ack.status !== 200) {
      d.write(`(the bot answered HTTP ${it.ack.status})`);
      return;
    }
    const out = it.messages().map(describe);
    for (const rec of it.records(shows)) {
      const ended = describeStepEnd(rec, d.fake);
      if (ended) {
        printedViews.add(rec.seq);
        out.push(ended);
      }
    }
    for (const rec of it.records((r: FakeRecord) => r.method === 'views.publish' && r.ok && !!r.view)) {
      printedViews.add(rec.seq);
      out.push(describeHome(String(rec.body.user_id), rec.view as Record<string, unknown>));
    }
    // A modal replaced by the answer to its submission (response_action: update) is shown, not filled in.
    const replaced = it.ack.json?.response_action === 'update' ? (it.ack.json.view as Record<string, unknown>) : null;
    if (replaced)
      out.push(`┌ form: ${viewTitle(replaced)}\n${indent(render(replaced.blocks as unknown[], '', null).text)}`);
    // A message taken away (Never mind on a prompt) is said to be gone, with the buttons that went with it.
    for (const rec of it.records((r: FakeRecord) => !!r.message?.deleted)) {
      const gone = removal(rec.message as FakeMessage);
      if (gone) out.push(gone);
    }
    if (out.length > 0) d.write(out.join('\n'));
    const views = it.records((r: FakeRecord) => r.method === 'views.open' && r.ok && !!r.view);
    for (const rec of views) await fillModal(rec.view as Record<string, unknown>);
    if (out.length === 0 && views.length === 0) d.write('(no answer)');
  }

  /** "(removed …)" for a message shown before and deleted since, once; null otherwise. */
  function removal(m: FakeMessage): string | null {
    const shown = numbered.get(m.key);
    if (!shown || printedRemovals.has(m.key)) return null;
    printedRemovals.add(m.key);
    for (const [who, p] of lastPrompts) {
      if (p.yes >= shown.first && p.yes < shown.first + shown.count) lastPrompts.delete(who);
    }
    return shown.count > 0 ? `(removed the message with buttons ${range(shown)})` : '(removed a message)';
  }

  /** Prints what the bot sent that has not been shown yet: new messages and new versions, Home tabs, removals. */
  function printUnshown(records: readonly FakeRecord[]): void {
    const out: string[] = [];
    for (const r of records) {
      if (r.message && !r.message.user) {
        const m = d.fake.messages.get(r.message.key) ?? r.message;
        if (m.deleted) {
          const gone = removal(m);
          if (gone) out.push(gone);
        } else if (numbered.get(m.key)?.version !== m.version) out.push(describe(m));
      } else if (describeStepEnd(r, d.fake) && !printedViews.has(r.seq)) {
        printedViews.add(r.seq);
        out.push(describeStepEnd(r, d.fake) as string);
      } else if (r.method === 'views.publish' && r.ok && r.view && !printedViews.has(r.seq)) {
        printedViews.add(r.seq);
        out.push(describeHome(String(r.body.user_id), r.view));
      }
    }
    if (out.length > 0) d.write(out.join('\n'));
  }

  // Between lines, whatever the bot sends on its own (a digest on its cron, a DM) is printed as it is sent.
  const onRecord = (r: FakeRecord) => {
    if (!inTurn && !closed && shows(r)) printUnshown([r]);
  };
  d.fake.on('record', onRecord);

  async function fillModal(view: Record<string, unknown>): Promise<void> {
    const title = viewTitle(view);
    const blocks = (view.blocks as Record<string, unknown>[] | undefined) ?? [];
    const intro = render(
      blocks.filter((b) => b.type !== 'input'),
      '',
      null,
    ).text;
    d.write(`┌ form: ${title}\n${indent(intro)}`);
    const values: Record<string, string | null> = {};
    /** Asks one field; false when the person ended the form (end of input). */
    const askField = async (b: Record<string, unknown>): Promise<boolean> => {
      const id = b.block_id as string;
      const label = (b.label as { text?: string } | undefined)?.text ?? id;
      // A field the form fills in is shown; Enter keeps it as it is, "-" empties it.
      const filled = (b.element as { initial_value?: unknown } | undefined)?.initial_value;
      const prefilled = typeof filled === 'string' && filled !== '' ? filled : null;
      if (prefilled !== null) d.write(`  ${label} is filled in:\n${indent(prefilled).replace(/^/gm, '  ')}`);
      const keep = prefilled !== null ? ' (Enter keeps it, - empties it)' : '';
      const answer = await d.ask(`  ${label}${inputHint(b.element)}${b.optional ? ' (optional)' : ''}${keep}: `, {
        secret: isSecretInput(b, label),
      });
      if (answer === null) return false;
      if (prefilled !== null && answer.trim() === '') {
        delete values[id];
        return true;
      }
      values[id] = answer.trim() === '' || (prefilled !== null && answer.trim() === '-') ? null : answer;
      return true;
    };
    const inputs = blocks.filter((b) => b.type === 'input' && typeof b.block_id === 'string');
    for (const b of inputs) {
      if (!(await askField(b))) {
        d.write('  (form cancelled)');
        return;
      }
    }
    // A field the bot refuses is asked again, alone, as Slack keeps the form open with the error under that field:
    // the other answers stay as they were.
    for (let round = 0; ; round++) {
      const submitted = await d.slack.submitView(person(), view, values);
      // A form's empty acknowledgement may be all there is (the form just closes), or the answer follows it.
      await settle(submitted, { mayNotAnswer: true });
      const ack = submitted.ack.json;
      if (ack?.response_action !== 'errors') {
        await show(submitted);
        return;
      }
      const errors = (ack.errors as Record<string, string>) ?? {};
      const wrong = inputs.filter((b) => typeof errors[b.block_id as string] === 'string');
      d.write(`  ✗ ${Object.values(errors).join('; ')}`);
      if (wrong.length === 0 || round >= 4) return;
      for (const b of wrong) {
        if (!(await askField(b))) {
          d.write('  (form cancelled)');
          return;
        }
      }
    }
  }

  /** The button behind a number, if it is still on screen as it was numbered; otherwise says why not. */
  function pressable(n: number): { b: NumberedButton; message: FakeMessage | null } | null {
    const b = buttons.get(n);
    if (!b) {
      d.write(
        nextNumber > 1
          ? `There is no button ${n}; buttons so far are 1–${nextNumber - 1}.`
          : 'No buttons to press yet.',
      );
      return null;
    }
    if (b.home) {
      const owner = userName(b.home.userId) ?? b.home.userId;
      if (b.home.userId !== person().id) {
        d.write(`Button ${n} is on ${owner}'s Home tab, which only ${owner} sees.`);
        return null;
      }
      if (homes.get(b.home.userId) !== String(b.home.view.id)) {
        d.write(`Button ${n} was on an earlier version of your Home tab; type "home" to see it as it is now.`);
        return null;
      }
      return { b, message: null };
    }
    const message = d.fake.messages.get(b.messageKey);
    if (!message || message.deleted) {
      d.write(`Button ${n} was on a message that has since been deleted.`);
      return null;
    }
    // An ephemeral message is on its person's screen only: nobody else can press its buttons.
    if (message.ephemeral && message.visibleTo && message.visibleTo !== person().id) {
      const owner = userName(message.visibleTo) ?? message.visibleTo;
      d.write(`Button ${n} is on a message only ${owner} can see (type "as ${owner}" to press it).`);
      return null;
    }
    if (message.version === b.version) return { b, message };
    const shown = numbered.get(b.messageKey);
    if (shown?.version === message.version) {
      d.write(
        shown.count > 0
          ? `Button ${n} was on an earlier version of its message; its buttons are now ${range(shown)}.`
          : `Button ${n} was on an earlier version of its message, which has no buttons now.`,
      );
    } else {
      d.write(`Button ${n}'s message has changed since it was shown; here it is now:\n${describe(message)}`);
    }
    return null;
  }

  async function press(n: number): Promise<void> {
    const found = pressable(n);
    if (!found) return;
    const { b, message } = found;
    if (b.url && !b.value) d.write(`(opens ${b.url})`);
    if (b.confirm) {
      // A dialog's text is mrkdwn, drawn like any other text (channels and people by name, no markers).
      const said = mrkdwnToText(b.confirm.text?.text ?? '', userName, channelName);
      const q = `${b.confirm.title?.text ?? 'Are you sure?'} ${said} [y/N] `;
      const answer = (await d.ask(q.replace(/\s+/g, ' ')))?.trim().toLowerCase();
      if (answer !== 'y' && answer !== 'yes') {
        d.write('(not pressed)');
        return;
      }
    }
    const pressed = {
      text: b.text,
      action_id: b.action_id,
      ...(b.block_id ? { block_id: b.block_id } : {}),
      ...(b.value !== undefined ? { value: b.value } : {}),
    };
    const it =
      b.home || !message
        ? await d.slack.clickInView(person(), { ...pressed, view: b.home?.view ?? {} })
        : await d.slack.click(person(), { ...pressed, message } satisfies FoundButton);
    // A button that opens a URL needs no answer from the bot.
    const opensUrl = b.url !== undefined;
    await settle(it, { mayNotAnswer: opensUrl });
    if (opensUrl && it.records(shows).length === 0 && it.ack.text.length === 0) return;
    await show(it);
  }

  /** Handles a line: one turn, after which anything it left unprinted is printed. */
  async function turn(line: string): Promise<boolean> {
    const from = d.fake.lastSeq;
    inTurn = true;
    try {
      return await handleLine(line);
    } finally {
      inTurn = false;
      if (!closed) printUnshown(d.fake.since(from, shows));
    }
  }

  async function handleLine(raw: string): Promise<boolean> {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return true;
    const click = /^(?:click\s+)?(\d+)$/i.exec(line);
    if (click) {
      await press(Number(click[1]));
      return true;
    }
    // y/N after a typed command's "Yes, …" prompt, as help promises.
    const answer = /^(y|yes|n|no)$/i.exec(line);
    if (answer) {
      // A question is answered by the person it was asked of, as its buttons are pressed only by them.
      const asked = lastPrompts.get(person().id);
      if (!asked) {
        d.write(`There is no question of yours to answer; y and n answer your own last "Yes, …" prompt.`);
        return true;
      }
      const n = /^y/i.test(line) ? asked.yes : asked.no;
      await press(n);
      return true;
    }
    const [word, ...rest] = line.split(/\s+/);
    switch (word?.toLowerCase()) {
      case 'quit':
      case 'exit':
        return false;
      case 'help':
      case '?':
        if (rest.length === 0) {
          d.write(HELP);
          return true;
        }
        break;
      case 'as': {
        const who = rest[0]?.toLowerCase();
        if (!who || !d.people[who]) d.write(`Who? One of: ${Object.keys(d.people).join(', ')}.`);
        else {
          user = who;
          d.write(`Now acting as ${who}.`);
        }
        return true;
      }
      case 'home': {
        const it = await d.slack.openHome(person());
        await settle(it);
        await show(it);
        return true;
      }
      case 'post': {
        const text = line.slice(word.length).trim();
        if (!text) {
          d.write('Post what? e.g. post have a look: http://…/demo/web/-/issues/4');
          return true;
        }
        const links = [...text.matchAll(/https?:\/\/[^\s<>|]+/g)].map((m) => m[0]);
        // Slack asks the bot about links of its unfurl domain only; the bot may also leave one unpreviewed.
        const server = d.linkHost ? links.filter((l) => hostOf(l) === d.linkHost) : links;
        const { message, it } = await d.slack.postMessage(person(), {
          channel: d.channel,
          text,
          urls: links,
          unfurled: server,
        });
        if (server.length > 0) await settle(it, { mayNotAnswer: true });
        // The person's own message is what they typed: shown back with any token in it masked.
        d.write(maskTokens(describe(d.fake.messages.get(message.key) ?? message)));
        const answers = it.messages().filter((m) => m.key !== message.key);
        if (answers.length > 0) d.write(answers.map(describe).join('\n'));
        return true;
      }
      case 'step': {
        const parsed = parseStepLine(line.slice(word.length), d.people);
        if (!parsed.ok) {
          d.write(parsed.error);
          return true;
        }
        const { it } = await d.slack.runStep(parsed.step, parsed.inputs);
        await settle(it);
        await show(it);
        return true;
      }
      case 'shortcut': {
        const [what, n] = rest;
        if (what?.toLowerCase() !== 'issue' || !n || !/^\d+$/.test(n)) {
          d.write(
            'Which message? e.g. shortcut issue 2 ("Create issue" on message 2; messages in channels are numbered).',
          );
          return true;
        }
        const key = numberedMessages.get(Number(n));
        const message = key ? d.fake.messages.get(key) : undefined;
        if (!message || message.deleted) {
          d.write(
            key
              ? `Message ${n} has since been deleted.`
              : nextMessage > 1
                ? `There is no message ${n}; messages so far are 1–${nextMessage - 1}.`
                : 'No messages in channels yet: post one first.',
          );
          return true;
        }
        const it = await d.slack.shortcut(person(), ShortcutIds.issueFromMessage, message);
        await settle(it);
        await show(it);
        return true;
      }
      case 'wait': {
        const seconds = Number(rest[0]);
        if (!rest[0] || !Number.isFinite(seconds) || seconds <= 0 || seconds > 600) {
          d.write('Wait how long? e.g. wait 60 (seconds, at most 600): what arrives meanwhile is printed.');
          return true;
        }
        await (d.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))))(seconds * 1000);
        d.write(`(${seconds} s passed)`);
        return true;
      }
      case 'tick':
        await d.tick();
        d.write('The simulator ticked: jobs moved on, pipelines may have finished.');
        return true;
      default:
        break;
    }
    const text = line.startsWith(d.slashCommand)
      ? line.slice(d.slashCommand.length).trim()
      : line.replace(/^\/\S+\s*/, '');
    const it = await d.slack.command(person(), text, { channel: d.channel });
    await settle(it);
    await show(it);
    return true;
  }

  return {
    get user() {
      return user;
    },
    handle: turn,
    close() {
      closed = true;
      d.fake.off('record', onRecord);
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

function range(m: NumberedMessage): string {
  return m.count === 1 ? String(m.first) : `${m.first}–${m.first + m.count - 1}`;
}

function viewTitle(view: Record<string, unknown>): string {
  return (view.title as { text?: string } | undefined)?.text ?? 'Form';
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `│ ${l}`)
    .join('\n');
}

/** Bytes that are not text: a NUL, or not valid UTF-8 (images, archives). */
function isBinary(bytes: Buffer): boolean {
  if (bytes.includes(0)) return true;
  return !Buffer.from(bytes.toString('utf8'), 'utf8').equals(bytes);
}

function preview(content: string): string {
  const lines = content.split('\n');
  const head = lines.slice(0, 5).join('\n');
  return lines.length > 5 ? `${head}\n… (${lines.length - 5} more lines)` : head;
}
