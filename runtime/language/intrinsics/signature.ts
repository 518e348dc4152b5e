/**
 * An intrinsic call as parsed, and what every intrinsic function declares:
 * its parameters and their types, and what it returns. One check of an argument against its parameter serves both
 * times: parsing (a literal argument, or a call that returns another type, is
 * rejected at synth) and evaluation (a value from the input is
 * States.IntrinsicFailure).
 */
import { StatesError } from '../../contract/errors';
import type { Json } from '../../contract/ir';
import type { ParsedPath } from '../paths';

export type Arg =
  /** `raw`: a string literal as written, escapes included. */
  | { readonly lit: Json; readonly raw?: string }
  | { readonly path: ParsedPath; readonly text: string }
  | Call;

export interface Call {
  readonly call: string;
  readonly args: readonly Arg[];
  /** Where the call starts in the expression: one place of the text, which seeds its random values. */
  readonly at: number;
  /** States.Format's template split at its placeholders. */
  readonly parts?: readonly string[];
}

/** `integer`: a number, rounded to the nearest integer (as Step Functions documents for its integer arguments). */
export type ArgType = 'any' | 'array' | 'object' | 'string' | 'boolean' | 'number' | 'integer';

export interface Param {
  readonly name: string;
  readonly type: ArgType;
  /** A problem with an argument of the right type (after rounding), e.g. an unknown hash algorithm. */
  readonly check?: (value: Json) => string | undefined;
}

/** What a function sees besides its arguments. */
export interface Evaluation {
  readonly call: Call;
  /** 32 bytes that depend only on which evaluation this is (see intrinsics/random.ts). */
  readonly identity: () => Buffer;
}

export interface IntrinsicFunction {
  readonly params: readonly Param[];
  /** How many of the last params may be left out. */
  readonly optional?: number;
  /** The type of any further arguments, for functions that take any number. */
  readonly rest?: Param;
  readonly returns: ArgType;
  readonly run: (args: readonly Json[], e: Evaluation) => Json;
}

export const fail = (message: string): never => {
  throw new StatesError('States.IntrinsicFailure', message);
};

const A: Readonly<Record<ArgType, string>> = {
  any: 'any value',
  array: 'an array',
  object: 'an object',
  string: 'a string',
  boolean: 'a boolean',
  number: 'a number',
  integer: 'an integer',
};

/** A value as an error message shows it: its JSON, cut short. */
export function preview(v: Json): string {
  const json = JSON.stringify(v);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function ofType(type: ArgType, v: Json): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'array':
      return Array.isArray(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(Math.round(v));
    default:
      return typeof v === type;
  }
}

/** How a message names argument `k` (from 0) of `param`. */
export const argumentName = (param: Param, k: number): string => `argument ${k + 1} (${param.name})`;

/** Argument `k` as the function receives it (an integer rounded), or what is wrong with it. */
export function admit(param: Param, k: number, v: Json): { value: Json } | { problem: string } {
  if (!ofType(param.type, v)) return { problem: `${argumentName(param, k)} must be ${A[param.type]}, got ${preview(v)}` };
  const value = param.type === 'integer' ? Math.round(v as number) : v;
  const problem = param.check?.(value);
  return problem === undefined ? { value } : { problem: `${argumentName(param, k)} ${problem}, got ${preview(v)}` };
}

/** Can a call that returns `returns` give a value of type `type`? */
export function mayGive(returns: ArgType, type: ArgType): boolean {
  if (returns === 'any' || type === 'any' || returns === type) return true;
  return (returns === 'integer' && type === 'number') || (returns === 'number' && type === 'integer');
}

export const typeName = (type: ArgType): string => A[type];

/** The most characters Step Functions takes in States.Base64Encode, Base64Decode and Hash. */
export const MAX_CHARACTERS = 10_000;

export const atMost =
  (limit: number) =>
  (v: Json): string | undefined =>
    (v as string).length > limit ? `has ${(v as string).length} characters; at most ${limit.toLocaleString('en-US')} are allowed` : undefined;
