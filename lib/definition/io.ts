import type { JsonPath, PayloadTemplate } from './types';

/** ASL-style input/output processing (see runtime/ir.ts `IoSpec`). */
export interface IoProps {
  /** Selects the input from the state input; `null` gives `{}`. @default '$' */
  readonly inputPath?: JsonPath | null;
  /** Builds the handler input from the selected input (keys ending in `.$` take paths). @default the selected input */
  readonly parameters?: PayloadTemplate;
  /** Builds the result from the raw result. @default the raw result */
  readonly resultSelector?: PayloadTemplate;
  /** Where the result goes in the state input; `null` discards it. @default '$' (the result replaces the input) */
  readonly resultPath?: JsonPath | null;
  /** Selects the output from the combined document; `null` gives `{}`. @default '$' */
  readonly outputPath?: JsonPath | null;
}

/** The io fields in a fixed order, so that compiled output is deterministic. */
export const IO_FIELDS = ['inputPath', 'parameters', 'resultSelector', 'resultPath', 'outputPath'] as const;
