/**
 * The shape fixtures of test/asl/fixtures compile to IR. The expected node
 * sets follow from the definitions: a Map/Parallel that starts a workflow
 * gets an implicit `<state>.Origin`, the Task after a Map/Parallel is its
 * join, a Choice that starts a workflow gets `<state>.Enter`, and a Choice,
 * Succeed or Fail after a Task folds into the Task's node. The optional
 * corpus (test/asl/optional-corpus.ts) adds its own cases where it is found.
 */
import { validateIr } from '../support/ir-schema';
import { readFixture } from './app/workflows';
import { compileAsl } from './helpers';
import { appstoreFiles, optionalCase, readAppstore } from './optional-corpus';

/** file -> entry node first, then the other nodes. */
const FIXTURES: Record<string, string[]> = {
  'relay.asl.json': ['Leg1', 'Leg2', 'Leg3'],
  'sort-parcels.asl.json': ['PickBox.Enter', 'SmallBox', 'LargeBox', 'Label'],
  'video-frames.asl.json': ['Decode_and_tint.Origin', 'Decode_frame', 'Tint_frame', 'Pair_up', 'Blend_pair', 'Stitch'],
  'order-check.asl.json': ['Check_order.Origin', 'CheckStock', 'PriceItems', 'ApplyDiscount', 'Invoice', 'Notify'],
  'word-lengths.asl.json': ['MeasureWords.Origin', 'Measure', 'Bucket', 'Tally', 'Report'],
};

function expectNodes(doc: string, [entry, ...others]: string[]): void {
  const compiled = compileAsl(doc, { workflowName: 'shapes' });
  expect(compiled.entry).toBe(entry);
  expect(Object.keys(compiled.nodes).sort()).toEqual([entry, ...others].sort());
  for (const node of Object.values(compiled.nodes)) expect(validateIr(node.ir)).toEqual({ valid: true, errors: [] });
}

describe('shape fixtures compile to IR', () => {
  test.each(Object.entries(FIXTURES))('%s', (file, nodes) => expectNodes(readFixture(file), nodes));
});

