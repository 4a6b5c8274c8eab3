import { describe, expect, it } from 'vitest';
import { formatHumanDuration, parseHumanDuration } from '../../../src/sim/duration.js';

describe('parseHumanDuration', () => {
  it('reads GitLab durations with working-time units', () => {
    expect(parseHumanDuration('30m')).toBe(1_800);
    expect(parseHumanDuration('3h30m')).toBe(12_600);
    expect(parseHumanDuration('3h 30m')).toBe(12_600);
    expect(parseHumanDuration('1d')).toBe(8 * 3_600);
    expect(parseHumanDuration('1w')).toBe(5 * 8 * 3_600);
    expect(parseHumanDuration('1mo')).toBe(4 * 5 * 8 * 3_600);
    expect(parseHumanDuration('1mo 2w 3d 4h 30m')).toBe(576_000 + 288_000 + 86_400 + 14_400 + 1_800);
    expect(parseHumanDuration('2 hours 15 minutes')).toBe(8_100);
  });

  it('reads a bare number as hours and a leading minus as a subtraction', () => {
    expect(parseHumanDuration('2')).toBe(7_200);
    expect(parseHumanDuration('-1h')).toBe(-3_600);
  });

  it('answers null for what it cannot read', () => {
    for (const bad of ['', 'soon', '3x', '1h and then some', '-']) expect(parseHumanDuration(bad), bad).toBeNull();
  });
});

describe('formatHumanDuration', () => {
  it('writes the largest units first, separated by spaces', () => {
    expect(formatHumanDuration(12_600)).toBe('3h 30m');
    expect(formatHumanDuration(3_600)).toBe('1h');
    expect(formatHumanDuration(144_000 + 57_600 + 12_600)).toBe('1w 2d 3h 30m');
    expect(formatHumanDuration(576_000)).toBe('1mo');
    expect(formatHumanDuration(90)).toBe('1m 30s');
  });

  it('answers null for zero, as the API’s human_* fields do', () => {
    expect(formatHumanDuration(0)).toBeNull();
  });

  it('round-trips what it writes', () => {
    for (const seconds of [60, 3_600, 12_600, 230_400, 1_000_000]) {
      expect(parseHumanDuration(formatHumanDuration(seconds) ?? '')).toBe(seconds);
    }
  });
});
