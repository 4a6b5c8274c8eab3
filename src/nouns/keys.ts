import { createKeyOperations } from '../operations/keys.js';
import { buildKeyCard } from '../views/keys.js';
import { cardContext } from './support.js';
import { noun } from './types.js';

const keyNoun = noun('key', (deps) => createKeyOperations(deps));

export const keys = keyNoun.define({
  commands: {
    async 'key.show'(command, ctx, platform, ops) {
      const key = await ops.get(ctx, command.args.id);
      return {
        kind: 'message',
        message: buildKeyCard(key, await cardContext(ctx, platform)),
        inChannel: command.share,
      };
    },
  },
});
