import { readInputs, renderBlocks, showErrors } from './blocks.js';
import { renderMessage, signature } from './messages.js';
import { setEmoji } from './mrkdwn.js';

// The demo's Slack workspace as a page: the sidebar (channels, the DM with the app, the app's Home), the channel
// with its messages and composer, the person switcher, the modal on top, and a panel for workflow steps. What the
// person sees is read from the demo (GET /api/state) whenever it says something changed (server-sent events); what
// they do is sent to it (POST /api/<action>), which does it to the bot as Slack would.

const $ = (id) => document.getElementById(id);
const el = (tag, className, text) => {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
};

const params = new URLSearchParams(location.search);
let me = params.get('as') ?? 'alice';
/** The open pane: a channel id, or `home` for the app's Home tab. */
let pane = params.get('pane') ?? 'C0DEMO';
let state = null;
/** Drawn messages by key, with what they were drawn from. */
let drawn = new Map();
/** Messages already seen in each channel, for the unread marks of the sidebar. */
const seen = new Map();
/** Notices the page itself shows in a channel (a mistyped command), as Slackbot does: only to this person. */
const notices = [];
let drawnModal = null;

const ctx = {
  userName: (id) => state?.people.find((p) => p.id === id)?.name,
  channelName: (id) => state?.channels.find((c) => c.id === id && c.kind === 'channel')?.name,
};

