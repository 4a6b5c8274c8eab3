// Slack's Block Kit limits. Builders cut text to fit; `findLimitViolations` is the
// shared check every test of a message, card or modal runs.

export const LIMITS = {
  messageBlocks: 50,
  surfaceBlocks: 100,
  messageText: 40_000,
  /** What the bot puts in a message's fallback `text` (notifications show a line or two of it). */
  fallbackText: 3000,
  sectionText: 3000,
  fieldText: 2000,
  fields: 10,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  actionId: 255,
  blockId: 255,
  url: 3000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  modalTitle: 24,
  modalButton: 24,
  privateMetadata: 3000,
  inputLabel: 2000,
  optionText: 75,
} as const;

/** Cut to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1))}…`;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const textOf = (t: unknown): string | null => (isObj(t) && typeof t.text === 'string' ? t.text : null);

function checkText(
  value: unknown,
  { where, max, out, plainOnly = false }: { where: string; max: number; out: string[]; plainOnly?: boolean },
): void {
  if (value === undefined) return;
  const s = textOf(value);
  if (s === null) {
    out.push(`${where}: not a text object`);
    return;
  }
  if (plainOnly && isObj(value) && value.type !== 'plain_text') out.push(`${where}: must be plain_text`);
  if (s.length > max) out.push(`${where}: ${s.length} characters > ${max}`);
}

function checkElement(el: unknown, where: string, out: string[]): void {
  if (!isObj(el)) return;
  if (typeof el.action_id === 'string' && el.action_id.length > LIMITS.actionId)
    out.push(`${where}.action_id too long`);
  if (el.type === 'button') {
    if (!el.text) out.push(`${where}: button without text`);
    checkText(el.text, { where: `${where}.text`, max: LIMITS.buttonText, out, plainOnly: true });
    if (typeof el.value === 'string' && el.value.length > LIMITS.buttonValue)
      out.push(`${where}.value > ${LIMITS.buttonValue}`);
    if (typeof el.url === 'string' && el.url.length > LIMITS.url) out.push(`${where}.url > ${LIMITS.url}`);
  }
  if (isObj(el.confirm)) {
    const c = el.confirm;
    for (const k of ['title', 'text', 'confirm', 'deny']) if (!c[k]) out.push(`${where}.confirm: no ${k}`);
    checkText(c.title, { where: `${where}.confirm.title`, max: LIMITS.confirmTitle, out, plainOnly: true });
    checkText(c.text, { where: `${where}.confirm.text`, max: LIMITS.confirmText, out });
    checkText(c.confirm, { where: `${where}.confirm.confirm`, max: LIMITS.confirmButton, out, plainOnly: true });
    checkText(c.deny, { where: `${where}.confirm.deny`, max: LIMITS.confirmButton, out, plainOnly: true });
  }
}

/** Every way `blocks` break Slack's limits on a surface (`message`: 50 blocks; `modal`/`home`: 100). */
export function findBlockViolations(blocks: unknown, surface: 'message' | 'modal' | 'home' = 'message'): string[] {
  const out: string[] = [];
  if (blocks === undefined) return out;
  if (!Array.isArray(blocks)) return ['blocks: not an array'];
  const max = surface === 'message' ? LIMITS.messageBlocks : LIMITS.surfaceBlocks;
  if (blocks.length > max) out.push(`${blocks.length} blocks > ${max}`);
  const blockIds = new Set<string>();
  blocks.forEach((b, i) => {
    const w = `blocks[${i}]`;
    if (!isObj(b) || typeof b.type !== 'string') {
      out.push(`${w}: no type`);
      return;
    }
    if (typeof b.block_id === 'string') {
      if (blockIds.has(b.block_id)) out.push(`${w}: duplicate block_id ${b.block_id}`);
      if (b.block_id.length > LIMITS.blockId) out.push(`${w}.block_id too long`);
      blockIds.add(b.block_id);
    }
    switch (b.type) {
      case 'section': {
        const fields = Array.isArray(b.fields) ? b.fields : [];
        if (!b.text && fields.length === 0) out.push(`${w}: section without text or fields`);
        checkText(b.text, { where: `${w}.text`, max: LIMITS.sectionText, out });
        if (textOf(b.text) === '') out.push(`${w}.text: empty`);
        if (fields.length > LIMITS.fields) out.push(`${w}.fields: ${fields.length} > ${LIMITS.fields}`);
        fields.forEach((f, j) => {
          checkText(f, { where: `${w}.fields[${j}]`, max: LIMITS.fieldText, out });
        });
        checkElement(b.accessory, `${w}.accessory`, out);
        break;
      }
      case 'header':
        if (!b.text) out.push(`${w}: header without text`);
        checkText(b.text, { where: `${w}.text`, max: LIMITS.headerText, out, plainOnly: true });
        break;
      case 'context': {
        const els = Array.isArray(b.elements) ? b.elements : [];
        if (els.length === 0) out.push(`${w}: context without elements`);
        if (els.length > LIMITS.contextElements) out.push(`${w}: ${els.length} elements > ${LIMITS.contextElements}`);
        els.forEach((e, j) => {
          if (isObj(e) && e.type === 'button') out.push(`${w}.elements[${j}]: no buttons in context`);
          if (isObj(e) && (e.type === 'mrkdwn' || e.type === 'plain_text')) {
            checkText(e, { where: `${w}.elements[${j}]`, max: LIMITS.contextText, out });
          }
        });
        break;
      }
      case 'actions': {
        const els = Array.isArray(b.elements) ? b.elements : [];
        if (els.length === 0) out.push(`${w}: actions without elements`);
        if (els.length > LIMITS.actionsElements) out.push(`${w}: ${els.length} elements > ${LIMITS.actionsElements}`);
        const ids = new Set<string>();
        els.forEach((e, j) => {
          checkElement(e, `${w}.elements[${j}]`, out);
          if (isObj(e) && typeof e.action_id === 'string') {
            if (ids.has(e.action_id)) out.push(`${w}: duplicate action_id ${e.action_id}`);
            ids.add(e.action_id);
          }
        });
        break;
      }
      case 'input':
        if (!b.label) out.push(`${w}: input without label`);
        checkText(b.label, { where: `${w}.label`, max: LIMITS.inputLabel, out, plainOnly: true });
        if (!b.element) out.push(`${w}: input without element`);
        checkElement(b.element, `${w}.element`, out);
        break;
      default:
        break;
    }
  });
  return out;
}

