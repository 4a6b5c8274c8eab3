import { BlockIds } from '../ids.js';
import type { FakeMessage, FakeRecord, FakeSlack } from './fake-slack.js';
import { maskTokens } from './mask.js';
import type { SlackPerson } from './payloads.js';
import { type RenderedButton, renderBlocks } from './render.js';
import { type FoundButton, type Interaction, inputHint, type SlackDriver } from './slack-driver.js';

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
  /** How long the bot may stay quiet before a turn counts as finished. */
  quietMs?: number;
  turnTimeoutMs?: number;
}

export interface Session {
  readonly user: string;
  /** Handles one line; resolves false when the person asked to quit. */
  handle(line: string): Promise<boolean>;
}

const HELP = [
  'Type what you would type in Slack, or a console command:',
  '  /gl <command>        e.g. /gl jobs demo/web --scope failed   (the /gl may be left out)',
  '  3, click 3           press button 3; numbers run on through the session, and any button',
  '                       still shown can be pressed (a redrawn message gets new numbers)',
  '  as <user>            act as alice, bob, root or eve (each is connected with its simulator token)',
  '  home                 open your Home tab in Slack: your connection, todos, merge requests, issues, digests',
  '  post <text>          post a message in #demo as yourself; links of the server in it are previewed',
  '  tick                 advance the simulator: jobs progress, pipelines finish, activity appears',
  '  help, quit',
].join('\n');

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
  const numbered = new Map<string, NumberedMessage>();
  const quietMs = d.quietMs ?? 250;
  const turnTimeoutMs = d.turnTimeoutMs ?? 15_000;
  const person = () => d.people[user] as SlackPerson;
  const userName = (id: string) => Object.values(d.people).find((p) => p.id === id)?.name;
  /** The Home tab each person was last shown, by Slack user id: only its buttons can still be pressed. */
  const homes = new Map<string, string>();

  /**
   * Waits until the bot has answered and then stayed quiet, or the turn times out. An answer
   * carried by the ack itself counts; an empty ack of a form submission may be all there is.
   */
  async function settle(it: Interaction, emptyAckIsFinal = false): Promise<void> {
    const started = Date.now();
    let last = d.fake.lastSeq;
    let lastChange = Date.now();
    for (;;) {
      const answered = it.ack.text.length > 0 || it.records().length > 0 || (emptyAckIsFinal && it.ack.status !== 0);
      if (d.fake.lastSeq !== last) {
        last = d.fake.lastSeq;
        lastChange = Date.now();
      }
      if (answered && Date.now() - lastChange >= quietMs) return;
      if (Date.now() - started >= turnTimeoutMs) return;
      await d.fake.waitFor(() => true, { fromSeq: d.fake.lastSeq, timeoutMs: quietMs });
    }
  }

  function where(m: FakeMessage): string {
    if (m.user) return `${userName(m.user) ?? m.user} in #${m.channel === d.channel ? 'demo' : m.channel}`;
    if (m.ephemeral) return 'only you can see this';
    if (m.channel.startsWith('D')) return 'direct message';
    return `posted in #${m.channel === d.channel ? 'demo' : m.channel}`;
  }

  /** A message as printed, its buttons numbered: the version already shown keeps its numbers, a new one gets the next. */
  function describe(m: FakeMessage): string {
    const known = numbered.get(m.key);
    const same = known?.version === m.version;
    const r = renderBlocks(m.blocks, m.text, { userName, firstButton: same && known ? known.first : nextNumber });
    if (!same) {
      numbered.set(m.key, { version: m.version, first: nextNumber, count: r.buttons.length });
      for (const b of r.buttons) buttons.set(b.number, { ...b, messageKey: m.key, version: m.version });
      nextNumber += r.buttons.length;
    }
    const edited = m.version > 1 && !m.user ? ', updated' : '';
    const files = (m.files ?? []).map((f) => `📎 ${f.name} (${f.content.length} bytes)\n${preview(f.content)}`);
    // Link previews Slack shows under a message, as the bot unfurled them.
    const unfurls = Object.values(m.unfurls ?? {}).map(
      (u) =>
        `▏ ${renderBlocks(u.blocks as unknown[] | undefined, '', { userName, firstButton: null }).text.replace(/\n/g, '\n▏ ')}`,
    );
    return `┌ ${where(m)}${edited}\n${indent([r.text, ...files, ...unfurls].filter(Boolean).join('\n'))}`;
  }

  /** A Home tab as published: its buttons numbered, and the only Home of its person whose buttons work. */
  function describeHome(userId: string, view: Record<string, unknown>): string {
    const r = renderBlocks(view.blocks as unknown[] | undefined, '', { userName, firstButton: nextNumber });
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
    for (const rec of it.records((r: FakeRecord) => r.method === 'views.publish' && r.ok && !!r.view)) {
      out.push(describeHome(String(rec.body.user_id), rec.view as Record<string, unknown>));
    }
    // A modal replaced by the answer to its submission (response_action: update) is shown, not filled in.
    const replaced = it.ack.json?.response_action === 'update' ? (it.ack.json.view as Record<string, unknown>) : null;
    if (replaced)
      out.push(
        `┌ form: ${viewTitle(replaced)}\n${indent(renderBlocks(replaced.blocks as unknown[], '', { userName, firstButton: null }).text)}`,
      );
    if (out.length > 0) d.write(out.join('\n'));
    const views = it.records((r: FakeRecord) => r.method === 'views.open' && r.ok && !!r.view);
    for (const rec of views) await fillModal(rec.view as Record<string, unknown>);
    if (out.length === 0 && views.length === 0) d.write('(no answer)');
  }

  async function fillModal(view: Record<string, unknown>): Promise<void> {
    const title = viewTitle(view);
    const blocks = (view.blocks as Record<string, unknown>[] | undefined) ?? [];
    const intro = renderBlocks(
      blocks.filter((b) => b.type !== 'input'),
      '',
      { userName, firstButton: null },
    ).text;
    d.write(`┌ form: ${title}\n${indent(intro)}`);
    const values: Record<string, string | null> = {};
    for (const b of blocks) {
      if (b.type !== 'input' || typeof b.block_id !== 'string') continue;
      const label = (b.label as { text?: string } | undefined)?.text ?? b.block_id;
      const answer = await d.ask(`  ${label}${inputHint(b.element)}${b.optional ? ' (optional)' : ''}: `, {
        secret: isSecretInput(b, label),
      });
      if (answer === null) {
        d.write('  (form cancelled)');
        return;
      }
      values[b.block_id] = answer.trim() === '' ? null : answer;
    }
    const submitted = await d.slack.submitView(person(), view, values);
    await settle(submitted, true);
    const ack = submitted.ack.json;
    if (ack?.response_action === 'errors') {
      const errors = Object.values((ack.errors as Record<string, string>) ?? {});
      d.write(`  ✗ ${errors.join('; ')}`);
      return;
    }
    await show(submitted);
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
      const q = `${b.confirm.title?.text ?? 'Are you sure?'} ${b.confirm.text?.text ?? ''} [y/N] `;
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
    await settle(it);
    await show(it);
  }

  return {
    get user() {
      return user;
    },
    async handle(raw) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) return true;
      const click = /^(?:click\s+)?(\d+)$/i.exec(line);
      if (click) {
        await press(Number(click[1]));
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
          const { message, it } = await d.slack.postMessage(person(), d.channel, text, links);
          if (links.length > 0) await settle(it);
          // The person's own message is what they typed: shown back with any token in it masked.
          d.write(maskTokens(describe(d.fake.messages.get(message.key) ?? message)));
          const answers = it.messages().filter((m) => m.key !== message.key);
          if (answers.length > 0) d.write(answers.map(describe).join('\n'));
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
    },
  };
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

function preview(content: string): string {
  const lines = content.split('\n');
  const head = lines.slice(0, 5).join('\n');
  return lines.length > 5 ? `${head}\n… (${lines.length - 5} more lines)` : head;
}
