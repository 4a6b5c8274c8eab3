// The load generator of the side-by-side bench, in a process of its own so that neither server pays for it. It
// plays Slack: it signs slash commands and button clicks exactly as Slack does and posts them to a server's
// /slack/events, timing the ack (the HTTP answer), and it serves the small part of Slack's Web API the bot needs
// (auth.test, users.info) plus the response_urls, so it also sees when each answer arrives. `concurrency` commands
// are in flight at any time until `count` were sent. Driven over IPC by bench/side-by-side.ts.

import { Agent, createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  blockActionsBody,
  type ClickedButton,
  type SlackPerson,
  signedRequest,
  slashCommandBody,
} from '../src/console/index.js';
import { serve } from './ipc.js';

export interface Target {
  url: string;
  signingSecret: string;
}

export interface RunOptions {
  target: string;
  concurrency: number;
  count: number;
  /** Slash command text (without the command), or a button to click. */
  text?: string;
  button?: ClickedButton;
  /** Wait for the answer on the response_url; it must contain this text. */
  answer?: string;
  /** Per answer, ms (default 30 s). */
  timeoutMs?: number;
  /** Return each command's start and end on the monotonic clock (to match with the simulator's request times). */
  windows?: boolean;
  /** Return each command's start (monotonic ns) and ack time, in the order they were sent (to study the tail). */
  trace?: boolean;
}

export interface RunResult {
  sent: number;
  acked: number;
  ackFailures: Record<string, number>;
  answered: number;
  wrongAnswers: number;
  missingAnswers: number;
  firstWrongAnswer: string | null;
  seconds: number;
  ackMs: number[];
  /** Acks of requests sent on a connection that was already open. */
  ackMsEstablished: number[];
  /** Requests that had to open a connection first. */
  newConnections: number;
  answerMs: number[];
  /** Sent again on a new socket after the server had closed an idle one. */
  resent: number;
  windows?: { start: number[]; end: number[] };
  trace?: { start: number[]; ackMs: number[] };
  cpuUs: number;
}

// The demo people the bench has connected: commands go round them, as a channel's people would send them.
const PEOPLE: (SlackPerson & { tz: string })[] = [
  { id: 'U0ALICE', name: 'alice', tz: 'Europe/Berlin' },
  { id: 'U0BOB', name: 'bob', tz: 'America/New_York' },
  { id: 'U0ROOT', name: 'root', tz: 'UTC' },
  { id: 'U0EVE', name: 'eve', tz: 'Asia/Tokyo' },
];
const CHANNEL = 'C0BENCH';

const targets = new Map<string, Target & { agent: Agent; target: URL }>();
const waiting = new Map<number, (body: string, at: bigint) => void>();
let nextId = 1;
let slackBase = '';
/** Requests sent again after an idle keep-alive socket was found closed (see post). */
let resent = 0;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** What the bot needs of Slack's Web API, and the response_urls. */
const slack = createServer(async (req, res) => {
  const body = await readBody(req);
  const at = process.hrtime.bigint();
  const url = req.url ?? '/';
  const json = (value: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(value));
  };
  if (url.startsWith('/response/')) {
    const id = Number(url.slice('/response/'.length));
    json({ ok: true });
    const resolve = waiting.get(id);
    waiting.delete(id);
    resolve?.(body, at);
    return;
  }
  const method = /^\/api\/([A-Za-z.]+)/.exec(url)?.[1];
  if (method === 'auth.test') return json({ ok: true, team_id: 'T0TEST', user_id: 'U0BOT', bot_id: 'B0BOT' });
  if (method === 'users.info') {
    const user = new URLSearchParams(body).get('user');
    const person = PEOPLE.find((p) => p.id === user);
    return json(person ? { ok: true, user: { id: person.id, name: person.name, tz: person.tz } } : { ok: false });
  }
  json({ ok: true });
});
slack.keepAliveTimeout = 65_000;

/**
 * A keep-alive socket the server closed as idle (Bolt's server closes them after 5 s) fails the next request sent on
 * it before the server saw it; any HTTP client sends such a request again on a new socket, and so does this one.
 */
async function post(t: Target & { agent: Agent; target: URL }, raw: string): Promise<Sent> {
  try {
    return await postOnce(t, raw);
  } catch (err) {
    if (!(err as { reusedSocket?: boolean }).reusedSocket) throw err;
    resent++;
    const again = await postOnce(t, raw);
    return { ...again, newConnection: true };
  }
}

/** The ack's status, and whether the request had to open a connection (the server accepts one per event-loop turn). */
interface Sent {
  status: number;
  newConnection: boolean;
}

function postOnce(t: Target & { agent: Agent; target: URL }, raw: string): Promise<Sent> {
  const { headers, body } = signedRequest(t.signingSecret, raw);
  headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { agent: t.agent, host: t.target.hostname, port: t.target.port, path: '/slack/events', method: 'POST', headers },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ status: res.statusCode ?? 0, newConnection: !req.reusedSocket }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      reject(Object.assign(err, { reusedSocket: req.reusedSocket && err.code === 'ECONNRESET' })),
    );
    req.end(body);
  });
}

const answerTextOf = (body: string): string => {
  try {
    const parsed = JSON.parse(body) as { text?: unknown };
    return typeof parsed.text === 'string' ? parsed.text : '';
  } catch {
    return '';
  }
};

function waitForAnswer(id: number, timeoutMs: number): Promise<{ body: string; at: bigint } | null> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve(null);
    }, timeoutMs);
    waiting.set(id, (body, at) => {
      clearTimeout(timer);
      resolve({ body, at });
    });
  });
}

