// `npm run bench`: every benchmark in turn, each in its own process so that none warms
// up or slows down another. Prints one JSON object: { <name>: <that benchmark's JSON> }.

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BENCHES = ['parser', 'fuzz', 'sim', 'bot', 'digests'] as const;

const results: Record<string, unknown> = {};
for (const name of BENCHES) {
  const script = path.join(import.meta.dirname, `${name}.ts`);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', script], {
    cwd: path.resolve(import.meta.dirname, '..'),
    maxBuffer: 16 * 1024 * 1024,
  });
  const last = stdout.trim().split('\n').at(-1) ?? '{}';
  results[name] = JSON.parse(last);
}
console.log(JSON.stringify(results, null, 2));
