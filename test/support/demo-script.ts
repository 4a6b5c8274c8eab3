import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { entryArgs } from './built-entry.js';

// `npm run demo -- --script FILE` as a person runs it: the console in its own process, the lines from a file. The
// console runs from the test run's build, or with `from: 'sources'` through tsx as `npm run demo` runs it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function runDemoScript(
  script: string[],
  o: { from?: 'build' | 'sources' } = {},
): { stdout: string; stderr: string; status: number | null } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-demo-script-'));
  const file = path.join(dir, 'script.txt');
  fs.writeFileSync(file, `${script.join('\n')}\n`);
  try {
    const [command, args] =
      o.from === 'sources'
        ? [path.join(root, 'node_modules', '.bin', 'tsx'), ['src/console/main.ts']]
        : [process.execPath, entryArgs('console/main')];
    const r = spawnSync(command, [...args, '--script', file], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    });
    return { stdout: r.stdout, stderr: r.stderr, status: r.status };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
