import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Probe of issue 28: the demo console never shows a typed token back. On d5eebc1 its echo masked only a few
// lower-case prefixes, so an unprefixed token (as older servers issue), an upper-case `GLPAT-…`, a runner
// registration token (`GR1348941…`) or a `glrtr-…` one was printed back as typed. The echo now masks every
// word the bot itself takes for a token.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function runDemo(script: string[]): { stdout: string; stderr: string; status: number | null } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-demo-tokens-'));
  const file = path.join(dir, 'script.txt');
  fs.writeFileSync(file, `${script.join('\n')}\n`);
  try {
    const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
    const r = spawnSync(tsx, ['src/console/main.ts', '--script', file], {
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

const TYPED = [
  'Zq8RmT2vKp4LwN7sYbX3aQ', // an unprefixed token
  'GLPAT-Zq8RmT2vKp4LwN7sYbX3',
  'GR1348941Zq8RmT2vKp4LwN7sYb',
  'glrtr-Zq8RmT2vKp4LwN7sYbX3',
  'ACME-glpat-Zq8RmT2vKp4LwN7sYbX3',
];

describe('the demo console', () => {
  it('never prints a typed token back, whatever its shape, where it is typed', () => {
    const r = runDemo([
      ...TYPED.map((t) => `/gl connect ${t}`),
      `/gl jobs demo/web --scope ${TYPED[0]}`,
      `post my token is ${TYPED[1]} sorry`,
      'connect',
      TYPED[2] as string,
      'quit',
    ]);
    expect(r.status).toBe(0);
    for (const token of TYPED) {
      expect(r.stdout).not.toContain(token);
      expect(r.stderr).not.toContain(token);
    }
    // The echo still shows which line was typed.
    expect(r.stdout).toContain('alice> /gl connect ********');
    expect(r.stdout).toContain('alice> /gl connect GLPAT-********');
  }, 130_000);
});