/** Sends what the person did; a refusal shows as a toast, a notice as Slackbot's (or as a toast, `quiet`). */
async function post(action, body = {}, { quiet = false } = {}) {
  const res = await fetch(`/api/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ as: me, ...body }),
  });
  const answer = await res.json().catch(() => ({ ok: false, error: `HTTP ${res.status}` }));
  if (!answer.ok) toast(answer.error ?? 'Something went wrong.');
  else if (answer.notice) (quiet ? toast : notice)(answer.notice);
  refresh();
  return answer;
}

function toast(text) {
  const t = $('toast');
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    t.hidden = true;
  }, 6000);
}

function notice(text) {
  notices.push({ channel: pane === 'home' ? null : pane, text, at: Date.now() / 1000 });
  draw();
}

// ------------------------------------------------------------------ confirm dialogs and modals

function dialogShell(title, onClose) {
  const backdrop = el('div', 'backdrop');
  const dialog = el('div', 'dialog');
  dialog.setAttribute('role', 'dialog');
  dialog.setAttribute('aria-modal', 'true');
  const head = el('div', 'dialog-head');
  const h = el('h2', 'dialog-title', title);
  h.id = `dialog-title-${Math.random().toString(36).slice(2)}`;
  dialog.setAttribute('aria-labelledby', h.id);
  const close = el('button', 'icon-button dialog-close', '×');
  close.type = 'button';
  close.setAttribute('aria-label', 'Close');
  close.addEventListener('click', onClose);
  head.append(h, close);
  dialog.append(head);
  backdrop.append(dialog);
  dialog.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  });
  return { backdrop, dialog };
}

/** A button's confirm dialog: resolves true when its confirm button is pressed. */
function confirmFirst(confirm) {
  if (!confirm) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (yes) => {
      backdrop.remove();
      resolve(yes);
    };
    const { backdrop, dialog } = dialogShell(confirm.title?.text ?? 'Are you sure?', () => done(false));
    const body = el('div', 'dialog-body');
    body.append(renderBlocks([{ type: 'section', text: confirm.text }], ctx));
    const foot = el('div', 'dialog-foot');
    const deny = el('button', 'bk-button', confirm.deny?.text ?? 'Cancel');
    deny.type = 'button';
    deny.addEventListener('click', () => done(false));
    const ok = el(
      'button',
      `bk-button ${confirm.style === 'danger' ? 'danger-solid' : 'primary'}`,
      confirm.confirm?.text ?? 'Yes',
    );
    ok.type = 'button';
    ok.addEventListener('click', () => done(true));
    foot.append(deny, ok);
    dialog.append(body, foot);
    $('dialogs').append(backdrop);
    ok.focus();
  });
}

async function press(target, element, blockId, control) {
  if (!(await confirmFirst(element.confirm))) return;
  if (element.url) window.open(element.url, '_blank', 'noopener,noreferrer');
  if (control) control.disabled = true;
  try {
    await post('click', {
      ...target,
      action_id: element.action_id ?? '',
      block_id: blockId ?? '',
      value: element.value ?? '',
    });
  } finally {
    if (control) control.disabled = false;
  }
}

function drawModal() {
  const view = state?.modal ?? null;
  const key = view ? JSON.stringify(view) : null;
  if (key === drawnModal) return;
  drawnModal = key;
  $('modal').replaceChildren();
  if (!view) return;
  const close = () => post('close');
  const { backdrop, dialog } = dialogShell(view.title?.text ?? 'Form', close);
  dialog.classList.add('modal');
  const form = el('form', 'dialog-body');
  form.noValidate = true;
  form.append(
    renderBlocks(view.blocks, {
      ...ctx,
      formId: `view-${view.id}`,
      onAction: (e, blockId, b) => press({ view: view.id }, e, blockId, b),
    }),
  );
  const foot = el('div', 'dialog-foot');
  const cancel = el('button', 'bk-button', view.close?.text ?? 'Cancel');
  cancel.type = 'button';
  cancel.addEventListener('click', close);
  foot.append(cancel);
  if (view.submit) {
    const submit = el('button', 'bk-button primary', view.submit.text ?? 'Submit');
    submit.type = 'submit';
    foot.append(submit);
  }
  form.append(foot);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const answer = await post('submit', { view: view.id, values: readInputs(form) });
    if (answer.ok && answer.errors) showErrors(form, answer.errors);
  });
  dialog.append(form);
  $('modal').append(backdrop);
  (form.querySelector('input, textarea, select') ?? dialog.querySelector('button'))?.focus();
}

// ------------------------------------------------------------------ the workspace

function sidebarItem(label, target, { unread = 0, prefix = '' } = {}) {
  const li = el('li');
  const b = el('button', `sidebar-item${pane === target ? ' active' : ''}${unread ? ' unread' : ''}`);
  b.type = 'button';
  if (pane === target) b.setAttribute('aria-current', 'page');
  b.append(el('span', 'sidebar-prefix', prefix), el('span', 'sidebar-label', label));
  if (unread) b.append(el('span', 'sidebar-badge', String(unread)));
  b.addEventListener('click', () => open(target));
  li.append(b);
  return li;
}

function open(target) {
  pane = target;
  const url = new URL(location.href);
  url.searchParams.set('as', me);
  url.searchParams.set('pane', pane);
  history.replaceState(null, '', url);
  if (pane === 'home') post('home');
  draw();
  if (pane !== 'home') $('composer-input').focus();
}

const topLevel = (m) => !m.threadTs;

function unreadIn(channel) {
  const known = seen.get(channel);
  if (!known) return 0;
  return state.messages.filter((m) => m.channel === channel && topLevel(m) && !known.has(m.key)).length;
}

function drawSidebar() {
  const channels = state.channels.filter((c) => c.kind === 'channel');
  const dm = state.channels.find((c) => c.kind === 'dm');
  $('channels').replaceChildren(
    ...channels.map((c) => sidebarItem(c.name, c.id, { unread: unreadIn(c.id), prefix: '#' })),
  );
  $('dms').replaceChildren(sidebarItem(dm.name, dm.id, { unread: unreadIn(dm.id), prefix: '●' }));
  $('apps').replaceChildren(sidebarItem(`${dm.name} · Home`, 'home', { prefix: '⌂' }));
}

function messageCtx() {
  return {
    ...ctx,
    onAction: (m, e, blockId, b) => press({ message: m.key }, e, blockId, b),
    onShortcut: (m) => post('shortcut', { message: m.key }),
  };
}

function drawMessages(channel) {
  const list = $('messages');
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const inChannel = state.messages.filter((m) => m.channel === channel);
  const parents = new Set(inChannel.filter(topLevel).map((m) => m.ts));
  const repliesOf = (m) => inChannel.filter((r) => r.threadTs === m.ts);
  // A reply whose parent is not shown stands on its own.
  const shown = inChannel.filter((m) => topLevel(m) || !parents.has(m.threadTs));
  const next = new Map();
  const nodes = [];
  for (const m of shown) {
    const replies = topLevel(m) ? repliesOf(m) : [];
    const sig = signature(m, replies);
    const old = drawn.get(m.key);
    const node = old && old.sig === sig ? old.node : renderMessage(m, replies, messageCtx());
    next.set(m.key, { sig, node });
    nodes.push(node);
  }
  for (const n of notices.filter((x) => x.channel === channel)) {
    const m = {
      key: `notice-${n.at}`,
      ts: n.at,
      version: 1,
      text: n.text,
      ephemeral: true,
      author: 'Slackbot',
      files: [],
      unfurls: [],
    };
    const node = renderMessage(m, [], messageCtx());
    nodes.push(node);
  }
  drawn = next;
  if (nodes.length === 0) nodes.push(el('div', 'empty', 'No messages yet. Type /gl help below.'));
  list.replaceChildren(...nodes);
  if (atBottom) list.scrollTop = list.scrollHeight;
  seen.set(channel, new Set(inChannel.map((m) => m.key)));
}

function drawHome() {
  const home = $('home');
  const view = state.home;
  home.replaceChildren(
    view
      ? renderBlocks(view.blocks, { ...ctx, onAction: (e, blockId, b) => press({ view: view.id }, e, blockId, b) })
      : el('div', 'empty', 'Opening your Home tab…'),
  );
}

function drawSteps() {
  const list = $('step-runs');
  list.replaceChildren(
    ...state.steps.map((s) => {
      const li = el('li', 'step-run');
      const ended = s.ended;
      const status = !ended
        ? 'waiting (the person is asked in their DM)'
        : ended.error !== undefined
          ? `failed: ${ended.error}`
          : `completed: ${Object.entries(ended.outputs ?? {})
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')}`;
      li.append(el('b', '', s.title), document.createTextNode(` — ${status}`));
      return li;
    }),
  );
  const select = $('step-id');
  if (select.options.length === 0)
    for (const s of state.stepIds) {
      const o = el('option', '', `${s.title} (${s.id})`);
      o.value = s.id;
      select.append(o);
    }
}

