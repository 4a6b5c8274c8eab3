import type { KeyWithUser } from '../gitlab/schemas.js';
import type { GitlabAccess } from './access.js';
import type { RequestContext } from './context.js';
import { refusing } from './subject.js';

export function createKeyOperations(deps: { access: GitlabAccess }) {
  return {
    /** An SSH key and its owner: administrators only (403 for anyone else), 404 when there is no such key. */
    get(ctx: RequestContext, id: number): Promise<KeyWithUser> {
      return refusing(
        'read',
        { kind: 'key', id },
        { 403: 'admin_only', 404: 'no_key' },
        deps.access.withClient(ctx, (c) => c.keys.get(id)),
      );
    },
  };
}

export type KeyOperations = ReturnType<typeof createKeyOperations>;
