/**
 * The entry point bundled into a callback Task's function (`WAIT_FOR_TASK_TOKEN`):
 * the usual handler plus the callback runtime, which other functions do not ship.
 */
import { completionOutput, handOutToken } from './callback';
import { nextAttempt, redriveAttempt } from './callback-retry';
import { createHandler, type HandlerOptions, type LambdaHandler } from '../entry/handler';
import { respondToTask } from './task-completion';

export const createCallbackHandler = (userModule: Record<string, unknown>, options: HandlerOptions = {}): LambdaHandler =>
  createHandler(userModule, { ...options, tasks: { handOutToken, completionOutput, respond: respondToTask, nextAttempt, redo: redriveAttempt } });