async function run(o: RunOptions): Promise<RunResult> {
  const t = targets.get(o.target);
  if (!t) throw new Error(`unknown target ${o.target}`);
  const result: RunResult = {
    sent: 0,
    acked: 0,
    ackFailures: {},
    answered: 0,
    wrongAnswers: 0,
    missingAnswers: 0,
    firstWrongAnswer: null,
    seconds: 0,
    ackMs: [],
    ackMsEstablished: [],
    newConnections: 0,
    answerMs: [],
    resent: 0,
    cpuUs: 0,
    ...(o.windows ? { windows: { start: [], end: [] } } : {}),
    ...(o.trace ? { trace: { start: [], ackMs: [] } } : {}),
  };
  const timeoutMs = o.timeoutMs ?? 30_000;
  const cpu0 = process.cpuUsage();
  const resent0 = resent;
  const began = process.hrtime.bigint();

  // Answers are read after the run, not between one command and the next: there, a large answer's parse (and its
  // garbage) was the load generator's own work on the next command's timed path, and at 1 in flight the bot's next
  // command reached it later than the floor's did while the bot sat idle (bench/README.md, "Reading the answers").
  const answers: string[] = [];
  const once = async (n: number) => {
    const id = nextId++;
    const user = PEOPLE[n % PEOPLE.length] as SlackPerson;
    const responseUrl = `${slackBase}/response/${id}`;
    const triggerId = `${id}.bench`;
    const raw = o.button
      ? blockActionsBody({
          user,
          channel: CHANNEL,
          messageTs: '1700000000.000100',
          ephemeral: true,
          button: o.button,
          responseUrl,
          triggerId,
        })
      : slashCommandBody({ user, command: '/gl', text: o.text ?? '', channel: CHANNEL, responseUrl, triggerId });
    const answer = o.answer === undefined ? null : waitForAnswer(id, timeoutMs);
    const start = process.hrtime.bigint();
    let status: number | string;
    let newConnection = true;
    try {
      ({ status, newConnection } = await post(t, raw));
    } catch (err) {
      status = (err as NodeJS.ErrnoException).code ?? 'error';
    }
    const acked = process.hrtime.bigint();
    result.sent++;
    if (status !== 200) {
      result.ackFailures[status] = (result.ackFailures[status] ?? 0) + 1;
      waiting.delete(id);
      return;
    }
    result.acked++;
    result.ackMs.push(Number(acked - start) / 1e6);
    if (newConnection) result.newConnections++;
    else result.ackMsEstablished.push(Number(acked - start) / 1e6);
    result.trace?.start.push(Number(start));
    result.trace?.ackMs.push(Number(acked - start) / 1e6);
    if (!answer) return;
    const got = await answer;
    if (!got) {
      result.missingAnswers++;
      return;
    }
    result.answered++;
    result.answerMs.push(Number(got.at - start) / 1e6);
    result.windows?.start.push(Number(start));
    result.windows?.end.push(Number(got.at));
    if (o.answer) answers.push(got.body);
  };

  let issued = 0;
  const lane = async () => {
    while (issued < o.count) await once(issued++);
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, o.count) }, lane));
  result.seconds = Number(process.hrtime.bigint() - began) / 1e9;
  for (const body of answers) {
    const text = answerTextOf(body);
    if (text.includes(o.answer ?? '')) continue;
    result.wrongAnswers++;
    result.firstWrongAnswer ??= text.slice(0, 300);
  }
  result.resent = resent - resent0;
  const cpu = process.cpuUsage(cpu0);
  result.cpuUs = cpu.user + cpu.system;
  return result;
}

/** Sends the command once and returns the first button of its answer whose text matches. */
async function findButton(o: { target: string; text: string; label: string }): Promise<ClickedButton> {
  const id = nextId;
  const answer = waitForAnswer(id, 10_000);
  nextId++;
  const t = targets.get(o.target);
  if (!t) throw new Error(`unknown target ${o.target}`);
  const user = PEOPLE[0] as SlackPerson;
  const raw = slashCommandBody({
    user,
    command: '/gl',
    text: o.text,
    channel: CHANNEL,
    responseUrl: `${slackBase}/response/${id}`,
    triggerId: `${id}.bench`,
  });
  const { status } = await post(t, raw);
  const got = await answer;
  if (status !== 200 || !got) throw new Error(`no answer to "${o.text}" (ack ${status})`);
  type Element = { type?: string; text?: { text?: string }; action_id?: string; value?: string };
  const blocks = (
    JSON.parse(got.body) as { blocks?: { block_id?: string; accessory?: Element; elements?: Element[] }[] }
  ).blocks;
  for (const b of blocks ?? []) {
    for (const e of [b.accessory, ...(b.elements ?? [])]) {
      if (e?.type === 'button' && e.text?.text === o.label && e.action_id)
        return { action_id: e.action_id, block_id: b.block_id, value: e.value, text: o.label };
    }
  }
  throw new Error(`no "${o.label}" button in the answer to "${o.text}"`);
}

serve({
  async start() {
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
    slackBase = `http://127.0.0.1:${(slack.address() as AddressInfo).port}`;
    return { apiUrl: `${slackBase}/api/` };
  },
  target(o: { name: string } & Target) {
    const target = new URL(o.url);
    targets.get(o.name)?.agent.destroy();
    targets.set(o.name, { ...o, target, agent: new Agent({ keepAlive: true, maxSockets: 256 }) });
    return true;
  },
  run: (o: RunOptions) => run(o),
  findButton,
  stats() {
    const cpu = process.cpuUsage();
    return { cpuUs: cpu.user + cpu.system, memory: process.memoryUsage() };
  },
});
