import { renderBlocks } from './blocks.js';
import { mrkdwn, textObject } from './mrkdwn.js';

// One message as Slack draws it: the avatar, the name (the app's with its APP badge), the time, "Only visible to
// you" on an ephemeral one, its blocks (or its text), its files (images inline, others to download), the link
// previews the app unfurled, its "More actions" menu with the message shortcut, and the replies of its thread.

const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const APP_NAME = 'GitLab';

export const timeOf = (ts) =>
  new Date(Number(ts) * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

function avatar(author) {
  const a = el('div', `avatar ${author ? 'person' : 'app'}`, author ? author[0].toUpperCase() : 'GL');
  a.setAttribute('aria-hidden', 'true');
  return a;
}

function files(m) {
  const box = el('div', 'files');
  for (const f of m.files) {
    if (f.image) {
      const img = el('img', 'file-image');
      img.src = `/files/${encodeURIComponent(f.id)}`;
      img.alt = f.altText ?? f.name;
      img.title = f.name;
      box.append(img);
    } else {
      const a = el('a', 'file-download');
      a.href = `/files/${encodeURIComponent(f.id)}`;
      a.download = f.name;
      a.append(el('span', 'file-icon', '📄'), el('span', 'file-name', f.name), el('span', 'file-hint', 'Download'));
      box.append(a);
    }
  }
  return box;
}

function unfurl(u, ctx) {
  const att = el('div', 'attachment');
  const body = el('div', 'attachment-body');
  const data = u.unfurl ?? {};
  if (data.title) {
    const t = el('div', 'attachment-title');
    t.append(mrkdwn(`<${data.title_link ?? u.url}|${String(data.title).replace(/[|>]/g, ' ')}>`, ctx));
    body.append(t);
  }
  if (data.text) {
    const t = el('div', 'attachment-text');
    t.append(mrkdwn(String(data.text), ctx));
    body.append(t);
  }
  if (Array.isArray(data.blocks)) body.append(renderBlocks(data.blocks, ctx));
  att.append(body);
  return att;
}

function menu(m, ctx) {
  const wrap = el('div', 'message-actions');
  const b = el('button', 'icon-button', '⋮');
  b.type = 'button';
  b.setAttribute('aria-label', 'More actions');
  b.setAttribute('aria-haspopup', 'menu');
  const list = el('div', 'menu');
  list.setAttribute('role', 'menu');
  list.hidden = true;
  const item = el('button', 'menu-item', 'Create issue');
  item.type = 'button';
  item.setAttribute('role', 'menuitem');
  item.append(el('span', 'menu-item-app', APP_NAME));
  item.addEventListener('click', () => {
    list.hidden = true;
    ctx.onShortcut(m);
  });
  list.append(el('div', 'menu-heading', 'Connected apps'), item);
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    list.hidden = !list.hidden;
  });
  wrap.append(b, list);
  return wrap;
}

/** The parts of a message that change when it is redrawn, for telling whether it needs drawing again. */
export const signature = (m, replies) =>
  JSON.stringify([m.version, m.unfurls.length, m.files.length, replies.map((r) => [r.key, r.version])]);

/** A message element (role article) with its thread's replies under it. */
export function renderMessage(m, replies, ctx) {
  const article = el('div', `message${m.ephemeral ? ' ephemeral' : ''}`);
  article.setAttribute('role', 'article');
  article.dataset.key = m.key;
  const name = m.author ?? APP_NAME;
  article.setAttribute('aria-label', `${name}, ${timeOf(m.ts)}`);
  const main = el('div', 'message-main');
  main.append(avatar(m.author));
  const body = el('div', 'message-body');
  const head = el('div', 'message-head');
  head.append(el('span', 'author', name));
  if (!m.author) head.append(el('span', 'badge', 'APP'));
  head.append(el('time', 'time', timeOf(m.ts)));
  if (m.version > 1 && !m.ephemeral) head.append(el('span', 'edited', '(edited)'));
  body.append(head);
  if (Array.isArray(m.blocks) && m.blocks.length > 0)
    body.append(renderBlocks(m.blocks, { ...ctx, onAction: (e, blockId, b) => ctx.onAction(m, e, blockId, b) }));
  else if (m.text) {
    const t = el('div', 'message-text');
    t.append(textObject({ type: 'mrkdwn', text: m.text }, ctx));
    body.append(t);
  }
  if (m.files.length > 0) body.append(files(m));
  for (const u of m.unfurls) body.append(unfurl(u, ctx));
  if (m.ephemeral) {
    const note = el('div', 'only-you');
    note.append(el('span', 'eye', '👁'), document.createTextNode(' Only visible to you'));
    body.append(note);
  }
  main.append(body);
  article.append(main);
  if (!m.ephemeral) article.append(menu(m, ctx));
  if (replies.length > 0) {
    const thread = el('div', 'thread');
    thread.setAttribute('aria-label', `Thread: ${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`);
    thread.append(el('div', 'thread-count', `${replies.length} ${replies.length === 1 ? 'reply' : 'replies'}`));
    for (const r of replies) thread.append(renderMessage(r, [], ctx));
    article.append(thread);
  }
  return article;
}
