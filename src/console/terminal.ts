import readline from 'node:readline';
import { type Readable, Writable } from 'node:stream';
import { MASK, maskTokens } from './mask.js';

// The console's input and output. One queue of lines serves both commands and the questions
// asked in between (modal inputs, confirmations), so a script answers them with its next
// lines. What the person typed is shown back only masked: a secret answer not at all, and
// token-shaped words without their secret part.
//
// - script lines (`--script FILE`) or input that is not a terminal: each line read is echoed
//   after its prompt, masked;
// - a terminal: readline echoes keystrokes, so the echo is muted while a secret is typed,
//   a line that held a token is redrawn masked, and neither stays in the history.

export interface ConsoleIO {
  /** Shows `prompt` and resolves with the next line, or null at the end of input. */
  read(prompt: string, o?: { secret?: boolean }): Promise<string | null>;
  write(text: string): void;
  close(): void;
}

export interface ConsoleIOOptions {
  output: NodeJS.WritableStream & { columns?: number };
  /** The lines of a script; when given, `input` is not read. */
  lines?: string[];
  input?: Readable;
  /** Whether `input` is a terminal the person types into. */
  interactive?: boolean;
}

/** Passes writes through to the real output unless muted (readline's echo of a secret). */
class Gate extends Writable {
  muted = false;

  constructor(private readonly target: NodeJS.WritableStream & { columns?: number }) {
    super();
  }

  get columns(): number | undefined {
    return this.target.columns;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (!this.muted) this.target.write(chunk);
    done();
  }
}

export function createConsoleIO(o: ConsoleIOOptions): ConsoleIO {
  const out = o.output;
  const write = (text: string) => {
    out.write(`${text}\n`);
  };
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

  const interactive = !o.lines && o.interactive === true;
  if (!interactive) {
    let rl: readline.Interface | null = null;
    if (o.lines) {
      for (const line of o.lines) push(line);
      push(null);
    } else if (o.input) {
      rl = readline.createInterface({ input: o.input, terminal: false });
      rl.on('line', (line) => push(line));
      rl.on('close', () => push(null));
    } else push(null);
    return {
      async read(prompt, { secret = false } = {}) {
        out.write(prompt);
        const line = await next();
        write(line === null ? '' : secret ? (line ? MASK : '') : maskTokens(line));
        return line;
      },
      write,
      close: () => rl?.close(),
    };
  }

  const gate = new Gate(out);
  let secretPending = false;
  /** Whether a prompt is on screen waiting for a line (what the bot sends meanwhile is printed above it). */
  let prompting = false;
  const rl = readline.createInterface({ input: o.input as Readable, output: gate, terminal: true });
  // Node hands listeners the history itself so that a sensitive entry can be dropped.
  rl.on('history', (history: string[]) => {
    const newest = history[0];
    if (newest !== undefined && (secretPending || maskTokens(newest) !== newest)) history.shift();
  });
  rl.on('line', (line) => push(line));
  rl.on('close', () => push(null));

  return {
    async read(prompt, { secret = false } = {}) {
      rl.setPrompt(prompt);
      rl.prompt();
      secretPending = secret;
      gate.muted = secret;
      prompting = true;
      const line = await next();
      prompting = false;
      gate.muted = false;
      secretPending = false;
      if (line === null) out.write('\n');
      else if (secret) {
        // the newline readline echoed was muted with the rest
        out.write(line ? `${MASK}\n` : '\n');
      } else if (maskTokens(line) !== line) {
        // redraw the line just entered with the token masked, over as many rows as it took
        const rows = Math.max(1, Math.ceil((prompt.length + line.length) / (out.columns || 80)));
        out.write(`\x1b[${rows}A\r\x1b[J${prompt}${maskTokens(line)}\n`);
      }
      return line;
    },
    write(text) {
      if (!prompting) return write(text);
      // Something the bot sent while the person types: printed above the prompt, which is drawn again with what
      // was typed so far (unless a secret is being typed, which is never drawn).
      readline.clearLine(out, 0);
      readline.cursorTo(out, 0);
      write(text);
      if (!gate.muted) rl.prompt(true);
    },
    close: () => rl.close(),
  };
}
