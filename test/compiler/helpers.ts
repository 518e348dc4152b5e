import type { Instruction, NodeIR } from '../../runtime/contract/ir';
import { compileWorkflow, type CompiledWorkflow, type CompileOptions } from '../../lib/compiler';
import { validateIr } from '../support/ir-schema';
import { Task, type Definition, type IChainable, type TaskProps, type Untyped } from '../../lib/definition';

/** An absolute entry path; the compiler never reads it. */
export const ENTRY = '/project/handlers.ts';

export function task<I = Untyped, O = Untyped>(name: string, props: Partial<TaskProps<O>> = {}): Task<I, O> {
  return new Task<I, O>(name, { entry: ENTRY, handler: name.toLowerCase(), ...props });
}

/** Compiles and checks that every IR validates against the JSON schema (the round trip every test gets). */
export function compile(definition: IChainable | Definition, options?: CompileOptions, workflow = 'W'): CompiledWorkflow {
  const compiled = compileWorkflow(workflow, definition, options);
  for (const node of Object.values(compiled.nodes)) {
    const result = validateIr(JSON.parse(JSON.stringify(node.ir)));
    if (!result.valid) throw new Error(`IR of ${node.ir.node} does not match the schema: ${result.errors.join('; ')}`);
  }
  return compiled;
}

export function ir(compiled: CompiledWorkflow, node: string): NodeIR {
  const found = compiled.nodes[node];
  if (!found) throw new Error(`no node '${node}' in ${Object.keys(compiled.nodes).join(', ')}`);
  return found.ir;
}

export function instructions(compiled: CompiledWorkflow, node: string): readonly Instruction[] {
  return ir(compiled, node).instructions;
}

export const scalar = (target: string): Instruction => ({ op: 'invoke', invoke: { kind: 'scalar', target } });
export const fanIn = (target: string, size: number | 'frame', tail: number): Instruction => ({ op: 'invoke', invoke: { kind: 'fanIn', target, size, tail } });
export const SUCCEED: Instruction = { op: 'succeed' };
export const INCR: Instruction = { op: 'incrIteration' };

/** Expects `fn` to throw an UnumDefinitionError with exactly this message. */
export function expectDefinitionError(fn: () => unknown, message: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(Error);
  expect((thrown as Error).name).toBe('UnumDefinitionError');
  expect((thrown as Error).message).toBe(message);
}
