import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { waitForPort } from './spawn-bot.js';

// The bot built once into a directory of its own (the same tsconfig.build.json as `npm run build`) and started
// as processes from it: faster to start than tsx, and another test file building dist/ cannot change it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

export async function buildBot(): Promise<{ dir: string; remove(): void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-build-'));
  await run(
    process.execPath,
    [
      path.join(root, 'node_modules/typescript/bin/tsc'),
      '-p',
      path.join(root, 'tsconfig.build.json'),
      '--outDir',
      dir,
      '--tsBuildInfoFile',
      path.join(dir, '.tsbuildinfo'),
    ],
    { cwd: root },
  );
  // The build resolves its packages and reads itself as ESM as dist/ does inside the repository.
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface BuiltBot {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built bot with `env` (on a port the system picks) and waits until /healthz answers 200. */
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
  for (let i = 0; ; i++) {
    const status = await fetch(`${url}/healthz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (i > 400 || child.exitCode !== null) throw new Error(`the bot did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, url, output: () => output, exited };
}
