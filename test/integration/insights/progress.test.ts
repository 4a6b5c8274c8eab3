import { describe, expect, it } from 'vitest';
import { useBot } from '../../support/app-harness.js';

// A slow read: a note first, then the answer in its place. The bot's wait before the note is cut to 30 ms and each
// read of the server made to take 80 ms, so no test waits seconds.

const h = useBot({ history: true, workingNoteMs: 30 });

describe('a slow /gl insights', () => {
  it('shows a progress note, then removes it when the answer comes', async () => {
    h.sim.setFaults({ latencyMs: 80 });
    const it = await h.command('alice', 'insights demo/web --days 7');
    const note = await it.waitForMessage((text) => /Reading demo\/web’s deployments/.test(text));
    expect(note?.ephemeral).toBe(true);
    const answer = await it.waitForMessage((text) => /Insights · demo\/web/.test(text));
    expect(answer).not.toBeNull();
    expect(h.bot.fake.messages.get(note?.key as string)?.deleted).toBe(true);
  });

  it('removes the note and says why when the read fails, posting nothing else', async () => {
    h.sim.setFaults({ latencyMs: 80 });
    const it = await h.command('eve', 'insights demo/web --share');
    const refusal = await it.waitForMessage((text) => /You may not see the deployments/.test(text));
    expect(refusal?.ephemeral).toBe(true);
    const shown = it.messages().map((m) => m.text);
    expect(shown.some((t) => /Reading demo\/web/.test(t))).toBe(false);
    expect(it.records((r) => r.method === 'files.completeUploadExternal')).toEqual([]);
  });
});