function draw() {
  if (!state) return;
  for (const c of state.channels)
    if (!seen.has(c.id)) seen.set(c.id, new Set(state.messages.filter((m) => m.channel === c.id).map((m) => m.key)));
  const channel = state.channels.find((c) => c.id === pane);
  if (!channel && pane !== 'home') pane = 'C0DEMO';
  const isHome = pane === 'home';
  const isDm = channel?.kind === 'dm';
  $('pane-title').textContent = isHome || isDm ? 'GitLab' : `# ${channel?.name ?? ''}`;
  $('pane-tabs').hidden = !(isHome || isDm);
  $('tab-home').setAttribute('aria-selected', String(isHome));
  $('tab-messages').setAttribute('aria-selected', String(isDm));
  $('messages').hidden = isHome;
  $('composer').hidden = isHome;
  $('home').hidden = !isHome;
  $('composer-input').placeholder = isDm ? 'Message GitLab' : `Message #${channel?.name ?? ''}`;
  if (isHome) drawHome();
  else drawMessages(pane);
  drawSidebar();
  drawSteps();
  drawModal();
  $('me-name').textContent = me;
}

let fetching = false;
let again = false;
async function refresh() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    const who = me;
    const res = await fetch(`/api/state?as=${encodeURIComponent(who)}`);
    // What another person saw, asked for before a switch, is not drawn: the next fetch is this person's.
    if (who !== me) again = true;
    else if (res.ok) {
      state = await res.json();
      draw();
      // Tests (and anyone scripting the page) wait for this before typing.
      document.body.dataset.seq = String(state.seq);
    }
  } finally {
    fetching = false;
    if (again) {
      again = false;
      refresh();
    }
  }
}

function switchPerson(name) {
  me = name;
  drawn = new Map();
  seen.clear();
  notices.length = 0;
  drawnModal = null;
  state = null;
  open(pane);
  refresh();
}

async function start() {
  setEmoji(await (await fetch('/api/emoji')).json());
  const who = $('person');
  for (const name of ['alice', 'bob', 'eve', 'root']) {
    const o = el('option', '', name);
    o.value = name;
    o.selected = name === me;
    who.append(o);
  }
  who.addEventListener('change', () => switchPerson(who.value));
  $('tick').addEventListener('click', async () => {
    $('tick').disabled = true;
    try {
      await post('tick', {}, { quiet: true });
    } finally {
      $('tick').disabled = false;
    }
  });
  $('tab-home').addEventListener('click', () => open('home'));
  $('tab-messages').addEventListener('click', () => open(state.channels.find((c) => c.kind === 'dm').id));
  const input = $('composer-input');
  const send = async () => {
    const text = input.value;
    if (!text.trim()) return;
    input.value = '';
    await post('compose', { channel: pane, text });
  };
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      send();
    }
  });
  $('composer').addEventListener('submit', (e) => {
    e.preventDefault();
    send();
  });
  $('step-form').addEventListener('submit', (e) => {
    e.preventDefault();
    post('step', { line: `${$('step-id').value} ${$('step-inputs').value}` });
  });
  document.addEventListener('click', () => {
    for (const m of document.querySelectorAll('.message-actions .menu')) m.hidden = true;
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && state?.modal && !document.querySelector('#dialogs .backdrop')) post('close');
  });
  const events = new EventSource('/api/events');
  events.addEventListener('message', () => refresh());
  open(pane);
  await refresh();
}

start();
