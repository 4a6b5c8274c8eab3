import { describe, expect, it, vi } from 'vitest';
import { useBot } from '../../support/app-harness.js';
import { PEOPLE } from '../../support/start-app.js';

// A minute's polls read the token rows of the claimed watches' creators together: one read per batch and team,
// however many creators and watches, instead of one row per creator (each person's session is then given its row).

const h = useBot({ watches: { timer: 'manual', channelIntervalMs: 0 } });

describe('the token rows of a watch batch', () => {
  it('are read at once for every creator, and each poll still reads with its own creator token', async () => {
    await h.ask('alice', 'watch pipelines demo/web', /Watch #\d+/, { channel: 'C0WTOK1' });
    await h.ask('bob', 'watch pipelines demo/web', /Watch #\d+/, { channel: 'C0WTOK2' });
    await h.ask('alice', 'watch pipelines demo/web --ref main', /Watch #\d+/, { channel: 'C0WTOK3' });
    const loadMany = vi.spyOn(h.bot.tokens, 'loadMany');
    const load = vi.spyOn(h.bot.tokens, 'load');
    try {
      h.clock.advance(61_000);
      const from = h.calls().length;
      expect((await h.bot.bot.watches.poll()).polled).toBe(3);
      expect(loadMany).toHaveBeenCalledTimes(1);
      expect(new Set(loadMany.mock.calls[0]?.[1])).toEqual(new Set([PEOPLE.alice.id, PEOPLE.bob.id]));
      expect(load).not.toHaveBeenCalled();
      const whose = h
        .calls(from)
        .filter((c) => c.path === '/api/v4/projects/1/pipelines')
        .map((c) => c.user);
      expect(whose.sort()).toEqual(['alice', 'alice', 'bob']);
    } finally {
      loadMany.mockRestore();
      load.mockRestore();
    }
  });
});
