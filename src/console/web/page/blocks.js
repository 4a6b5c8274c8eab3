import { mrkdwn, plainEmoji, textObject } from './mrkdwn.js';

// Block Kit drawn as Slack draws it: header, section (text, fields, accessory), context, divider, actions (buttons
// with their styles and confirm dialogs, overflow menus, selects, date pickers), image, input, rich text. Buttons are
// <button>s named by their text; a press goes to `ctx.onAction(element, blockId)`, which asks the confirm dialog
// first when the button has one. Modal inputs are drawn with a `data-block-id` so that the form can read them.

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const plain = (t) => plainEmoji(typeof t === 'string' ? t : (t?.text ?? ''));

/** Only the demo's own files are drawn; an image from elsewhere shows its alt text (the page loads nothing else). */
function image(url, alt, className) {
  if (typeof url === 'string' && url.startsWith('/files/')) {
    const img = el('img', className);
    img.src = url;
    img.alt = alt ?? '';
    return img;
  }
  const box = el('span', `${className} image-alt`, alt ?? 'image');
  box.setAttribute('role', 'img');
  box.setAttribute('aria-label', alt ?? 'image');
  return box;
}

function button(element, blockId, ctx) {
  const b = el('button', `bk-button${element.style ? ` ${element.style}` : ''}`, plain(element.text));
  b.type = 'button';
  if (element.url) b.append(el('span', 'external', ' ↗'));
  b.addEventListener('click', () => ctx.onAction(element, blockId, b));
  return b;
}

function overflow(element, blockId, ctx) {
  const wrap = el('span', 'bk-overflow');
  const b = el('button', 'bk-overflow-button', '⋮');
  b.type = 'button';
  b.setAttribute('aria-label', 'More options');
  b.setAttribute('aria-haspopup', 'menu');
  const menu = el('div', 'menu');
  menu.setAttribute('role', 'menu');
  menu.hidden = true;
  for (const option of element.options ?? []) {
    const item = el('button', 'menu-item', plain(option.text));
    item.type = 'button';
    item.setAttribute('role', 'menuitem');
    item.addEventListener('click', () => {
      menu.hidden = true;
      ctx.onAction({ ...element, value: option.value, selected: option }, blockId, item);
    });
    menu.append(item);
  }
  b.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
  });
  wrap.append(b, menu);
  return wrap;
}

function select(element, blockId, ctx, inForm) {
  const s = el('select', 'bk-select');
  s.setAttribute('aria-label', plain(element.placeholder) || 'Select an option');
  if (!element.initial_option) s.append(el('option', '', plain(element.placeholder) || 'Select an option'));
  for (const option of element.options ?? []) {
    const o = el('option', '', plain(option.text));
    o.value = option.value;
    if (element.initial_option?.value === option.value) o.selected = true;
    s.append(o);
  }
  if (!inForm) s.addEventListener('change', () => ctx.onAction({ ...element, value: s.value }, blockId, s));
  return s;
}

/** A form element of an input block: what the person types or picks, read back by `readInputs`. */
function inputElement(element, id) {
  switch (element.type) {
    case 'plain_text_input': {
      const input = element.multiline ? el('textarea', 'bk-input') : el('input', 'bk-input');
      if (!element.multiline) input.type = 'text';
      input.id = id;
      input.value = element.initial_value ?? '';
      if (element.placeholder) input.placeholder = plain(element.placeholder);
      if (element.max_length) input.maxLength = element.max_length;
      return input;
    }
    case 'datepicker': {
      const input = el('input', 'bk-input bk-date');
      input.type = 'date';
      input.id = id;
      input.value = element.initial_date ?? '';
      return input;
    }
    case 'checkboxes': {
      const group = el('div', 'bk-checkboxes');
      group.id = id;
      group.setAttribute('role', 'group');
      const initial = new Set((element.initial_options ?? []).map((o) => o.value));
      (element.options ?? []).forEach((option, i) => {
        const label = el('label', 'bk-checkbox');
        const box = el('input');
        box.type = 'checkbox';
        box.value = option.value;
        box.checked = initial.has(option.value);
        box.id = `${id}-${i}`;
        label.append(box, el('span', '', plain(option.text)));
        if (option.description) label.append(el('span', 'bk-hint', plain(option.description)));
        group.append(label);
      });
      return group;
    }
    case 'static_select':
      return select(element, '', null, true);
    default:
      return el('span', 'bk-hint', `(${element.type})`);
  }
}

