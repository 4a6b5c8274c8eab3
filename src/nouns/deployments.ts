import { projectLabel } from '../gitlab/project.js';
import { createDeploymentOperations } from '../operations/deployments.js';
import { buildDeploymentCard, buildDeploymentList } from '../views/deployments.js';
import { pageSize } from '../views/lists.js';
import { cardContext } from './support.js';
import { noun } from './types.js';

const deploymentNoun = noun('deployment', (deps) => createDeploymentOperations(deps));

export const deployments = deploymentNoun.define({
  lists: {
    async 'deployment.list'(command, ctx, platform, ops, place, notice) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const perPage = pageSize(command.flags.perPage);
      const result = await ops.list(ctx, project, {
        ...(command.flags.page ? { page: command.flags.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
      });
      return buildDeploymentList(result.items, project, result, {
        title: `Deployments in ${projectLabel(project)}`,
        place,
        ctx: await cardContext(ctx, platform, { notice }),
      });
    },
  },
  commands: {
    async 'deployment.show'(command, ctx, platform, ops) {
      const project = await platform.resolveProject(ctx, command.target.project);
      const deployment = await ops.get(ctx, project, command.target.id);
      return {
        kind: 'message',
        message: buildDeploymentCard(deployment, project, await cardContext(ctx, platform)),
        inChannel: command.share,
      };
    },
  },
});
