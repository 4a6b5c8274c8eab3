import { describe, expect, it } from 'vitest';
import { NOUNS as GRAMMAR_NOUNS, SPEC } from '../../../src/grammar/index.js';
import { NOUNS } from '../../../src/nouns/index.js';
import { useApp } from '../../support/app-harness.js';
import { PEOPLE, type StartedApp } from '../../support/start-app.js';

const app = useApp();

describe('the HTTP receiver', () => {
  it('answers GET /healthz with 200 once the database answers', async () => {
    const res = await fetch(`${app.bot.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', mode: 'http' });
  });

  it('answers a signed /gl help with the help, without calling the server', async () => {
    app.sim.reset();
    const it = await app.bot.slack.command(PEOPLE.carol, 'help');
    expect(it.ack.status).toBe(200);
    const text = it.text();
    for (const word of ['connect', 'jobs', 'pipeline', 'schedule', 'deployment']) expect(text).toContain(word);
    // Help advertises exactly the nouns this bot carries out.
    const shipped = new Set(NOUNS.flatMap((n) => n.commandKeys).map((k) => SPEC.find((e) => e.key === k)?.noun));
    for (const noun of GRAMMAR_NOUNS.filter((n) => n.group !== 'account')) {
      // A noun whose only command takes an argument is shown in its singular form (`/gl key <key-id>`).
      const forms = ['plural' in noun && noun.plural ? noun.plural : noun.name, noun.name];
      const word = new RegExp(`\`/gl (?:${forms.join('|')})[\` ]`);
      if (shipped.has(noun.name)) expect(text).toMatch(word);
      else expect(text).not.toMatch(word);
    }
    expect(app.sim.requests()).toEqual([]);
  });

  const forged: [string, Parameters<StartedApp['slack']['command']>[2]][] = [
    ['a signature made with another secret', { sign: { secret: 'not-the-signing-secret' } }],
    ['a timestamp six minutes old', { sign: { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 } }],
    [
      'a body changed after signing',
      { sign: { mutateAfterSigning: (b) => b.replace('text=whoami', 'text=jobs+demo%2Fweb') } },
    ],
    ['no signature headers at all', { sign: { omitSignature: true, omitTimestamp: true } }],
    ['no signature header', { sign: { omitSignature: true } }],
  ];

  it.each(forged)('refuses %s with 401 and runs no listener', async (_what, opts) => {
    app.sim.reset();
    const seq = app.bot.fake.lastSeq;
    const logsBefore = app.bot.logs.length;
    const it = await app.bot.slack.command(PEOPLE.alice, 'whoami', opts);
    expect(it.ack.status).toBe(401);
    expect(it.ack.text).toBe('');
    // The receiver answers 401 before Bolt dispatches anything, so nothing can still be on its way.
    expect(app.bot.fake.since(seq)).toEqual([]);
    expect(app.sim.requests()).toEqual([]);
    expect(app.bot.logs.slice(logsBefore).filter((l) => l.includes('command received'))).toEqual([]);
  });
});

describe('the receiver, for what Slack never sends', () => {
  it('answers a path it cannot parse with 400, another path or method with 404, and stays up', async () => {
    const { port } = new URL(app.bot.url);
    const net = await import('node:net');
    const raw = (line: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(`${line}\r\nHost: x\r\n\r\n`));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString();
        });
        socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
        socket.on('error', reject);
      });
    expect(await raw('GET //[ HTTP/1.1')).toBe('HTTP/1.1 400 Bad Request');
    expect((await fetch(`${app.bot.url}/nowhere`)).status).toBe(404);
    expect((await fetch(`${app.bot.url}/slack/events`)).status).toBe(404);
    expect((await fetch(`${app.bot.url}/healthz`)).status).toBe(200);
  });
});
