import { describe, expect, it } from 'vitest';
import { nextSpreadPoll, offsetOf } from '../../../src/alerts/spread.js';

const MINUTE = 60_000;
const t = (iso: string) => new Date(iso);

describe('where a poll falls in the minute', () => {
  it('gives each key a stable offset, and spreads many keys across the minute', () => {
    expect(offsetOf('T1:U1', MINUTE)).toBe(offsetOf('T1:U1', MINUTE));
    const seconds = new Set(Array.from({ length: 600 }, (_, i) => Math.floor(offsetOf(`T1:U${i}`, MINUTE) / 1000)));
    // 600 keys over 60 one-second slots: nearly every second of the minute has some.
    expect(seconds.size).toBeGreaterThan(55);
  });

  it('polls again an interval later when on time, in the key’s slot', () => {
    const offset = offsetOf('T1:U1', MINUTE);
    const due = new Date(Date.UTC(2026, 2, 2, 9, 0, 0) + offset);
    const next = nextSpreadPoll('T1:U1', due, new Date(due.getTime() + 1500), MINUTE);
    expect(next.getTime() - due.getTime()).toBe(MINUTE);
  });

  it('skips the slots a late poll missed, and never polls twice within half an interval of its due time', () => {
    const offset = offsetOf('T1:U1', MINUTE);
    const due = new Date(Date.UTC(2026, 2, 2, 9, 0, 0) + offset);
    const late = new Date(due.getTime() + 3 * MINUTE + 10_000);
    const next = nextSpreadPoll('T1:U1', due, late, MINUTE);
    expect(next.getTime()).toBe(due.getTime() + 4 * MINUTE);
    // Due at some other moment (just turned on): its slot, at least half a minute on, at most a minute and a half.
    const on = t('2026-03-02T09:00:00.000Z');
    const first = nextSpreadPoll('T1:U1', on, on, MINUTE);
    expect(first.getTime() - on.getTime()).toBeGreaterThan(MINUTE / 2);
    expect(first.getTime() - on.getTime()).toBeLessThanOrEqual(MINUTE * 1.5);
    expect((first.getTime() - offset) % MINUTE).toBe(0);
  });
});
