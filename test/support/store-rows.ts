import type { NewFollow } from '../../src/store/follow-store.js';
import type { NewWatch } from '../../src/store/watch-store.js';

/**
 * A follow of pipeline 57 of demo/web by U1 in C1, as the store tests make one: created at `t0`, polled first 5 s
 * later, its response_url good for 30 minutes and the follow for an hour; `o` sets what a test is about.
 */
export function aFollow(t0: Date, o: Partial<NewFollow> = {}): NewFollow {
  const at = (s: number) => new Date(t0.getTime() + s * 1000);
  return {
    teamId: 'T1',
    userId: 'U1',
    kind: 'pipeline',
    projectKey: 'demo/web',
    projectPath: 'demo/web',
    targetId: 57,
    ref: 'main',
    channelId: 'C1',
    card: null,
    sealedResponseUrl: null,
    usesLeft: 4,
    urlUntil: at(1800),
    drawn: '{"s":"pending"}',
    nextPollAt: at(5),
    deadline: at(3600),
    createdAt: t0,
    ...o,
  };
}

/** A watch of demo/web's failed pipelines by U1 into C1, as the store tests make one, nothing seen yet; `o` sets the rest. */
export function aWatch(nextPollAt: Date, o: Partial<NewWatch> = {}): NewWatch {
  return {
    teamId: 'T1',
    channelId: 'C1',
    creatorId: 'U1',
    project: { id: 1, path: 'demo/web' },
    ref: null,
    statusFilter: 'failed',
    seen: '',
    floorId: 0,
    nextPollAt,
    ...o,
  };
}
