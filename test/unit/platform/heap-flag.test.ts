import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// The heap's growth is set on the command line (`npm start`, the image), never from code: after a burst V8 would
// otherwise keep an old generation ~4× the live heap (RSS ~250 MiB instead of ~165 MiB after 200 in flight).
const FLAG = '--heap-growing-percent=50';
const root = new URL('../../../', import.meta.url);

describe('the heap growth flag', () => {
  it('is what `npm start` and the image run the bot with', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('package.json', root), 'utf8')) as { scripts: { start: string } };
    expect(pkg.scripts.start).toBe(`node ${FLAG} dist/main.js`);
    expect(fs.readFileSync(new URL('Dockerfile', root), 'utf8')).toContain(`CMD ["node", "${FLAG}", "dist/main.js"]`);
  });

  it('is still a flag this Node accepts (a V8 that drops it makes node refuse to start: this fails first)', () => {
    const run = spawnSync(process.execPath, [FLAG, '-e', '0'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
