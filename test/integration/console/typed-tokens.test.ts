import { describe, expect, it } from 'vitest';
import { runDemoScript as runDemo } from '../../support/demo-script.js';

// Probe of issue 28: the demo console never shows a typed token back. On d5eebc1 its echo masked only a few
// lower-case prefixes, so an unprefixed token (as older servers issue), an upper-case `GLPAT-…`, a runner
// registration token (`GR1348941…`) or a `glrtr-…` one was printed back as typed. The echo now masks every
// word the bot itself takes for a token.

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
