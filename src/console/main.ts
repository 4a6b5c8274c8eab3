import fs from 'node:fs';
import readline from 'node:readline';
import { redact } from '../redact.js';
import { startDemo } from './demo.js';

// `npm run demo`: interactive on a terminal; with `--script FILE`, or with standard input
// that is not a terminal, it runs the lines in order and exits.

function scriptArg(argv: string[]): string | null {
  const i = argv.indexOf('--script');
  if (i >= 0) return argv[i + 1] ?? null;
  const eq = argv.find((a) => a.startsWith('--script='));
  return eq ? eq.slice('--script='.length) : null;
}

async function main(): Promise<void> {
  const script = scriptArg(process.argv.slice(2));
  const interactive = !script && process.stdin.isTTY === true;
  const write = (text: string) => process.stdout.write(`${text}\n`);

  // One queue of input lines serves both commands and the questions asked in between
  // (modal inputs, confirmations), so a script answers them with its next lines.
  const queue: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  const push = (line: string | null) => {
    const w = waiting.shift();
    if (w) w(line);
    else if (line !== null) queue.push(line);
    if (line === null) ended = true;
  };
  const next = (): Promise<string | null> => {
    if (queue.length) return Promise.resolve(queue.shift() as string);
    if (ended) return Promise.resolve(null);
    return new Promise((resolve) => waiting.push(resolve));
  };

  let rl: readline.Interface | null = null;
  if (script) {
    for (const line of fs.readFileSync(script, 'utf8').split(/\r?\n/)) push(line);
    push(null);
  } else {
    rl = readline.createInterface({
      input: process.stdin,
      output: interactive ? process.stdout : undefined,
      terminal: interactive,
    });
    rl.on('line', (line) => push(line));
    rl.on('close', () => push(null));
  }

  const prompt = (text: string) => {
    if (interactive) rl?.setPrompt(text);
    if (interactive) rl?.prompt();
    else process.stdout.write(text);
  };
  const ask = async (question: string) => {
    prompt(question);
    const answer = await next();
    if (!interactive) write(answer ?? '');
    return answer;
  };

  write('Starting the demo: simulator, fake Slack and bot on free ports…');
  const demo = await startDemo({ write, ask });
  write(`Simulator ${demo.simUrl} · bot ${demo.botUrl} · you are alice in #demo. Type "help" for help.`);
  write('Try: /gl jobs demo/web --scope failed');

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    rl?.close();
    await demo.close();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(130));
  process.on('SIGTERM', () => void stop(143));

  for (;;) {
    prompt(`${demo.session.user}> `);
    const line = await next();
    if (line === null) break;
    if (!interactive) write(line);
    try {
      if (!(await demo.session.handle(line))) break;
    } catch (err) {
      write(`(console error: ${redact(err instanceof Error ? err.message : String(err))})`);
    }
  }
  if (interactive) write('');
  await stop(0);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `The demo could not start: ${redact(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
  );
  process.exit(1);
});
