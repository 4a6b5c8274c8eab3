import { projectLabel } from '../gitlab/project.js';
import { createDeploymentOperations } from '../operations/deployments.js';
import { buildDeploymentCard, buildDeploymentList } from '../views/deployments.js';
import { pageSize } from '../views/lists.js';
import { cardContext } from './support.js';
import { noun } from './types.js';

const n = noun('deployment', (d) => createDeploymentOperations(d));

export const deployments = n.define({
  lists: {
    async 'deployment.list'(cmd, ctx, s, ops, place, notice) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const perPage = pageSize(cmd.flags.perPage);
      const result = await ops.list(ctx, project, {
        ...(cmd.flags.page ? { page: cmd.flags.page } : {}),
        ...(perPage ? { per_page: perPage } : {}),
      });
      return buildDeploymentList(result.items, project, result, {
        title: `Deployments in ${projectLabel(project)}`,
        place,
        ctx: await cardContext(ctx, s, { notice }),
      });
    },
  },
  commands: {
    async 'deployment.show'(cmd, ctx, s, ops) {
      const project = await s.resolveProject(ctx, cmd.target.project);
      const deployment = await ops.get(ctx, project, cmd.target.id);
      return {
        kind: 'message',
        message: buildDeploymentCard(deployment, project, await cardContext(ctx, s)),
        inChannel: cmd.share,
      };
    },
  },
});