function accessory(a, blockId, ctx) {
  switch (a.type) {
    case 'button':
      return button(a, blockId, ctx);
    case 'image':
      return image(a.image_url, a.alt_text, 'bk-accessory-image');
    case 'overflow':
      return overflow(a, blockId, ctx);
    case 'static_select':
      return select(a, blockId, ctx, false);
    default:
      return null;
  }
}

function richText(block, ctx) {
  const out = el('div', 'bk-rich');
  const runs = (elements, parent) => {
    for (const e of elements ?? []) {
      let node;
      if (e.type === 'link') {
        node = mrkdwn(`<${e.url}|${(e.text ?? e.url).replace(/[|>]/g, ' ')}>`, ctx);
      } else if (e.type === 'user') node = el('span', 'mention', `@${ctx.userName(e.user_id) ?? e.user_id}`);
      else if (e.type === 'channel') node = el('span', 'mention', `#${ctx.channelName(e.channel_id) ?? e.channel_id}`);
      else if (e.type === 'emoji') node = document.createTextNode(plainEmoji(`:${e.name}:`));
      else {
        node = e.style?.code ? el('code', 'code', e.text ?? '') : document.createTextNode(e.text ?? '');
        for (const [style, tag] of [
          ['bold', 'b'],
          ['italic', 'i'],
          ['strike', 's'],
        ]) {
          if (e.style?.[style]) {
            const wrap = el(tag);
            wrap.append(node);
            node = wrap;
          }
        }
      }
      parent.append(node);
    }
  };
  for (const part of block.elements ?? []) {
    if (part.type === 'rich_text_preformatted') {
      const pre = el('pre', 'code-block');
      runs(part.elements, pre);
      out.append(pre);
    } else if (part.type === 'rich_text_quote') {
      const q = el('blockquote', 'quote');
      runs(part.elements, q);
      out.append(q);
    } else if (part.type === 'rich_text_list') {
      const list = el(part.style === 'ordered' ? 'ol' : 'ul');
      for (const item of part.elements ?? []) {
        const li = el('li');
        runs(item.elements, li);
        list.append(li);
      }
      out.append(list);
    } else {
      const p = el('div');
      runs(part.elements, p);
      out.append(p);
    }
  }
  return out;
}

