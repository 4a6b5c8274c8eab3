// The simulator as the benches run it (alerts, watches, digests, requests): a process of its own, so its CPU is
// not the bot's.

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** `env`: more of the simulator's variables (SIM_HISTORY for the insights bench). */
export function startSim(env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/sim/main.ts')], {
    cwd: root,
    env: { ...process.env, SIM_PORT: '0', SIM_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
  });
}

/** How many requests the simulator has served so far (its request log's last sequence number). */
export async function requestCount(simUrl: string): Promise<number> {
  const log = (await (await fetch(`${simUrl}/__sim/requests`)).json()) as { seq: number }[];
  return log.at(-1)?.seq ?? 0;
}

/** BENCH_RATE_LIMIT=n: the simulator answers with GitLab's RateLimit-* headers (n calls per user per minute). */
export async function applyRateLimit(simUrl: string, perMinute: number): Promise<void> {
  if (perMinute <= 0) return;
  const res = await fetch(`${simUrl}/__sim/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rateLimit: perMinute }),
  });
  if (!res.ok) throw new Error(`the simulator refused the rate limit (${res.status})`);
}

/**
 * One token of their own for each of a bench's people, authenticating as `username` on the simulator: the bot then
 * opens, registers and meters as many tokens as it polls people, as it would on a real server.
 */
export async function addTokens(simUrl: string, username: string, tokens: readonly string[]): Promise<void> {
  const res = await fetch(`${simUrl}/__sim/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, tokens }),
  });
  if (!res.ok) throw new Error(`the simulator refused the tokens (${res.status})`);
}
