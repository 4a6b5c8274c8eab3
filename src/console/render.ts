// Block Kit as readable terminal text: headers, sections, fields, context lines, code
// blocks, images as their alt text, and buttons numbered so that a person can press
// them by number (the session decides the numbers).

export interface RenderedButton {
  number: number;
  text: string;
  action_id: string;
  block_id?: string;
  value?: string;
  url?: string;
  confirm?: {
    title?: { text?: string };
    text?: { text?: string };
    confirm?: { text?: string };
    deny?: { text?: string };
  };
}

export interface RenderOptions {
  /** Slack user id → name, to show <@U123> as @name. */
  userName: (id: string) => string | undefined;
  /** The number of the first button (the rest follow on), or null to show buttons unnumbered. */
  firstButton: number | null;
  /** Slack channel id → how people know it (`#demo`), to show <#C123> by name. */
  channelName?: (id: string) => string | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null;
const textOf = (t: unknown): string =>
  isObj(t) && typeof t.text === 'string' ? t.text : typeof t === 'string' ? t : '';

// The emoji the bot's views use and the common ones people award, as the terminal shows them.
export const EMOJI: Readonly<Record<string, string>> = {
  white_check_mark: '✅',
  heavy_check_mark: '✔',
  x: '❌',
  no_entry_sign: '🚫',
  no_entry: '⛔',
  large_blue_circle: '🔵',
  large_yellow_circle: '🟡',
  large_green_circle: '🟢',
  white_circle: '⚪',
  black_circle: '⚫',
  fast_forward: '⏩',
  gear: '⚙',
  arrows_counterclockwise: '🔄',
  hourglass_flowing_sand: '⏳',
  hourglass: '⌛',
  warning: '⚠',
  key: '🔑',
  mag: '🔍',
  boom: '💥',
  construction: '🚧',
  snail: '🐌',
  pushpin: '📌',
  grey_question: '❔',
  rocket: '🚀',
  package: '📦',
  scroll: '📜',
  calendar: '📅',
  bust_in_silhouette: '👤',
  thumbsup: '👍',
  '+1': '👍',
  jigsaw: '🧩',
  twisted_rightwards_arrows: '🔀',
  clock3: '🕒',
  arrow_forward: '▶',
  wastebasket: '🗑',
  pause_button: '⏸',
  large_purple_circle: '🟣',
  red_circle: '🔴',
  lock: '🔒',
  thumbsdown: '👎',
  '-1': '👎',
  stopwatch: '⏱',
  memo: '📝',
  link: '🔗',
  page_facing_up: '📄',
  card_index_dividers: '🗂',
  arrow_right: '➡',
  newspaper: '📰',
  ballot_box_with_check: '☑',
  double_vertical_bar: '⏸',
  zzz: '💤',
  tada: '🎉',
  eyes: '👀',
  information_source: 'ℹ',
  heart: '❤',
  star: '⭐',
  star2: '🌟',
  bulb: '💡',
  fire: '🔥',
  clap: '👏',
  smile: '😄',
  smiley: '😃',
  grin: '😁',
  grinning: '😀',
  slight_smile: '🙂',
  laughing: '😆',
  joy: '😂',
  rofl: '🤣',
  wink: '😉',
  blush: '😊',
  heart_eyes: '😍',
  sunglasses: '😎',
  cool: '🆒',
  sweat_smile: '😅',
  thinking: '🤔',
  confused: '😕',
  cry: '😢',
  sob: '😭',
  pensive: '😔',
  relieved: '😌',
  smirk: '😏',
  angry: '😠',
  rage: '😡',
  scream: '😱',
  sleeping: '😴',
  hugging: '🤗',
  shrug: '🤷',
  see_no_evil: '🙈',
  skull: '💀',
  monkey: '🐒',
  ok_hand: '👌',
  pray: '🙏',
  muscle: '💪',
  wave: '👋',
  raised_hands: '🙌',
  '100': '💯',
  '1234': '🔢',
  sparkles: '✨',
  zap: '⚡',
  rainbow: '🌈',
  unicorn: '🦄',
  turtle: '🐢',
  blowfish: '🐡',
  bug: '🐛',
  baby: '👶',
  alarm_clock: '⏰',
  bell: '🔔',
  rotating_light: '🚨',
  checkered_flag: '🏁',
  trophy: '🏆',
  dart: '🎯',
  gem: '💎',
  gift: '🎁',
  cake: '🎂',
  beers: '🍻',
  coffee: '☕',
  art: '🎨',
  microphone: '🎤',
  money_with_wings: '💸',
  party_popper: '🎉',
  pencil: '📝',
  pencil2: '✏',
  question: '❓',
  recycle: '♻',
  ship: '🚢',
  wrench: '🔧',
  mood_bubble_lightning: '🗯',
  heavy_plus_sign: '➕',
  heavy_minus_sign: '➖',
  speech_balloon: '💬',
  bookmark: '🔖',
  label: '🏷',
  inbox_tray: '📥',
  outbox_tray: '📤',
  bell_with_slash: '🔕',
  no_bell: '🔕',
  busts_in_silhouette: '👥',
  point_right: '👉',
  eye: '👁',
  triangular_flag_on_post: '🚩',
  spiral_calendar_pad: '🗓',
  lock_with_ink_pen: '🔏',
  unlock: '🔓',
  globe_with_meridians: '🌐',
  house: '🏠',
  mailbox: '📫',
  email: '📧',
  envelope: '✉',
  electric_plug: '🔌',
  satellite: '📡',
  chart_with_upwards_trend: '📈',
  bar_chart: '📊',
  hammer_and_wrench: '🛠',
  hammer: '🔨',
  shield: '🛡',
  heavy_multiplication_x: '✖',
  exclamation: '❗',
  bangbang: '‼',
  arrow_up: '⬆',
  arrow_down: '⬇',
  arrow_left: '⬅',
  leftwards_arrow_with_hook: '↩',
  arrow_right_hook: '↪',
  repeat: '🔁',
  sos: '🆘',
  new: '🆕',
  free: '🆓',
  ok: '🆗',
  up: '🆙',
  stop_button: '⏹',
  black_square_for_stop: '⏹',
  record_button: '⏺',
  eject: '⏏',
  heavy_dollar_sign: '💲',
};

// Code blocks (```…```, across lines) and code spans (`…`, within a line) are shown as they
// are: no emphasis, links, mentions or emoji inside them, as in Slack.
const CODE = /```[\s\S]*?```|`[^`\n]+`/g;
// Code is parked behind private-use characters while the rest is formatted, so that emphasis
// around a code span (`*`main`*`) still loses its markers.
const PARKED = /\uE000(\d+)\uE001/g;

const unescapeSlack = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Slack mrkdwn → plain text: links, mentions, escapes, emoji shortcodes; code stays verbatim. */
export function mrkdwnToText(
  text: string,
  userName: RenderOptions['userName'],
  channelName?: RenderOptions['channelName'],
): string {
  const code: string[] = [];
  const prose = text.replace(CODE, (m) => `\uE000${code.push(m) - 1}\uE001`);
  const formatted = unescapeSlack(
    prose
      .replace(
        /<@([UW][A-Z0-9]+)(?:\|([^>]+))?>/g,
        (_m, id: string, label?: string) => `@${label ?? userName(id) ?? id}`,
      )
      .replace(/<#([CGD][A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, label?: string) =>
        label ? `#${label}` : (channelName?.(id) ?? `#${id}`),
      )
      // Slack shows a date in each reader's zone; the console shows its fallback text.
      .replace(/<!date\^\d+\^[^|>]*\|([^>]*)>/g, '$1')
      .replace(/<([a-z]+:[^|>]+)\|([^>]+)>/g, (_m, url: string, label: string) =>
        label === url ? url : `${label} (${url})`,
      )
      .replace(/<([a-z]+:[^>]+)>/g, '$1')
      .replace(/:([a-z0-9_+-]+):/g, (m, name: string) => EMOJI[name] ?? m)
      // Bold and italics read fine without their markers in a terminal.
      .replace(/\*([^*\n]+)\*/g, '$1')
      .replace(/(^|[\s(])_([^_\n]+)_(?=[\s).,:;]|$)/gm, '$1$2'),
  );
  return formatted.replace(PARKED, (_m, i: string) => unescapeSlack(code[Number(i)] ?? ''));
}

