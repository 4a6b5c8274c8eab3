import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PinoPretty from 'pino-pretty';
import { redact } from '../redact.js';
import { DEMO_CHANNELS, DEMO_PEOPLE, startDemo } from './demo.js';
import { createConsoleIO } from './terminal.js';
import { startWebDemo, type WebDemo } from './web/server.js';

// `npm run demo`: interactive on a terminal; with `--script FILE`, or with standard input
// that is not a terminal, it runs the lines in order and exits. Input is echoed only masked
// (terminal.ts). With `--web [--port P] [--host H]` it also serves the same fake Slack as a page
// (web/server.ts) and runs until stopped; on a terminal the console works beside the page.

/** A script's lines: the newline that ends its last line starts no empty line after it. */
function scriptLines(file: string): string[] {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function scriptArg(argv: string[]): string | null {
  const i = argv.indexOf('--script');
  if (i >= 0) return argv[i + 1] ?? null;
  const eq = argv.find((a) => a.startsWith('--script='));
  return eq ? eq.slice('--script='.length) : null;
}

/** `--name value` or `--name=value`; undefined when absent. */
function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i >= 0) return argv[i + 1];
  return argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function webOptions(argv: string[]): { port: number; host: string } | null {
  if (!argv.includes('--web')) return null;
  const rawPort = option(argv, 'port') ?? '0';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535)
    throw new Error(`--port must be a port number (0–65535), got "${rawPort}"`);
  return { port, host: option(argv, 'host') ?? '127.0.0.1' };
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const web = webOptions(argv);
  const script = scriptArg(argv);
  const interactive = !script && process.stdin.isTTY === true;
  const io = createConsoleIO({
    output: process.stdout,
    ...(script ? { lines: scriptLines(script) } : { input: process.stdin, interactive }),
  });
  const { write } = io;

  write('Starting the demo: simulator, fake Slack and bot on free ports…');
  // The bot's log stays after the demo, so that the reference of an error it showed can be looked up.
  const logFile = path.join(os.tmpdir(), `glbot-demo-${new Date().toISOString().replace(/[:.]/g, '-')}.log`);
  const log = fs.createWriteStream(logFile, { flags: 'a', mode: 0o600 });
  // For a person to read: one line per entry with its time and level, the fields (a request's `req`) below it.
  const pretty = PinoPretty.prettyFactory({ colorize: false, translateTime: 'SYS:HH:MM:ss.l' });
  const demo = await startDemo({
    write,
    ask: (question, o) => io.read(question, o),
    log: (line) => log.write(pretty(line)),
    logLevel: 'info',
    // Kept after the demo ends (unlike its data directory), so a chart printed by path can still be opened.
    fileDir: path.join(os.tmpdir(), `glbot-demo-files-${process.pid}`),
  });
  let page: WebDemo | null = null;
  if (web) {
    page = await startWebDemo({
      demo,
      people: DEMO_PEOPLE,
      channels: DEMO_CHANNELS,
      slashCommand: demo.slack.o.command,
      ...web,
    });
  }
  write(`Simulator ${demo.simUrl} · bot ${demo.botUrl} · you are alice in #demo. Type "help" for help.`);
  write(`The bot's log: ${logFile} (a "reference" in an error is found there).`);
  if (page) write(`The demo as Slack draws it: open ${page.url} in a browser (Ctrl-C stops the demo).`);
  write('Try: /gl jobs demo/web --scope failed, /gl pipeline demo/web 2 (why it failed), or "home" for your Home tab.');

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    io.close();
    await page?.close();
    await demo.close();
    await new Promise<void>((resolve) => log.end(resolve));
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(130));
  process.on('SIGTERM', () => void stop(143));

  // Serving the page with no terminal to read, the demo just serves until it is stopped.
  if (page && !interactive && !script) return;
  let quit = false;
  for (;;) {
    const line = await io.read(`${demo.session.user}> `);
    if (line === null) break;
    try {
      if (!(await demo.session.handle(line))) {
        quit = true;
        break;
      }
    } catch (err) {
      write(`(console error: ${redact(err instanceof Error ? err.message : String(err))})`);
    }
  }
  // The page goes on being served after a script's lines end, until the demo is stopped or told to quit.
  if (!page || quit) await stop(0);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `The demo could not start: ${redact(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
  );
  process.exit(1);
});
