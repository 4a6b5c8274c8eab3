import { describe, expect, it } from 'vitest';
import { decodeSeen, diffPipelines, encodeSeen, nextPollOf } from '../../../src/watch/seen.js';

// What a poll makes of the newest pipelines against the statuses it remembers, and when a watch is polled next.

const p = (id: number, status: string, ref = 'main') => ({ id, status, ref, sha: `sha${id}` });

describe('the statuses a watch remembers', () => {
  it('round-trips the newest pipelines as `id:status`', () => {
    const seen = encodeSeen([p(12, 'running'), p(11, 'failed')]);
    expect(seen).toBe('12:running 11:failed');
    expect([...decodeSeen(seen)]).toEqual([
      [12, 'running'],
      [11, 'failed'],
    ]);
    expect(decodeSeen('').size).toBe(0);
  });
});

describe('a poll against what was remembered', () => {
  const before = '12:running 11:failed 10:success';

  it('finds nothing new when the page reads the same, without decoding anything', () => {
    const items = [p(12, 'running'), p(11, 'failed'), p(10, 'success')];
    const diff = diffPipelines({
      before: () => {
        throw new Error('decoded');
      },
      beforeText: before,
      items,
      floorId: 12,
      filter: 'failed',
    });
    expect(diff).toEqual({ changed: false, seen: before, finished: [], fixes: [] });
  });

  it('reports a pipeline that started before the last poll and failed after it, once', () => {
    const items = [p(12, 'failed'), p(11, 'failed'), p(10, 'success')];
    const diff = diffPipelines({
      before: decodeSeen(before),
      beforeText: before,
      items,
      floorId: 12,
      filter: 'failed',
    });
    expect(diff.finished.map((x) => x.id)).toEqual([12]);
    const again = diffPipelines({
      before: decodeSeen(diff.seen),
      beforeText: diff.seen,
      items,
      floorId: 12,
      filter: 'failed',
    });
    expect(again.changed).toBe(false);
  });

  it('reports new pipelines that started and finished between polls, oldest first; a success fixes its ref', () => {
    const items = [p(14, 'success'), p(13, 'failed', 'dev'), p(12, 'running'), p(11, 'failed'), p(10, 'success')];
    const diff = diffPipelines({
      before: decodeSeen(before),
      beforeText: before,
      items,
      floorId: 12,
      filter: 'failed',
    });
    expect(diff.finished.map((x) => x.id)).toEqual([13]);
    expect(diff.fixes).toEqual([{ ref: 'main', by: 14 }]);
    const all = diffPipelines({
      before: decodeSeen(before),
      beforeText: before,
      items,
      floorId: 12,
      filter: 'finished',
    });
    expect(all.finished.map((x) => x.id)).toEqual([13, 14]);
  });

  it('never reports what was there when the watch was made, nor pipelines still running', () => {
    const items = [p(13, 'pending'), p(9, 'failed')];
    const diff = diffPipelines({
      before: decodeSeen(before),
      beforeText: before,
      items,
      floorId: 12,
      filter: 'finished',
    });
    expect(diff).toMatchObject({ changed: true, finished: [], fixes: [], seen: '13:pending 9:failed' });
  });

  it('counts a failed pipeline retried into a success as its own fix', () => {
    const items = [p(12, 'running'), p(11, 'success'), p(10, 'success')];
    const diff = diffPipelines({
      before: decodeSeen(before),
      beforeText: before,
      items,
      floorId: 12,
      filter: 'failed',
    });
    expect(diff.fixes).toEqual([{ ref: 'main', by: 11 }]);
  });
});

describe('the next poll', () => {
  const due = new Date('2026-03-02T09:00:20Z');
  it('comes a minute after it was due, keeping its place in the minute', () => {
    expect(nextPollOf(due, new Date('2026-03-02T09:00:21Z'), 60_000)).toEqual(new Date('2026-03-02T09:01:20Z'));
  });
  it('skips the slots a late poll missed instead of crowding the next ones', () => {
    expect(nextPollOf(due, new Date('2026-03-02T09:02:30Z'), 60_000)).toEqual(new Date('2026-03-02T09:03:20Z'));
  });
  it('stays where it was for a poll that came early', () => {
    expect(nextPollOf(due, new Date('2026-03-02T09:00:05Z'), 60_000)).toEqual(due);
  });
});
