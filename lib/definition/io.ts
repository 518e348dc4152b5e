import type { IoSpec } from '../../runtime/contract/ir';

/** ASL-style input/output processing of a state: the IR's `IoSpec`, defined once. */
export type IoProps = IoSpec;

/** The io fields in a fixed order, so that compiled output is deterministic. */
export const IO_FIELDS = ['inputPath', 'parameters', 'resultSelector', 'resultPath', 'outputPath'] as const;