describe('fixture shapes in the IR', () => {
  test('video-frames: state names with spaces become node names; ItemsPath, ResultPath $ and MaxConcurrency 0 carry over', () => {
    const { nodes } = compileAsl(readFixture('video-frames.asl.json'));
    expect(nodes['Decode_and_tint.Origin'].ir.instructions).toEqual([
      { op: 'invoke', invoke: { kind: 'map', target: 'Decode_frame', join: 'Pair_up', itemsPath: '$.frames', maxConcurrency: 0 } },
    ]);
    // "Blend pairs" has no Task before it other than "Pair up", which fans out directly over its own output ($).
    expect(nodes.Pair_up.ir.join).toEqual({ tails: ['Tint_frame'] });
    expect(nodes.Pair_up.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Blend_pair', join: 'Stitch', itemsPath: '$', maxConcurrency: 0 } }]);
    // Resources are ${...} placeholders: the handler is the placeholder variable.
    expect(nodes.Tint_frame.ir.handler).toEqual({ kind: 'user', export: 'tintArn' });
  });

  test("sort-parcels: the Choice becomes the entry node's first-match rules, with no otherwise (States.NoChoiceMatched)", () => {
    const compiled = compileAsl(readFixture('sort-parcels.asl.json'));
    expect(compiled.nodes['PickBox.Enter'].ir.instructions).toEqual([
      {
        op: 'choice',
        state: 'PickBox',
        rules: [
          { when: { kind: 'compare', type: 'string', op: 'eq', path: '$', value: 'small' }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'SmallBox' } }] },
          { when: { kind: 'compare', type: 'string', op: 'eq', path: '$', value: 'large' }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'LargeBox' } }] },
        ],
      },
    ]);
    expect(compiled.warnings).toEqual([expect.stringContaining("node 'PickBox', field 'otherwise'")]);
  });

  test('order-check: branches of unequal length fan in to Invoice, which continues to Notify', () => {
    const { nodes } = compileAsl(readFixture('order-check.asl.json'));
    expect(nodes['Check_order.Origin'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['CheckStock', 'PriceItems'], join: 'Invoice' } }]);
    expect(nodes.Invoice.ir.join).toEqual({ tails: ['ApplyDiscount', 'CheckStock'], branchTails: [1, 0] });
    expect(nodes.CheckStock.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'Invoice', size: 2, tail: 1 } }]);
    expect(nodes.Notify.ir.instructions).toEqual([{ op: 'succeed' }]);
  });

  test("order-check: the handler is the function name in the Lambda ARN, or the state's own settings", () => {
    const byArn = compileAsl(readFixture('order-check.asl.json'));
    expect(byArn.nodes.PriceItems.ir.handler).toEqual({ kind: 'user', export: 'priceItems' });
    const byState = compileAsl(readFixture('order-check.asl.json'), { tasks: { PriceItems: { entry: '/abs/pricing.js', handler: 'price', memorySize: 512 } } });
    expect(byState.nodes.PriceItems.ir.handler).toEqual({ kind: 'user', export: 'price' });
    expect(byState.nodes.PriceItems.fn).toMatchObject({ entry: '/abs/pricing.js', memorySize: 512 });
  });

  test('word-lengths: map -> fan-in -> map -> fan-in, over the raw input', () => {
    const { nodes } = compileAsl(readFixture('word-lengths.asl.json'));
    expect(nodes['MeasureWords.Origin'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Measure', join: 'Bucket', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(nodes.Bucket.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Tally', join: 'Report', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(nodes.Report.ir.join).toEqual({ tails: ['Tally'] });
  });

  test('relay: a chain of the same ${hopArn} function is one node per state, all with that handler; the Choice after it folds into Leg3', () => {
    const { nodes } = compileAsl(readFixture('relay.asl.json'));
    expect(new Set(Object.values(nodes).map((n) => JSON.stringify(n.ir.handler)))).toEqual(new Set([JSON.stringify({ kind: 'user', export: 'hopArn' })]));
    expect(nodes.Leg2.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Leg3' } }]);
    expect(nodes.Leg3.ir.instructions).toEqual([expect.objectContaining({ op: 'choice', state: 'Arrived', otherwise: [{ op: 'fail', state: 'Lost', error: 'Parcel.Lost', cause: 'nobody signed for it' }] })]);
  });

  // asl-validator builds its schema validator on every call (~0.3 s): three representative files suffice.
  test('compilation is deterministic', () => {
    for (const file of ['video-frames.asl.json', 'sort-parcels.asl.json', 'order-check.asl.json']) {
      expect(JSON.stringify(compileAsl(readFixture(file)))).toBe(JSON.stringify(compileAsl(readFixture(file))));
    }
  });
});

/** The optional corpus's files: entry node first, then the other nodes. */
const CHAIN_STATES = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth', 'Ninth', 'Tenth'];
const chain = (n: number): [string, string[]] => [`chain-Chain${n}.embedded.asl.json`, CHAIN_STATES.slice(0, n)];
const APPSTORE: Record<string, string[]> = Object.fromEntries([
  ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map(chain),
  ['excamera.embedded.asl.json', ['vpxenc_And_xcdec.Origin', 'vpxenc', 'xcdec', 'Group', 'xcenc_Replace_Key_Frame', 'Rebase']],
  ['hello-bye.embedded.asl.json', ['GreetingChoice.Enter', 'Hello', 'Bye', 'World']],
  ['hello-world.asl.json', ['Hello', 'World']],
  ['image-process.asl.json', ['Start.Origin', 'Thumbnail', 'FaceDetection', 'Publish']],
  ['iot-pipeline.asl.json', ['Aggregator', 'HvacController']],
  ['iot-pipeline.embedded.asl.json', ['Aggregator', 'HvacController']],
  ['map.asl.json', ['Map.Origin', 'F1', 'Summary']],
  ['map.embedded.asl.json', ['Map.Origin', 'F1', 'Summary']],
  ['parallel-pipeline.asl.json', ['Map.Origin', 'F1', 'F2', 'F3', 'Summary']],
  ['parallel-pipeline.embedded.asl.json', ['Map.Origin', 'F1', 'F2', 'F3', 'Summary']],
  ['pass.embedded.asl.json', ['First', 'Second']],
  ['step-functions-hello-world.embedded.asl.json', ['Hello', 'World']],
  ['step-functions-iot-pipeline.asl.json', ['Aggregator', 'Hvac']],
  ['step-functions-map.asl.json', ['Map.Origin', 'F1', 'Summary']],
  ['step-functions-parallel-pipeline.asl.json', ['Map.Origin', 'F1', 'F2', 'F3', 'Summary']],
  ['step-functions-text-processing-arn.asl.json', ['Parallel.Origin', 'UserMention', 'FindUrl', 'ShortenUrl', 'CreatePost', 'Publish']],
  ['step-functions-text-processing.asl.json', ['Parallel.Origin', 'UserMention', 'FindUrl', 'ShortenUrl', 'CreatePost', 'Publish']],
  ['step-functions-wordcount.asl.json', ['Count.Origin', 'Mapper', 'Partition', 'Reducer', 'Summary']],
  ['text-processing.asl.json', ['Parallel.Origin', 'UserMention', 'FindUrl', 'ShortenUrl', 'CreatePost', 'Publish']],
  ['wordcount.asl.json', ['Count.Origin', 'Mapper', 'Partition', 'Reducer', 'Summary']],
]);

// Defined only where the corpus is found: nothing else may depend on it.
const found = appstoreFiles();
if (found.length > 0) {
  describe('optional corpus cases: unum-appstore compiles to IR', () => {
    test(optionalCase('the table covers every appstore file'), () => expect(found).toEqual(Object.keys(APPSTORE).sort()));
    test.each(Object.entries(APPSTORE).map(([file, nodes]) => [optionalCase(file), file, nodes] as const))('%s', (_title, file, nodes) => expectNodes(readAppstore(file), [...nodes]));
  });
}
