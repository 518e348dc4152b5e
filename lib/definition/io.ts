import type { IoSpec } from '../../runtime/contract/ir';

/** ASL-style input/output processing of a state: the IR's `IoSpec`, defined once. */
export type IoProps = IoSpec;

/** The io fields in a fixed order, so that compiled output is deterministic. */
export const IO_FIELDS = ['inputPath', 'parameters', 'resultSelector', 'resultPath', 'outputPath'] as const;

/** Step Functions' query languages, as aws-cdk-lib's `QueryLanguage` names them. */
export enum QueryLanguage {
  /** InputPath, Parameters, ResultSelector, ResultPath, OutputPath: the default. */
  JSONPATH = 'JSONPath',
  /** `arguments` and `outputs`, whose `{% %}` strings are JSONata expressions over `$states` (Pass and Task states). */
  JSONATA = 'JSONata',
}

/** A JSONata state's props: its JSONPath fields are not there to give. */
export type JsonataProps<P extends IoProps> = Omit<P, 'queryLanguage' | 'inputPath' | 'parameters' | 'resultSelector' | 'resultPath' | 'outputPath'>;
