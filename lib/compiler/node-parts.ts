import type { CatchRule, HandlerSpec, Instruction, Invoke, IoSpec, RetryRule, WaitSpec } from '../../runtime/contract/ir';
import type { FunctionState, RetryProps, Wait } from '../definition';
import { IO_FIELDS, type IoProps } from '../definition/io';
import type { FunctionSpec } from './compiled';
import { DEFAULT_EXPORT, MEMORY_MB, TIMEOUT_SECONDS } from './function-settings';

/** Lambda settings of nodes without user code (Pass and implicit nodes). */
export const PASS_FUNCTION: FunctionSpec = { memorySize: MEMORY_MB.default, timeoutSeconds: TIMEOUT_SECONDS.default, environment: {} };

/** The function settings of a Task or Fold, with defaults applied. */
export function functionSpec(state: FunctionState): FunctionSpec {
  const p = state.functionProps;
  return {
    entry: p.entry,
    exportName: exportOf(state),
    memorySize: p.memorySize ?? MEMORY_MB.default,
    timeoutSeconds: p.timeoutSeconds ?? TIMEOUT_SECONDS.default,
    environment: sortedRecord(p.environment ?? {}),
    ...(p.retryAttempts === undefined ? {} : { retryAttempts: p.retryAttempts }),
    ...(p.maxEventAgeSeconds === undefined ? {} : { maxEventAgeSeconds: p.maxEventAgeSeconds }),
    ...(p.effects?.tables?.length ? { effectsTables: p.effects.tables } : {}),
  };
}

/** The export a Task or Fold runs. */
export function exportOf(state: FunctionState): string {
  return state.functionProps.handler ?? DEFAULT_EXPORT;
}

export function userHandler(state: FunctionState): HandlerSpec {
  return { kind: 'user', export: exportOf(state) };
}

/**
 * Only the given JSONPath fields of `io` that are set, in a fixed order, or a
 * JSONata state's `arguments` and `outputs` (validate-jsonata.ts allows those
 * only where all of `io` is taken); undefined if none is. JSONPath, the
 * default, is left implicit, so a state's IR (and the deployment id) is the
 * same whether or not its definition names it.
 */
export function ioSpec(io: IoProps, fields: readonly (typeof IO_FIELDS)[number][] = IO_FIELDS): IoSpec | undefined {
  if (io.queryLanguage === 'JSONata') {
    return { queryLanguage: 'JSONata', ...(io.arguments !== undefined ? { arguments: io.arguments } : {}), ...(io.outputs !== undefined ? { outputs: io.outputs } : {}) };
  }
  const out: Record<string, unknown> = {};
  for (const field of fields) if (io[field] !== undefined) out[field] = io[field];
  return Object.keys(out).length > 0 ? (out as IoSpec) : undefined;
}

export function retryRule(r: RetryProps): RetryRule {
  return {
    errors: [...(r.errors ?? ['States.ALL'])],
    maxAttempts: r.maxAttempts ?? 3,
    intervalSeconds: r.intervalSeconds ?? 1,
    backoffRate: r.backoffRate ?? 2,
    ...(r.maxDelaySeconds !== undefined ? { maxDelaySeconds: r.maxDelaySeconds } : {}),
    jitter: r.jitter ?? 'NONE',
  };
}

export function catchRule(errors: readonly string[] | undefined, next: string, resultPath: string | null | undefined): CatchRule {
  return { errors: [...(errors ?? ['States.ALL'])], next, ...(resultPath !== undefined ? { resultPath } : {}) };
}

/** Every node the instructions may invoke, plus catch handlers; sorted and unique. */
export function successorsOf(node: string, instructions: readonly Instruction[], catches: readonly CatchRule[], selfInvoking: boolean): string[] {
  const out = new Set<string>(catches.map((c) => c.next));
  if (selfInvoking) out.add(node);
  for (const inv of invokesOf(instructions)) {
    if (inv.kind === 'parallel') inv.targets.forEach((t) => out.add(t));
    else out.add(inv.target);
    // An empty map's origin invokes the join directly with [].
    if (inv.kind === 'map') out.add(inv.join);
    // A bounded Map's tail launches the next item.
    if (inv.kind === 'fanIn' && inv.launch) out.add(inv.launch.target);
  }
  return [...out].sort();
}

/** The nodes these instructions invoke after a Wait. */
export function waitTargetsOf(instructions: readonly Instruction[]): string[] {
  return [...new Set(invokesOf(instructions).flatMap((inv) => (inv.kind === 'scalar' && inv.wait ? [inv.target] : [])))].sort();
}

/** Every invoke on any path through the instructions (Choice rules included). */
function invokesOf(instructions: readonly Instruction[]): Invoke[] {
  const out: Invoke[] = [];
  const stack: Instruction[] = [...instructions];
  while (stack.length > 0) {
    const ins = stack.pop() as Instruction;
    if (ins.op === 'choice') {
      for (const rule of ins.rules) stack.push(...rule.then);
      if (ins.otherwise) stack.push(...ins.otherwise);
    } else if (ins.op === 'invoke') out.push(ins.invoke);
  }
  return out;
}

function sortedRecord(record: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key];
  return out;
}

/** What the node before a Wait needs to know when it ends (validated: exactly one time). */
export function waitSpec(wait: Wait, state: string): WaitSpec {
  const { inputPath } = wait.props;
  return { state, ...(inputPath !== undefined ? { inputPath } : {}), ...wait.props.time.spec };
}
