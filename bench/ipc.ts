// The bench's processes talk over node's IPC channel: the bench asks, a child answers the message with the same id.
// `serve` is the child's side (bench/load.ts); `Child` is the bench's handle on a process it started, able to call
// what the child serves and to ask the probe (bench/probe.mjs) preloaded into a server process.

import { type ChildProcess, spawn } from 'node:child_process';

type Handlers = Record<string, (args: never) => unknown>;

interface Reply {
  ok: boolean;
  result?: unknown;
  error?: string;
}

/** Answers the bench's calls in a child process; the child ends when the bench goes away. */
export function serve(handlers: Handlers): void {
  if (typeof process.send !== 'function') throw new Error('start this through the bench (it needs an IPC channel)');
  process.on('message', async (msg: { call?: number; op?: string; args?: unknown }) => {
    if (msg?.call === undefined) return;
    const handler = msg.op ? handlers[msg.op] : undefined;
    let reply: Reply;
    try {
      if (!handler) throw new Error(`unknown op ${msg.op}`);
      reply = { ok: true, result: await handler(msg.args as never) };
    } catch (err) {
      reply = { ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    process.send?.({ call: msg.call, ...reply });
  });
  process.on('disconnect', () => process.exit(0));
}

export interface ProbeStats {
  cpuUs: number;
  memory: NodeJS.MemoryUsage;
  heapAfterGc?: number;
  rssAfterGc?: number;
}

export interface SpawnOptions {
  args: string[];
  env?: Record<string, string>;
  /** Resolves once a line of the child's output (stdout or stderr) matches; the match is returned. */
  ready?: RegExp;
  readyTimeoutMs?: number;
}

let nextMessage = 1;

export class Child {
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private output = '';
  private exited: string | null = null;

  private constructor(
    readonly name: string,
    readonly process: ChildProcess,
  ) {
    process.on('message', (msg: { call?: number; probe?: number } & Reply) => {
      const id = msg.call ?? msg.probe;
      if (id === undefined) return;
      const resolve = this.pending.get(id);
      this.pending.delete(id);
      resolve?.(msg);
    });
    process.on('exit', (code, signal) => {
      this.exited = `${name} exited (${signal ?? code})`;
      for (const resolve of this.pending.values()) resolve({ ok: false, error: `${this.exited}\n${this.tail()}` });
      this.pending.clear();
    });
  }

  static async start(name: string, o: SpawnOptions): Promise<{ child: Child; match: RegExpMatchArray | null }> {
    const proc = spawn(process.execPath, o.args, {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, ...o.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const child = new Child(name, proc);
    let match: RegExpMatchArray | null = null;
    const seen = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${name} did not start within ${o.readyTimeoutMs ?? 60_000} ms\n${child.tail()}`)),
        o.readyTimeoutMs ?? 60_000,
      );
      const look = (chunk: Buffer) => {
        child.output = (child.output + chunk.toString('utf8')).slice(-20_000);
        if (!o.ready || match) return;
        match = child.output.match(o.ready);
        if (match) {
          clearTimeout(timer);
          resolve();
        }
      };
      proc.stdout?.on('data', look);
      proc.stderr?.on('data', look);
      proc.on('exit', () => reject(new Error(`${name} exited while starting\n${child.tail()}`)));
      if (!o.ready) {
        clearTimeout(timer);
        proc.once('spawn', () => resolve());
      }
    });
    await seen;
    return { child, match };
  }

  /** The last lines the child wrote, for error messages. */
  tail(): string {
    return this.output.split('\n').slice(-15).join('\n');
  }

  private send(message: Record<string, unknown>, id: number): Promise<unknown> {
    if (this.exited) return Promise.reject(new Error(this.exited));
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => (reply.ok ? resolve(reply.result) : reject(new Error(reply.error))));
      this.process.send(message);
    });
  }

  call<T>(op: string, args?: unknown): Promise<T> {
    const id = nextMessage++;
    return this.send({ call: id, op, args }, id) as Promise<T>;
  }

  stats(o: { gc?: boolean } = {}): Promise<ProbeStats> {
    const id = nextMessage++;
    return this.send({ probe: id, op: 'stats', gc: o.gc === true }, id) as Promise<ProbeStats>;
  }

  timings(): Promise<{ start: number[]; end: number[] }> {
    const id = nextMessage++;
    return this.send({ probe: id, op: 'timings' }, id) as Promise<{ start: number[]; end: number[] }>;
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  }
}
