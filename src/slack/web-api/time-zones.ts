import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../log.js';

const TTL_MS = 60 * 60 * 1000;
/** One entry per person asked about; the oldest go first. */
const MAX_PEOPLE = 10_000;

/** People's time zones from their Slack profiles, cached for an hour; UTC when Slack cannot tell. */
export function createTimeZoneLookup(client: WebClient, logger: Logger): (userId: string) => Promise<string> {
  const cache = new Map<string, { tz: string; at: number }>();
  return async (userId) => {
    const hit = cache.get(userId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit.tz;
    try {
      const res = await client.users.info({ user: userId });
      const tz = res.user?.tz;
      const zone = typeof tz === 'string' && tz ? tz : 'UTC';
      cache.delete(userId);
      cache.set(userId, { tz: zone, at: Date.now() });
      if (cache.size > MAX_PEOPLE) cache.delete(cache.keys().next().value as string);
      return zone;
    } catch (err) {
      logger.warn('could not read a time zone from Slack; using UTC', {
        user: userId,
        error: err instanceof Error ? err : String(err),
      });
      return 'UTC';
    }
  };
}
