import { createKeyOperations } from '../operations/keys.js';
import { buildKeyCard } from '../views/keys.js';
import { cardContext } from './support.js';
import { noun } from './types.js';

const n = noun('key', (d) => createKeyOperations(d));

export const keys = n.define({
  commands: {
    async 'key.show'(cmd, ctx, s, ops) {
      const key = await ops.get(ctx, cmd.args.id);
      return { kind: 'message', message: buildKeyCard(key, await cardContext(ctx, s)), inChannel: cmd.share };
    },
  },
});
