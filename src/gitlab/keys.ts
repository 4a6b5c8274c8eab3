import { createCaller } from './call.js';
import type { Transport } from './http.js';
import { encodeSegment } from './paths.js';
import { type KeyWithUser, KeyWithUserSchema } from './schemas.js';

export interface KeysApi {
  /** GET /keys/:id, the key and its owner (admin only on real servers). */
  get(keyId: number): Promise<KeyWithUser>;
}

export function createKeysApi(transport: Transport, token: string): KeysApi {
  const call = createCaller(transport, token);
  return { get: (keyId) => call.get(`keys/${encodeSegment(keyId)}`, KeyWithUserSchema) };
}
