import { describe, expect, it } from 'vitest';
import { afterParam, collectNew, eventKey, reachedCursor } from '../../../src/digest/cursor.js';
import type { Event } from '../../../src/gitlab/schemas.js';

// The cursor: the newest created_at posted and the keys of what was posted at that very instant.

function event(at: string, o: Partial<Event> = {}): Event {
  return {
    title: null,
    project_id: 1,
    action_name: 'opened',
    target_id: 10,
    target_iid: 3,
    target_type: 'Issue',
    author_id: 2,
    target_title: 'Checkout fails',
    created_at: at,
    ...o,
  };
}

const T1 = '2026-03-02T09:00:00.000Z';
const T2 = '2026-03-02T10:00:00.000Z';
const T3 = '2026-03-02T11:00:00.000Z';

describe('what a digest has not posted yet', () => {
  it('is what came after the cursor, oldest first, and the cursor moves to the newest', () => {
    const a = event(T2, { target_id: 11 });
    const b = event(T3, { target_id: 12 });
    const old = event(T1, { target_id: 13 });
    const { fresh, next } = collectNew([b, a, old], { at: T1, keys: [eventKey(old)] });
    expect(fresh).toEqual([a, b]);
    expect(next).toEqual({ at: T3, keys: [eventKey(b)] });
  });

  it('drops what was posted at the cursor’s instant and keeps what came at that instant later', () => {
    const posted = event(T2, { target_id: 11 });
    const sameInstant = event(T2, { target_id: 12, action_name: 'closed' });
    const { fresh, next } = collectNew([sameInstant, posted], { at: T2, keys: [eventKey(posted)] });
    expect(fresh).toEqual([sameInstant]);
    expect(next.at).toBe(T2);
    expect(next.keys.sort()).toEqual([eventKey(posted), eventKey(sameInstant)].sort());
  });

  it('counts identical events without ids: a second one at the same instant is new', () => {
    const push = event(T2, {
      action_name: 'pushed to',
      target_type: null,
      target_id: null,
      push_data: {
        commit_count: 1,
        action: 'pushed',
        ref_type: 'branch',
        commit_from: 'a',
        commit_to: 'b',
        ref: 'main',
        commit_title: 'x',
      },
    });
    const twice = [push, { ...push }];
    expect(collectNew(twice, { at: T2, keys: [eventKey(push)] }).fresh).toHaveLength(1);
    expect(collectNew(twice, { at: T2, keys: [eventKey(push), eventKey(push)] }).fresh).toHaveLength(0);
  });

  it('keys events the same with or without an id (a server upgraded in between reposts nothing)', () => {
    expect(eventKey(event(T2, { id: 77 }))).toBe(eventKey(event(T2)));
    expect(eventKey(event(T2, { target_title: 'Renamed' }))).toBe(eventKey(event(T2)));
    expect(eventKey(event(T2, { action_name: 'closed' }))).not.toBe(eventKey(event(T2)));
  });

  it('leaves the cursor as it was when nothing is new, and ignores events without a time', () => {
    const cursor = { at: T2, keys: ['k'] };
    const { fresh, next } = collectNew([event(T1), { ...event(T3), created_at: undefined }], cursor);
    expect(fresh).toEqual([]);
    expect(next).toBe(cursor);
  });
});

describe('reading from the cursor', () => {
  it('asks from two days before the cursor’s UTC day (`after` is a date, exclusive, in the server’s zone)', () => {
    expect(afterParam({ at: '2026-03-02T00:30:00.000Z', keys: [] })).toBe('2026-02-28');
  });

  it('stops paging at a page that reaches back past the cursor', () => {
    const cursor = { at: T2, keys: [] };
    expect(reachedCursor([event(T3), event(T2)], cursor)).toBe(false);
    expect(reachedCursor([event(T3), event(T1)], cursor)).toBe(true);
  });
});
