import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { redact } from '../../redact.js';
import type { Demo } from '../demo.js';
import { EMOJI } from '../render.js';
import { createActions } from './actions.js';
import { ModalStacks } from './modals.js';
import { type PageChannel, snapshot } from './snapshot.js';

// `npm run demo -- --web`: the demo's fake Slack drawn as a page that looks like Slack. The page (plain HTML, CSS
// and JavaScript from ./page, no build step) reads what a person sees from GET /api/state, hears that something
// changed from GET /api/events (server-sent events, one for every call the bot makes to the fake Slack), and does
// what a person does with POST /api/<action> (actions.ts). Uploaded files are served from /files/<id>.

export interface WebDemo {
  url: string;
  close(): Promise<void>;
}

export interface WebDemoOptions {
  demo: Demo;
  people: Readonly<Record<string, { id: string; name: string }>>;
  channels: readonly { id: string; name: string }[];
  slashCommand: string;
  /** Default 127.0.0.1: the page acts as anyone in the demo, so it is not offered to the network unless asked. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
}

const PAGE_DIR = path.join(import.meta.dirname, 'page');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};
// Everything drawn comes from the page's own scripts, built with textContent; the policy is a second wall.
const SECURITY = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const MAX_BODY = 256 * 1024;

/** The page's own files, read once: nothing outside ./page can be asked for by name. */
function pageFiles(): Map<string, { type: string; body: Buffer }> {
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const name of fs.readdirSync(PAGE_DIR)) {
    const type = TYPES[path.extname(name)];
    if (type) files.set(`/${name}`, { type, body: fs.readFileSync(path.join(PAGE_DIR, name)) });
  }
  const index = files.get('/index.html');
  if (index) files.set('/', index);
  return files;
}

function readJson(req: http.IncomingMessage): Promise<Record<string, unknown> | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve(
          parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null,
        );
      } catch {
        resolve(null);
      }
    });
    req.on('error', reject);
  });
}

export async function startWebDemo(o: WebDemoOptions): Promise<WebDemo> {
  const { demo } = o;
  const fake = demo.fake;
  const files = pageFiles();
  const modals = new ModalStacks();
  const channels: PageChannel[] = o.channels.map((c) => ({ ...c, kind: 'channel' }));
  const act = createActions({
    slack: demo.slack,
    fake,
    modals,
    people: o.people,
    slashCommand: o.slashCommand,
    linkHost: new URL(demo.simUrl).host,
    tick: demo.tick,
  });
  const listeners = new Set<http.ServerResponse>();
  const announce = () => {
    for (const res of listeners) res.write(`data: ${JSON.stringify({ seq: fake.lastSeq })}\n\n`);
  };
  const onRecord = (r: Parameters<ModalStacks['observe']>[0]) => {
    modals.observe(r);
    announce();
  };
  fake.on('record', onRecord);

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...SECURITY,
    });
    res.end(JSON.stringify(body));
  };

  /** Host headers the page answers to (set once listening): a page of another name that resolves here is refused. */
  let hosts: Set<string> | null = null;

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://page');
    if (hosts && !hosts.has(String(req.headers.host ?? '').toLowerCase()))
      return send(res, 421, { error: 'This page answers to its own address only.' });
    if (req.method === 'GET') {
      const page = files.get(url.pathname);
      if (page) {
        res.writeHead(200, { 'content-type': page.type, 'cache-control': 'no-store', ...SECURITY });
        res.end(page.body);
        return;
      }
      if (url.pathname === '/api/emoji') return send(res, 200, EMOJI);
      if (url.pathname === '/api/state') {
        const me = o.people[url.searchParams.get('as') ?? ''];
        if (!me) return send(res, 400, { error: `Who? One of: ${Object.keys(o.people).join(', ')}.` });
        return send(res, 200, snapshot(fake, { me, people: Object.values(o.people), channels, modals }));
      }
      if (url.pathname === '/api/events') {
        res.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          connection: 'keep-alive',
          ...SECURITY,
        });
        res.write(`data: ${JSON.stringify({ seq: fake.lastSeq })}\n\n`);
        listeners.add(res);
        req.on('close', () => listeners.delete(res));
        return;
      }
      const file = url.pathname.startsWith('/files/') ? fake.files.get(url.pathname.slice('/files/'.length)) : null;
      if (file) {
        // Images are shown inline; any other file is a download, never a page of its own.
        const type = TYPES[path.extname(file.filename).toLowerCase()];
        const image = type?.startsWith('image/') && type !== 'image/svg+xml';
        const bytes = file.bytes ?? Buffer.from(file.content ?? '', 'utf8');
        res.writeHead(200, {
          'content-type': image ? (type as string) : 'application/octet-stream',
          'content-disposition': `${image ? 'inline' : 'attachment'}; filename="${file.filename.replace(/[^\w.-]/g, '_')}"`,
          ...SECURITY,
        });
        res.end(bytes);
        return;
      }
      return send(res, 404, { error: 'Not found.' });
    }
    const action = /^\/api\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (req.method !== 'POST' || !action) return send(res, 404, { error: 'Not found.' });
    // A page elsewhere cannot drive the demo: its requests are not JSON of this origin.
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
      return send(res, 415, { error: 'Send JSON.' });
    const body = await readJson(req);
    if (!body) return send(res, 400, { error: 'The request was not a JSON object.' });
    const result = await act(action, body);
    send(res, result.ok ? 200 : 400, result);
    announce();
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, { error: `The demo page failed: ${redact(String(err))}` });
      else res.end();
    });
  });
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  // On a loopback address only the loopback names reach it; offered on another address (--host), any name may.
  const loopback = ['127.0.0.1', 'localhost', '::1'].includes(host);
  hosts = loopback ? new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) : null;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    async close() {
      fake.off('record', onRecord);
      for (const res of listeners) res.end();
      listeners.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
