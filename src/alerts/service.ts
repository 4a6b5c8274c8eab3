import { createPolledDelivery, type PolledWiring, wiringOf } from '../delivery/polled.js';
import type { Logger } from '../log.js';
import type { AlertPoint, AlertService } from '../operations/alert-service.js';
import type { Actor, Session } from '../operations/context.js';
import type { FailureReader } from '../operations/failures.js';
import { createAlertStore } from '../store/alert-store.js';
import type { StoredToken, TokenStore } from '../store/token-store.js';
import { buildAlertsResumedDm } from '../views/alerts.js';
import { createAlertKind } from './kind.js';

// The one alert service of an app: todo alerts as a polled kind of the delivery kernel (kind.ts, on
// delivery/polled.ts). Every two seconds each replica takes batches of the people whose poll is due, oldest first,
// each under a lease, and polls them a few at a time through the same paced transport, token budgets and channel
// lanes as digests (shared by replicas in the database). Each person is due once a minute at an offset of their own
// (spread.ts), so the minute's polls are spread across it.

const MINUTE = 60_000;

export interface AlertServiceOptions extends PolledWiring {
  /** A person's session, from their token row when the batch read it already. */
  sessionOf: (actor: Actor, stored?: StoredToken | null) => Session;
  /** Reads the token rows of a claimed batch with one statement. */
  tokens: Pick<TokenStore, 'loadMany'>;
  /** Why a build failed, for a `build_failed` todo's DM. */
  failures?: FailureReader;
  serverUrl: string;
  logger: Logger;
  /** Polls under way at once (default 16). */
  concurrency?: number;
  /** People taken per claim (default 200). */
  batch?: number;
  /** The test seam: a named point of every delivery. */
  at?: (point: AlertPoint) => void;
  /** How often a replica looks for people due (default 2 s)… */
  tickMs?: number;
  /** …and the time between two polls of a person (default a minute). */
  pollIntervalMs?: number;
}

export function createAlertService(o: AlertServiceOptions): AlertService {
  const log = o.logger.child({ component: 'alerts' });
  const store = createAlertStore(o.engine);
  const intervalMs = o.pollIntervalMs ?? MINUTE;
  const delivery = createPolledDelivery({
    name: 'alert',
    table: 'alert_settings',
    kind: ({ access, steps }) =>
      createAlertKind({
        store,
        steps,
        access,
        sessionOf: o.sessionOf,
        tokens: o.tokens,
        serverUrl: o.serverUrl,
        logger: log,
        now: o.now,
        intervalMs,
        ...(o.at ? { at: o.at } : {}),
        ...(o.failures ? { failures: o.failures } : {}),
      }),
    ...wiringOf(o),
    logger: log,
    tickMs: o.tickMs ?? 2000,
    concurrency: o.concurrency ?? 16,
    batch: o.batch ?? 200,
    // A person's poll moves to their own offset in the minute, so a poll counts as behind only a whole minute late.
    behindMs: intervalMs,
    tokenPaused: {
      owners: async () => (await store.tokenPaused()).map((p) => ({ teamId: p.teamId, ownerId: p.userId })),
      resume: (p) => resumeOwner(p.teamId, p.ownerId, 'accepted'),
    },
  });
  const { steps } = delivery;

  /** Alerts a refused token paused poll again, and the person is told once (by whoever resumed them). */
  async function resumeOwner(teamId: string, userId: string, how: 'connected' | 'accepted' = 'connected') {
    const resumed = await store.resumeAfterToken(teamId, userId, o.now());
    if (resumed) await steps.dm(userId, buildAlertsResumedDm(how), 'resumed');
    return resumed;
  }

  async function pollDue() {
    const polled = await delivery.pass();
    return polled.map(({ claim, outcome }) => ({
      teamId: claim.setting.teamId,
      userId: claim.setting.userId,
      outcome,
    }));
  }

  return {
    get: (teamId, userId) => store.get(teamId, userId),
    enable: (input, seenTodoId) => store.enable(input, seenTodoId, o.now()),
    disable: (teamId, userId) => store.disable(teamId, userId, o.now()),
    resumeOwner,
    pollDue,
    async pollNow() {
      await store.makeDue(o.now());
      return pollDue();
    },
    async start() {
      delivery.start();
    },
    stop: () => delivery.stop(),
  };
}
