// The bench's processes talk over node's IPC channel: the bench asks, a child answers the message with the same id.
// `serve` is the child's side (bench/load.ts); `Child` is the bench's handle on a process it started, able to call
// what the child serves and to ask the probe (bench/probe.mjs) preloaded into a server process. A server started
// as an operator starts it (`npm start`: npm, a shell, then node) has no channel: its probe answers on a loopback
// port of its own, and its CPU time and RSS are read from /proc, the same way for every app the bench compares.

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

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
  /** Bytes the JavaScript heap allocated since the probe started. */
  allocatedBytes?: number;
  heapAfterGc?: number;
  rssAfterGc?: number;
}

/** What /proc says of a process: CPU time of all its threads, and its resident set. */
export interface OsStats {
  cpuUs: number;
  rss: number;
}

const TICK_US = 1e6 / 100; // CLK_TCK is 100 on Linux

export function osStatsOf(pid: number): OsStats {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of proc(5) (utime, stime), counted from the state (field 3) here.
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuUs: ticks * TICK_US, rss: rssKiB * 1024 };
}

/** The first node process below `root` (itself included) running a script whose path ends with `script`. */
export function findDescendant(root: number, script: string): number | null {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    try {
      // Not the shell npm runs the script line with (`sh -c "node dist/main.js"`): the node it starts.
      const [program = '', ...args] = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (path.basename(program) === 'node' && args.some((a) => a.endsWith(script))) return pid;
    } catch {
      continue;
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return null;
}

export interface SpawnOptions {
  /** The program (default: this node). */
  command?: string;
  args: string[];
  /** Open node's IPC channel to the child (default true). */
  ipc?: boolean;
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
  /** The process measured: the child itself, or the node it started (see `measure`). */
  pid: number;
  /** Where the probe answers when the child has no IPC channel. */
  private probeUrl: string | null = null;

  private constructor(
    readonly name: string,
    readonly process: ChildProcess,
  ) {
    this.pid = process.pid ?? 0;
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
    const proc = spawn(o.command ?? process.execPath, o.args, {
      cwd: new URL('..', import.meta.url).pathname,
      env: { ...process.env, ...o.env },
      stdio: o.ipc === false ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', 'ipc'],
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

  /**
   * Measures the node process below this child whose command line contains `script` (the bot under npm), and asks
   * its probe on the port it said it listens on.
   */
  measure(script: string): void {
    const pid = findDescendant(this.process.pid ?? 0, script);
    if (pid === null) throw new Error(`${this.name}: no process running ${script}\n${this.tail()}`);
    this.pid = pid;
    const port = /bench-probe listening on (\d+)/.exec(this.output)?.[1];
    this.probeUrl = port ? `http://127.0.0.1:${port}/__probe/` : null;
  }

  /** CPU time and RSS of the measured process, from /proc. */
  os(): OsStats {
    return osStatsOf(this.pid);
  }

  private async probe<T>(op: string, query = ''): Promise<T> {
    const res = await fetch(`${this.probeUrl}${op}${query}`);
    if (!res.ok) throw new Error(`${this.name}: the probe answered ${res.status}`);
    return (await res.json()) as T;
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
    if (this.probeUrl) return this.probe<ProbeStats>('stats', o.gc ? '?gc=1' : '');
    const id = nextMessage++;
    return this.send({ probe: id, op: 'stats', gc: o.gc === true }, id) as Promise<ProbeStats>;
  }

  timings(): Promise<{ start: number[]; end: number[] }> {
    if (this.probeUrl) return this.probe('timings');
    const id = nextMessage++;
    return this.send({ probe: id, op: 'timings' }, id) as Promise<{ start: number[]; end: number[] }>;
  }

  async stop(): Promise<void> {
    const measured = this.pid !== this.process.pid ? this.pid : null;
    if (!this.exited) {
      const gone = new Promise<void>((resolve) => this.process.once('exit', () => resolve()));
      this.process.kill('SIGTERM');
      const timer = setTimeout(() => this.process.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    }
    // The node npm started may outlive npm: it is stopped too, and its output (still open here) let go.
    if (measured !== null) await stopPid(measured);
    this.process.stdout?.destroy();
    this.process.stderr?.destroy();
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function stopPid(pid: number): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; alive(pid); waited += 50) {
    if (waited === 15_000) process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The simulator (src/sim/main.ts) in a process of its own on a free loopback port, with `nodeArgs` (a probe, flags)
 * and `env` added: the child, and its URL.
 */
export async function startSimulator(
  o: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<{ sim: Child; simUrl: string }> {
  const { child, match } = await Child.start('simulator', {
    args: ['--import', 'tsx', ...(o.nodeArgs ?? []), 'src/sim/main.ts'],
    env: { SIM_PORT: '0', SIM_HOST: '127.0.0.1', ...o.env },
    ready: /simulator listening on (\S+)/,
  });
  return { sim: child, simUrl: match?.[1] ?? '' };
}

/** The load generator (bench/load.ts) in a process of its own, its fake Slack listening: the child, and that API's URL. */
export async function startLoadGenerator(): Promise<{ load: Child; apiUrl: string }> {
  const { child } = await Child.start('load generator', { args: ['--import', 'tsx', 'bench/load.ts'] });
  try {
    const { apiUrl } = await child.call<{ apiUrl: string }>('start');
    return { load: child, apiUrl };
  } catch (err) {
    await child.stop();
    throw err;
  }
}
