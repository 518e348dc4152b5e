/** The IR's JSON Schema check (schema/ir.schema.json), for the tests: the compiler's output must match the schema users read. */
import Ajv, { type ValidateFunction } from 'ajv';
import irSchema from '../../schema/ir.schema.json';

/** The outcome of `validateIr`. */
export interface IrValidationResult {
  readonly valid: boolean;
  /** One line per violation (`<instance path> <message>`); empty when valid. */
  readonly errors: readonly string[];
}

let validator: ValidateFunction | undefined;

/** Checks a value against `schema/ir.schema.json` (generated from runtime/contract/ir/ `NodeIR`). */
export function validateIr(ir: unknown): IrValidationResult {
  validator ??= new Ajv({ allErrors: true, allowUnionTypes: true }).compile(irSchema);
  const valid = validator(ir) as boolean;
  const errors = (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`);
  return { valid, errors };
}
