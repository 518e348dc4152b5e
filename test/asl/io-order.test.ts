/**
 * Input/output processing of imported states, run through the runtime's own
 * io functions (runtime/language/io.ts) on the IR the importer produces, checked
 * against the examples of the Amazon States Language specification
 * ("Input and Output Processing", "Payload Template") and the Step Functions
 * developer guide. Order: InputPath -> Parameters -> handler ->
 * ResultSelector -> ResultPath -> OutputPath.
 */
import type { Json, NodeIR } from '../../runtime/contract/ir';
import { processInput, processOutput } from '../../runtime/language/io';
import { irOf, machine, task } from './helpers';

const CONTEXT: Json = { Execution: { Id: 'run-1' }, State: { Name: 'T' } };

/** The IR of a one-Task machine with these fields. */
const taskIr = (fields: Record<string, Json>): NodeIR => irOf(machine({ T: task(fields) }), 'T');

/** Runs one state's io around `handler`, as the runtime does: returns what the handler saw and the state output. */
function run(ir: NodeIR, input: Json, handler: (effectiveInput: Json) => Json): { handlerInput: Json; output: Json } {
  const handlerInput = processInput(ir.io, input, CONTEXT);
  const raw = ir.handler.kind === 'pass' ? (ir.handler.result ?? handlerInput) : handler(handlerInput);
  return { handlerInput, output: processOutput(ir.io, input, raw, CONTEXT) };
}

const sum = (x: Json): Json => (x as { val1: number; val2: number }).val1 + (x as { val1: number; val2: number }).val2;
const NUMBERS = { title: 'Numbers to add', numbers: { val1: 3, val2: 4 } };

describe('ASL specification examples', () => {
  test('"Numbers to add": InputPath $.numbers, ResultPath $.sum', () => {
    // The task sees only { val1, val2 }; its result 7 is placed at $.sum of the RAW input.
    const { handlerInput, output } = run(taskIr({ InputPath: '$.numbers', ResultPath: '$.sum' }), NUMBERS, sum);
    expect(handlerInput).toEqual({ val1: 3, val2: 4 });
    expect(output).toEqual({ title: 'Numbers to add', numbers: { val1: 3, val2: 4 }, sum: 7 });
  });

  test('the same with OutputPath $.sum gives 7 (developer guide, OutputPath)', () => {
    expect(run(taskIr({ InputPath: '$.numbers', ResultPath: '$.sum', OutputPath: '$.sum' }), NUMBERS, sum).output).toBe(7);
  });

  test('ResultPath $.b.greeting builds the intermediate objects', () => {
    expect(run(taskIr({ ResultPath: '$.b.greeting' }), { a: 1 }, () => 'Hi!').output).toEqual({ a: 1, b: { greeting: 'Hi!' } });
  });

  test('ResultPath overwrites an existing field, or adds a chain of new fields', () => {
    const input = { master: { detail: [1, 2, 3] } };
    expect(run(taskIr({ ResultPath: '$.master.detail' }), input, () => 6).output).toEqual({ master: { detail: 6 } });
    expect(run(taskIr({ ResultPath: '$.master.result.sum' }), input, () => 6).output).toEqual({ master: { detail: [1, 2, 3], result: { sum: 6 } } });
  });

  test('null paths: InputPath null gives {}, ResultPath null keeps the raw input, OutputPath null gives {}', () => {
    const input = { keep: true };
    expect(run(taskIr({ InputPath: null }), input, (x) => x).handlerInput).toEqual({});
    expect(run(taskIr({ ResultPath: null }), input, () => 'discarded').output).toEqual({ keep: true });
    expect(run(taskIr({ OutputPath: null }), input, () => 'anything').output).toEqual({});
  });

  test('Payload template: static values, paths and slices (the spec\'s "flagged"/"parts" example)', () => {
    // The spec's example also reads $$.DayOfWeek from the context object; unum's context has no DayOfWeek (see the invalid documents).
    const parameters = { flagged: true, parts: { 'first.$': '$.vals[0]', 'last3.$': '$.vals[-3:]' } };
    const { handlerInput } = run(taskIr({ Parameters: parameters }), { flagged: 7, vals: [0, 10, 20, 30, 40, 50] }, (x) => x);
    expect(handlerInput).toEqual({ flagged: true, parts: { first: 0, last3: [30, 40, 50] } });
  });

  test('intrinsic functions: the spec\'s States.Format playlist example, and States.Array / JsonMerge / StringToJson / JsonToString', () => {
    const parameters = {
      'greeting.$': "States.Format('Welcome to {} {}\\'s playlist.', $.firstName, $.lastName)",
      'pair.$': 'States.Array($.firstName, 1)',
      'merged.$': 'States.JsonMerge($.a, $.b, false)',
      'parsed.$': 'States.StringToJson($.text)',
      'text.$': 'States.JsonToString($.a)',
    };
    const input = { firstName: 'John', lastName: 'Doe', a: { x: 1, y: 1 }, b: { y: 2 }, text: '{"k":[1]}' };
    expect(run(taskIr({ Parameters: parameters }), input, (x) => x).handlerInput).toEqual({
      greeting: "Welcome to John Doe's playlist.",
      pair: ['John', 1],
      merged: { x: 1, y: 2 },
      parsed: { k: [1] },
      text: '{"x":1,"y":1}',
    });
  });

  test('ResultPath that cannot apply fails with States.ResultPathMatchFailure (input "foo", ResultPath $.x)', () => {
    expect(() => run(taskIr({ ResultPath: '$.x' }), 'foo', () => 1)).toThrow(expect.objectContaining({ name: 'States.ResultPathMatchFailure' }));
  });
});