/** Blocks → a DOM element. `ctx`: userName, channelName, onAction, and `formId` for the inputs of a modal. */
export function renderBlocks(blocks, ctx) {
  const root = el('div', 'blocks');
  for (const block of blocks ?? []) {
    const blockId = block.block_id;
    switch (block.type) {
      case 'header':
        root.append(el('div', 'bk-header', plain(block.text)));
        break;
      case 'section': {
        const section = el('div', 'bk-section');
        const body = el('div', 'bk-section-body');
        if (block.text) {
          const t = el('div', 'bk-text');
          t.append(textObject(block.text, ctx));
          body.append(t);
        }
        if (Array.isArray(block.fields) && block.fields.length > 0) {
          const fields = el('div', 'bk-fields');
          for (const f of block.fields) {
            const cell = el('div', 'bk-field');
            cell.append(textObject(f, ctx));
            fields.append(cell);
          }
          body.append(fields);
        }
        section.append(body);
        const acc = block.accessory ? accessory(block.accessory, blockId, ctx) : null;
        if (acc) {
          const wrap = el('div', 'bk-accessory');
          wrap.append(acc);
          section.append(wrap);
        }
        root.append(section);
        break;
      }
      case 'context': {
        const context = el('div', 'bk-context');
        for (const e of block.elements ?? []) {
          if (e.type === 'image') context.append(image(e.image_url, e.alt_text, 'bk-context-image'));
          else {
            const span = el('span', 'bk-context-text');
            span.append(textObject(e, ctx));
            context.append(span);
          }
        }
        root.append(context);
        break;
      }
      case 'divider':
        root.append(el('hr', 'bk-divider'));
        break;
      case 'actions': {
        const actions = el('div', 'bk-actions');
        for (const e of block.elements ?? []) {
          if (e.type === 'button') actions.append(button(e, blockId, ctx));
          else if (e.type === 'overflow') actions.append(overflow(e, blockId, ctx));
          else if (e.type === 'static_select') actions.append(select(e, blockId, ctx, false));
          else if (e.type === 'datepicker') {
            const d = inputElement(e, `${blockId}-${e.action_id}`);
            d.setAttribute('aria-label', plain(e.placeholder) || 'Pick a date');
            d.addEventListener('change', () => ctx.onAction({ ...e, value: d.value }, blockId, d));
            actions.append(d);
          }
        }
        root.append(actions);
        break;
      }
      case 'image': {
        const figure = el('figure', 'bk-image');
        if (block.title) figure.append(el('figcaption', '', plain(block.title)));
        figure.append(image(block.image_url ?? block.slack_file?.url, block.alt_text, 'bk-image-img'));
        root.append(figure);
        break;
      }
      case 'input': {
        const id = `${ctx.formId ?? 'form'}-${blockId}`;
        const field = el('div', 'bk-input-block');
        field.dataset.blockId = blockId;
        field.dataset.type = block.element?.type ?? '';
        const label = el('label', 'bk-label', plain(block.label));
        label.htmlFor = id;
        if (block.optional) label.append(el('span', 'bk-optional', ' (optional)'));
        const control = inputElement(block.element ?? {}, id);
        if (block.element?.type === 'checkboxes') control.setAttribute('aria-labelledby', `${id}-label`);
        label.id = `${id}-label`;
        field.append(label, control);
        if (block.hint) field.append(el('div', 'bk-hint', plain(block.hint)));
        const error = el('div', 'bk-error');
        error.id = `${id}-error`;
        error.hidden = true;
        field.append(error);
        root.append(field);
        break;
      }
      case 'rich_text':
        root.append(richText(block, ctx));
        break;
      case 'markdown': {
        const md = el('div', 'bk-text');
        md.append(mrkdwn(block.text ?? '', ctx));
        root.append(md);
        break;
      }
      default:
        break;
    }
  }
  return root;
}

/** What a modal's inputs hold, by block_id, as text the demo's Slack sends on (checkboxes: values with commas). */
export function readInputs(form) {
  const values = {};
  for (const field of form.querySelectorAll('.bk-input-block')) {
    const id = field.dataset.blockId;
    if (field.dataset.type === 'checkboxes') {
      values[id] = [...field.querySelectorAll('input[type=checkbox]:checked')].map((b) => b.value).join(',');
    } else {
      const control = field.querySelector('input, textarea, select');
      values[id] = control ? control.value : '';
    }
  }
  return values;
}

/** Shows the bot's `response_action: errors` on their fields; clears the rest. */
export function showErrors(form, errors) {
  for (const field of form.querySelectorAll('.bk-input-block')) {
    const message = errors[field.dataset.blockId];
    const box = field.querySelector('.bk-error');
    const control = field.querySelector('input, textarea, select, .bk-checkboxes');
    box.hidden = !message;
    box.textContent = message ?? '';
    if (message) {
      control?.setAttribute('aria-invalid', 'true');
      control?.setAttribute('aria-describedby', box.id);
    } else control?.removeAttribute('aria-invalid');
  }
}
