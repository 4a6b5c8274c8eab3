import type { Connection } from '../store/token-store.js';

export type ConnectionProblem = 'not_connected' | 'other_server' | 'token_revoked';

/** Why a stored connection cannot be used, or null when it can. */
export function connectionProblem(conn: Connection | null, serverUrl: string): ConnectionProblem | null {
  if (!conn) return 'not_connected';
  if (conn.serverUrl !== serverUrl) return 'other_server';
  if (conn.status === 'revoked') return 'token_revoked';
  return null;
}