describe('ResultPath of a Map or Parallel, applied by its join to [the state input, the results]', () => {
  /** The join's output processing of a Map with these fields: the join node's `join` spec, which the runtime applies as io (runtime/step/inputs.ts). */
  const joinOf = (fields: Record<string, Json>): NodeIR['join'] =>
    irOf(machine({ M: { Type: 'Map', Iterator: { StartAt: 'F', States: { F: task() } }, End: true, ...fields } }), 'M.Join').join;
  const output = (fields: Record<string, Json>, stateInput: Json, results: Json): Json => processOutput(joinOf(fields), stateInput, results, CONTEXT);

  test('the spec\'s ResultPath examples: overwrite $.master.detail, or add $.master.result.sum', () => {
    const input = { master: { detail: [1, 2, 3] } };
    expect(output({ ResultPath: '$.master.detail' }, input, 6)).toEqual({ master: { detail: 6 } });
    expect(output({ ResultPath: '$.master.result.sum' }, input, 6)).toEqual({ master: { detail: [1, 2, 3], result: { sum: 6 } } });
  });

  test('ResultPath null keeps the raw input; OutputPath then selects from the combination', () => {
    expect(output({ ResultPath: null }, { keep: 1 }, [9, 9])).toEqual({ keep: 1 });
    expect(output({ ResultPath: '$.r', OutputPath: '$.r' }, { keep: 1 }, [9, 9])).toEqual([9, 9]);
    expect(output({ ResultPath: '$.r', OutputPath: null }, { keep: 1 }, [9, 9])).toEqual({});
  });

  test('ResultSelector builds the result from the outputs before ResultPath places it', () => {
    expect(output({ ResultSelector: { 'first.$': '$[0]' }, ResultPath: '$.r' }, { keep: 1 }, [7, 8])).toEqual({ keep: 1, r: { first: 7 } });
  });
});

describe('order of application', () => {
  // Each step reads only what the previous one produced, so a wrong order gives a different value or a path error.
  const fields = {
    InputPath: '$.order',
    Parameters: { 'items.$': '$.items', 'currency.$': '$.currency' },
    ResultSelector: { 'amount.$': '$.total', 'label.$': "States.Format('{} {}', $.total, $.currency)" },
    ResultPath: '$.invoice',
    OutputPath: '$.invoice',
  };
  const input = { customer: 'c-1', order: { items: [2, 3], currency: 'EUR', ignored: true } };
  const handler = (x: Json): Json => {
    const { items, currency } = x as { items: number[]; currency: string };
    return { total: items[0] + items[1], currency, debug: 'dropped by ResultSelector' };
  };

  test('InputPath, then Parameters (over the InputPath selection), then the handler', () => {
    expect(run(taskIr(fields), input, handler).handlerInput).toEqual({ items: [2, 3], currency: 'EUR' });
  });

  test('then ResultSelector (over the raw result), ResultPath (into the RAW state input), OutputPath (over the combination)', () => {
    const ir = taskIr({ ...fields, OutputPath: '$' });
    expect(run(ir, input, handler).output).toEqual({ ...input, invoice: { amount: 5, label: '5 EUR' } });
    expect(run(taskIr(fields), input, handler).output).toEqual({ amount: 5, label: '5 EUR' });
  });

  test('Pass: Parameters then Result (which replaces the effective input), then ResultPath and OutputPath', () => {
    const pass = irOf(machine({ P: { Type: 'Pass', InputPath: '$.a', Parameters: { 'x.$': '$.x' }, Result: { fixed: 1 }, ResultPath: '$.r', OutputPath: '$.r', End: true } }), 'P');
    expect(run(pass, { a: { x: 9 } }, () => null)).toEqual({ handlerInput: { x: 9 }, output: { fixed: 1 } });
    const noResult = irOf(machine({ P: { Type: 'Pass', InputPath: '$.a', Parameters: { 'x.$': '$.x' }, ResultPath: '$.r', End: true } }), 'P');
    expect(run(noResult, { a: { x: 9 } }, () => null).output).toEqual({ a: { x: 9 }, r: { x: 9 } });
  });

  test('lambda:invoke: ResultSelector, ResultPath and OutputPath see the API response { Payload, StatusCode, ... }', () => {
    const ir = taskIr({ Resource: 'arn:aws:states:::lambda:invoke', Parameters: { FunctionName: 'Fn', 'Payload.$': '$.in' }, ResultPath: '$.response' });
    const { handlerInput, output } = run(ir, { in: { n: 2 } }, (x) => ({ doubled: (x as { n: number }).n * 2 }));
    expect(handlerInput).toEqual({ n: 2 });
    expect(output).toEqual({ in: { n: 2 }, response: { ExecutedVersion: '$LATEST', Payload: { doubled: 4 }, StatusCode: 200 } });
    const selected = taskIr({ Resource: 'arn:aws:states:::lambda:invoke', Parameters: { FunctionName: 'Fn' }, ResultSelector: { 'd.$': '$.Payload.doubled', 'code.$': '$.StatusCode' } });
    expect(run(selected, {}, () => ({ doubled: 4 })).output).toEqual({ d: 4, code: 200 });
  });
});
