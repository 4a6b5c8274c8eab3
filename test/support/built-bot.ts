import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { bundleBot } from './bundle-bot.js';
import { waitForPort } from './spawn-bot.js';

// The bot built once per test run (test/support/build-global.ts) and started as processes from it: faster to
// start than tsx, and another test file building dist/ cannot change it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The bot's build: a directory with main.js, and node_modules and a package.json beside it. Inside a vitest run it
 * is the run's one shared build (removing it is left to the run); elsewhere it is built here into a directory of
 * its own, which `remove()` deletes.
 */
export async function buildBot(): Promise<{ dir: string; remove(): void }> {
  const shared = inject('botBuildDir');
  if (shared) return { dir: shared, remove: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-build-'));
  await bundleBot(root, dir);
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface BuiltBot {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built bot with `env` (on a port the system picks) and waits until /readyz answers 200. */
export async function startBuiltBot(buildDir: string, env: Record<string, string>): Promise<BuiltBot> {
  const child = spawn(process.execPath, [path.join(buildDir, 'main.js')], {
    cwd: buildDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: '0' },
  });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // PORT=0: the system picks a free port and the "bot started" line names it.
  const port = await waitForPort(
    () => output,
    () => child.exitCode !== null,
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await fetch(`${url}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the bot did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, url, output: () => output, exited };
}