export function renderBlocks(
  blocks: unknown[] | undefined,
  fallback: string,
  o: RenderOptions,
): { text: string; buttons: RenderedButton[] } {
  const lines: string[] = [];
  const buttons: RenderedButton[] = [];
  const md = (t: unknown) => mrkdwnToText(textOf(t), o.userName, o.channelName);
  const addButton = (el: Obj, blockId?: string): string => {
    const label = `${textOf(el.text)}${typeof el.url === 'string' ? ' ↗' : ''}`;
    if (o.firstButton === null) return `[${label}]`;
    const number = o.firstButton + buttons.length;
    const b: RenderedButton = { number, text: textOf(el.text), action_id: String(el.action_id ?? '') };
    if (blockId) b.block_id = blockId;
    if (typeof el.value === 'string') b.value = el.value;
    if (typeof el.url === 'string') b.url = el.url;
    if (isObj(el.confirm)) b.confirm = el.confirm as RenderedButton['confirm'];
    buttons.push(b);
    return `[${number} ${label}]`;
  };
  if (!blocks || blocks.length === 0) return { text: mrkdwnToText(fallback, o.userName, o.channelName), buttons };
  for (const raw of blocks) {
    if (!isObj(raw)) continue;
    const blockId = typeof raw.block_id === 'string' ? raw.block_id : undefined;
    switch (raw.type) {
      case 'header':
        lines.push(`== ${md(raw.text)} ==`);
        break;
      case 'section': {
        if (raw.text) lines.push(md(raw.text));
        // A field is "*Label*\nvalue" in Slack; on one line it reads "Label: value".
        const fields = Array.isArray(raw.fields)
          ? raw.fields.map((f) => md(f).replace(/\n/, ': ').replace(/\n/g, ' '))
          : [];
        for (let i = 0; i < fields.length; i += 2) lines.push(`  ${fields.slice(i, i + 2).join('   |   ')}`);
        if (isObj(raw.accessory)) {
          const acc = raw.accessory;
          if (acc.type === 'button') lines.push(`  ${addButton(acc, blockId)}`);
          else if (acc.type === 'image') lines.push(`  (image: ${String(acc.alt_text ?? '')})`);
        }
        break;
      }
      case 'context': {
        const els = Array.isArray(raw.elements) ? raw.elements : [];
        const parts = els.map((e) => (isObj(e) && e.type === 'image' ? `(${String(e.alt_text ?? 'image')})` : md(e)));
        lines.push(`  · ${parts.join('  ')}`);
        break;
      }
      case 'actions': {
        const els = Array.isArray(raw.elements) ? raw.elements : [];
        const shown = els
          .filter(isObj)
          .map((e) => (e.type === 'button' ? addButton(e, blockId) : `(${String(e.type)})`));
        lines.push(shown.join(' '));
        break;
      }
      case 'divider':
        lines.push('—'.repeat(40));
        break;
      case 'image':
        lines.push(`(image: ${String(raw.alt_text ?? '')})`);
        break;
      case 'input':
        lines.push(`${textOf(raw.label)}: ____`);
        break;
      case 'rich_text':
        lines.push(fallback);
        break;
      default:
        if (raw.text) lines.push(md(raw.text));
    }
  }
  return { text: lines.join('\n'), buttons };
}
