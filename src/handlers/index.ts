import { accountCommands } from './account.js';
import type { ButtonHandlers, CommandHandlers } from './types.js';

export const commandHandlers: CommandHandlers = { ...accountCommands };

export const buttonHandlers: ButtonHandlers = {};
