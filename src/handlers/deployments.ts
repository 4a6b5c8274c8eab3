import { buildDeploymentCard } from '../views/deployments.js';
import { cardContext, listReply } from './lists.js';
import type { CommandHandlers } from './types.js';

export const deploymentCommands: CommandHandlers = {
  'deployment.list': listReply,
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
