import type { LoadedTokens, TokenStore } from './token-store.js';

/**
 * The token rows of a batch of people (a poll's claimed batch), one read per team. A team whose read fails is left
 * out (`onError` is told): each of its people's sessions reads its own row instead.
 */
export async function readTokensByTeam(
  tokens: Pick<TokenStore, 'loadMany'>,
  people: Iterable<{ teamId: string; userId: string }>,
  onError: (err: unknown) => void,
): Promise<Map<string, LoadedTokens>> {
  const byTeam = new Map<string, Set<string>>();
  for (const { teamId, userId } of people) {
    const users = byTeam.get(teamId);
    if (users) users.add(userId);
    else byTeam.set(teamId, new Set([userId]));
  }
  const out = new Map<string, LoadedTokens>();
  for (const [teamId, userIds] of byTeam) {
    try {
      out.set(teamId, await tokens.loadMany(teamId, [...userIds]));
    } catch (err) {
      onError(err);
    }
  }
  return out;
}
