// workflow.ts: the task's input and output types are those of its handler.
import * as path from 'node:path';
import { Task, type InputOf, type OutputOf } from 'unum-cdk';
import type * as handlers from './handlers';

const entry = path.join(__dirname, 'handlers.ts');
export const resize = new Task<InputOf<typeof handlers.resize>, OutputOf<typeof handlers.resize>>('Resize', { entry, handler: 'resize' });
