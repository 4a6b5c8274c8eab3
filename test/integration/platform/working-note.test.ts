import { describe, expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';

// Issue 47: with the server slow, a command showed nothing until its answer (15 s, then "did not answer in time").
// The note comes after `workingNoteMs` (2 s in Slack; 30 ms here, with each read taking 80 ms) and the answer takes
// its place through the same response_url.

const h = useBot({ workingNoteMs: 30 });

describe('a slow answer', () => {
  it('shows "working on it…" first, then the answer in its place', async () => {
    h.sim.setFaults({ latencyMs: 80 });
    const it = await h.command('alice', 'jobs demo/web --scope failed');
    const note = await it.waitForMessage((text) => /Working on it/.test(text));
    expect(note?.ephemeral).toBe(true);
    const answer = await it.waitForMessage((text) => /Jobs in demo\/web/.test(text));
    h.sim.setFaults({});
    // The same message, redrawn: no note is left behind.
    expect(answer?.key).toBe(note?.key);
    expect(it.messages().some((m) => /Working on it/.test(m.text ?? '') && !m.deleted)).toBe(false);
  });

  it('takes the note away when the command fails, leaving only the reason', async () => {
    h.sim.setFaults({ latencyMs: 80 });
    const it = await h.command('eve', 'pipeline run demo/web main');
    const refused = await it.waitForMessage((text) => /may not run pipelines/.test(text));
    h.sim.setFaults({});
    expect(refused).not.toBeNull();
    const left = it.messages().filter((m) => !m.deleted && /Working on it/.test(m.text ?? ''));
    expect(left).toEqual([]);
  });
});
