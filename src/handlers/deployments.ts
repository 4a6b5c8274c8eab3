import { buildDeploymentCard } from '../views/deployments.js';
import { cardContext, listContext, renderList } from './lists.js';
import type { CommandHandlers } from './types.js';

export const deploymentCommands: CommandHandlers = {
  async 'deployment.list'(cmd, ctx, s) {
    const message = await renderList(cmd, ctx, s, listContext(ctx.text, cmd.flags.page));
    return { kind: 'message', message, inChannel: cmd.share };
  },
  async 'deployment.show'(cmd, ctx, s) {
    const project = await s.resolveProject(ctx, cmd.target.project);
    const deployment = await s.deployments.get(ctx, project, cmd.target.id);
    return {
      kind: 'message',
      message: buildDeploymentCard(deployment, project, cardContext(ctx, s)),
      inChannel: cmd.share,
    };
  },
};
