/**
 * Node and workflow names become parts of Lambda function names and of IR
 * keys, so they are restricted to Lambda's function-name charset and length.
 * The construct may shorten `<stack>-<workflow>-<node>` with a hash, so each
 * part only has to fit on its own.
 */
export const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Why `name` is not a valid node or workflow name, or undefined if it is. */
export function nameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'the name is empty';
  if (name.length > 64) return `the name is ${name.length} characters long; at most 64 are allowed (Lambda function name limit)`;
  if (!NAME_PATTERN.test(name)) return `'${name}' contains characters outside [A-Za-z0-9_-] (Lambda function name charset)`;
  return undefined;
}

/**
 * Names of nodes the compiler adds. They contain a '.', which user names
 * cannot, so they never collide with a state name and are deterministic.
 */
export const implicitName = {
  /** The function that fans out a Parallel/Map that has no function before it. */
  origin: (state: string): string => `${state}.Origin`,
  /** The function that receives a Parallel/Map's outputs when the next state is not a plain function. */
  join: (state: string): string => `${state}.Join`,
  /** The function that evaluates a Choice / Succeed / Fail that is entered directly. */
  enter: (state: string): string => `${state}.Enter`,
  /** The entry of a workflow whose first state has predecessors (a loop target): the entry accepts no envelopes. */
  start: (state: string): string => `${state}.Start`,
};
