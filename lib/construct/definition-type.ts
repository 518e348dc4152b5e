import type { compileWorkflow } from '../compiler';

/** Whatever lib/compiler accepts as a workflow definition (the first state of a chain). */
export type WorkflowDefinition = Parameters<typeof compileWorkflow>[1];
