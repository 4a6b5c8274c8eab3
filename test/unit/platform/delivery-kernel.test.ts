import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The delivery kernel's boundaries (docs/delivery-kernel.md), checked so that the next change cannot slip: one lease
// protocol (the lease columns named by the schema and the kernel's store only), one search for a marked post, no
// kind reaching into another kind's folder for the kernel's pieces.

const src = path.resolve(import.meta.dirname, '../../../src');
const files = fs
  .readdirSync(src, { recursive: true })
  .map(String)
  .filter((f) => f.endsWith('.ts'));
const read = (f: string) => fs.readFileSync(path.join(src, f), 'utf8');

describe('the delivery kernel', () => {
  it('names the lease columns in two files: the schema and its own store', () => {
    const naming = files.filter((f) => /\blease_(owner|until|gen)\b/.test(read(f)));
    expect(naming.sort()).toEqual(['store/delivery-lease-store.ts', 'store/migrations.ts']);
  });

  it('searches a channel’s history for a marked post in one place', () => {
    const searching = files.filter((f) => /conversations\.(history|replies)\(/.test(read(f)));
    expect(searching).toEqual(['slack/web-api/delivery-slack.ts']);
  });

  it('runs every kind on its own loops and steps: a kind folder has no timer, lease renewal, fence or search of its own', () => {
    const onKernel = files.filter((f) => /^(alerts|digest|watch|follow)\//.test(f));
    const own = /setInterval\(|createTask\(|\.fence\(|findMarked\(|\.renew\(|releaseAll\(/;
    expect(onKernel.filter((f) => own.test(read(f)))).toEqual([]);
  });

  it('is not reached through another kind: alerts, watches and follows import nothing of digest/', () => {
    const kinds = files.filter((f) => /^(alerts|watch|follow)\/|^listeners\/(alert|watch|follow)-slack\.ts$/.test(f));
    expect(kinds.length).toBeGreaterThan(5);
    expect(kinds.filter((f) => /from '\.\.\/digest\//.test(read(f)))).toEqual([]);
  });
});
