import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../../src/heap.js';

describe('heap growth at start', () => {
  it('sets the bot’s own growth when node was started without one', () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps', '--heap-prof'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it('leaves an operator’s choice on the command line alone', () => {
    expect(heapGrowthFlag(['--heap-growing-percent=100'])).toBeNull();
    expect(heapGrowthFlag(['--expose-gc', '--heap-growing-percent', '20'])).toBeNull();
  });

  it('does not mistake a longer flag for it', () => {
    expect(heapGrowthFlag(['--heap-growing-percentage=5'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });
});
