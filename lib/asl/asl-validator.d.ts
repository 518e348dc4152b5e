/** Types of the asl-validator package (it ships none): `validator(definition, options)`. */
declare module 'asl-validator' {
  interface ValidatorOptions {
    /** Check JSONPath syntax of path fields. @default true */
    readonly checkPaths?: boolean;
    /** Check that `Resource` is an ARN (or a `${...}` placeholder). @default true */
    readonly checkArn?: boolean;
  }
  interface ValidatorFinding {
    readonly 'Error code': string;
    readonly Message: string;
    readonly schemaError?: { readonly instancePath: string; readonly schemaPath: string };
  }
  /** Note: it writes a default `QueryLanguage` into every state of `definition`. */
  function validator(definition: unknown, options?: ValidatorOptions): { isValid: boolean; errors: ValidatorFinding[] };
  export = validator;
}
