/** JSON values, paths and payload templates as the IR carries them, and a node's input/output processing. */

/** Bump on any incompatible change; the runtime rejects IR of another version. 2 added `deployment` and qualified `functionNames`. */
export const IR_VERSION = 2 as const;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A JSONPath as Step Functions reads it (grammar in runtime/language/paths.ts). Per
 * field: a reference path (`resultPath`, `itemsPath`, condition paths) has
 * names and non-negative indexes only (`$`, `$.a.b`, `$.a[0]`, `$['a b']`);
 * `inputPath` and `outputPath` may also use `*`, slices (`[1:]`), negative
 * indexes, filters (`[?(@.x > 1)]`) and `..`, selecting an array; template
 * values may also read the context object (`$$.Execution.Id`).
 */
export type JsonPath = string;

/**
 * A payload template as in ASL `Parameters` / `ResultSelector` / `ItemSelector`:
 * plain JSON, where a key ending in `.$` takes its value from a path
 * (`"x.$": "$.a"`), a context path (`"$$.Map.Item.Value"`) or an intrinsic
 * function call (`"States.Format('{}', $.a)"`), parsed by the runtime (never evaluated as code).
 */
export type PayloadTemplate = Json;

/**
 * ASL-style input/output processing applied around a node's handler (the
 * DSL's `IoProps`), in one of Step Functions' two query languages: JSONPath
 * (the five path fields, the default) or JSONata (`queryLanguage: 'JSONata'`
 * with `arguments` and `outputs`, whose strings `{% <expression> %}` are
 * JSONata expressions over `$states`; runtime/language/jsonata.ts). A state
 * has the fields of its language only (the compiler checks).
 */
export interface IoSpec {
  /** Step Functions' query language of the state (ASL `QueryLanguage`). @default 'JSONPath' */
  readonly queryLanguage?: 'JSONPath' | 'JSONata';
  /** JSONata: the handler's input (a Pass state has none). `{% %}` strings are evaluated over `$states.input` and `$states.context`. @default the state input */
  readonly arguments?: Json;
  /** JSONata: the state output (ASL `Output`; aws-cdk-lib's `outputs`); `{% %}` strings also see `$states.result`. @default the result (a Pass state's: its input) */
  readonly outputs?: Json;
  /** Selects the handler's input from the node input; `null` gives `{}`. @default '$' */
  readonly inputPath?: JsonPath | null;
  /** Builds the handler's input from the selected input (keys ending in `.$` take paths). @default the selected input */
  readonly parameters?: PayloadTemplate;
  /** Builds the result from the handler's raw result. @default the raw result */
  readonly resultSelector?: PayloadTemplate;
  /** Where the result goes in the node input; `null` discards it and keeps the input. @default '$' (the result replaces the input) */
  readonly resultPath?: JsonPath | null;
  /** Selects the node output from the combined document; `null` gives `{}`. @default '$' */
  readonly outputPath?: JsonPath | null;
}
