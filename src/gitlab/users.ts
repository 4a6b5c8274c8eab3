import { createCaller } from './call.js';
import type { Transport } from './http.js';
import { type UserBasic, UserBasicSchema } from './schemas.js';

export interface UsersApi {
  /** GET /users?username=…: the user, or null when there is none. */
  findByUsername(username: string): Promise<UserBasic | null>;
}

export function createUsersApi(transport: Transport, token: string): UsersApi {
  const call = createCaller(transport, token);
  return {
    async findByUsername(username) {
      const page = await call.list('users', UserBasicSchema, { username });
      return page.items.find((user) => user.username.toLowerCase() === username.toLowerCase()) ?? null;
    },
  };
}
