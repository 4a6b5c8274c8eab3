import type { Connection } from './store/token-store.js';

// Whether a person's stored connection can serve a request to this server, and if not, why. One judgement that
// the session, the commands, the nouns and the views share; it reads nothing and calls nothing.

export type ConnectionProblem = 'not_connected' | 'other_server' | 'token_revoked' | 'token_unreadable';

/** Why a stored connection cannot be used, or null when it can. */
export function connectionProblem(conn: Connection | null, serverUrl: string): ConnectionProblem | null {
  if (!conn) return 'not_connected';
  if (conn.serverUrl !== serverUrl) return 'other_server';
  if (conn.status === 'revoked') return 'token_revoked';
  if (conn.status === 'unreadable') return 'token_unreadable';
  return null;
}
