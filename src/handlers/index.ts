import { accountButtons, accountCommands } from './account.js';
import { deploymentCommands } from './deployments.js';
import { jobButtons, jobCommands } from './jobs.js';
import { listButtons } from './lists.js';
import { pipelineButtons, pipelineCommands } from './pipelines.js';
import { scheduleButtons, scheduleCommands } from './schedules.js';
import type { ButtonHandlers, CommandHandlers } from './types.js';

export const commandHandlers: CommandHandlers = {
  ...accountCommands,
  ...jobCommands,
  ...pipelineCommands,
  ...scheduleCommands,
  ...deploymentCommands,
};

export const buttonHandlers: ButtonHandlers = {
  ...accountButtons,
  ...listButtons,
  ...jobButtons,
  ...pipelineButtons,
  ...scheduleButtons,
};
