import { createCaller } from './call.js';
import type { Transport } from './http.js';
import { encodeSegment } from './paths.js';
import { type UserBasic, UserBasicSchema } from './schemas.js';

export interface UsersApi {
  /** GET /user: the token's owner. */
  current(): Promise<UserBasic>;
  /** GET /users?username=…: the user, or null when there is none. */
  findByUsername(username: string): Promise<UserBasic | null>;
  /** GET /users/:id. */
  get(id: number): Promise<UserBasic>;
}

export function createUsersApi(transport: Transport, token: string): UsersApi {
  const call = createCaller(transport, token);
  return {
    current: () => call.get('user', UserBasicSchema),
    async findByUsername(username) {
      const page = await call.list('users', UserBasicSchema, { username });
      return page.items.find((user) => user.username.toLowerCase() === username.toLowerCase()) ?? null;
    },
    get: (id) => call.get(`users/${encodeSegment(id)}`, UserBasicSchema),
  };
}