/** Violations of a whole message ({ text, blocks }) or view ({ type: 'modal' | 'home', … }). */
export function findLimitViolations(surface: unknown): string[] {
  if (!isObj(surface)) return ['not an object'];
  if (surface.type === 'modal' || surface.type === 'home') {
    const out: string[] = [];
    if (surface.type === 'modal') {
      if (!surface.title) out.push('modal without title');
      checkText(surface.title, { where: 'title', max: LIMITS.modalTitle, out, plainOnly: true });
      checkText(surface.submit, { where: 'submit', max: LIMITS.modalButton, out, plainOnly: true });
      checkText(surface.close, { where: 'close', max: LIMITS.modalButton, out, plainOnly: true });
      const blocks = Array.isArray(surface.blocks) ? surface.blocks : [];
      if (blocks.some((b) => isObj(b) && b.type === 'input') && !surface.submit)
        out.push('modal with inputs needs submit');
    }
    if (typeof surface.private_metadata === 'string' && surface.private_metadata.length > LIMITS.privateMetadata) {
      out.push('private_metadata too long');
    }
    return [...out, ...findBlockViolations(surface.blocks, surface.type === 'modal' ? 'modal' : 'home')];
  }
  const out: string[] = [];
  if (typeof surface.text !== 'string' || surface.text.length === 0) out.push('message without fallback text');
  else if (surface.text.length > LIMITS.messageText) out.push(`text: ${surface.text.length} > ${LIMITS.messageText}`);
  return [...out, ...findBlockViolations(surface.blocks, 'message')];
}
