/**
 * Every ASL file of the unum-appstore corpus compiles to IR. The expected
 * node sets follow from the definitions: a Map/Parallel that starts a
 * workflow gets an implicit `<state>.Origin`, the Task after a Map/Parallel
 * is its join, a Choice that starts a workflow gets `<state>.Enter`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { validateIr } from '../support/ir-schema';
import { compileAsl } from './helpers';

const CORPUS = path.join(__dirname, '..', '..', '..', 'shared', 'corpus', 'unum-appstore');
const read = (file: string): string => fs.readFileSync(path.join(CORPUS, file), 'utf8');

const CHAIN_STATES = ['First', 'Second', 'Third', 'Fourth', 'Fifth', 'Sixth', 'Seventh', 'Eighth', 'Ninth', 'Tenth'];
const chain = (n: number): [string, string[]] => [`chain-Chain${n}.embedded.asl.json`, CHAIN_STATES.slice(0, n)];

/** file -> entry node first, then the other nodes. */
const EXPECTED: Record<string, string[]> = Object.fromEntries([
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

describe('unum-appstore corpus compiles to IR', () => {
  test('the table covers every corpus file', () => {
    expect(fs.readdirSync(CORPUS).filter((f) => f.endsWith('.json')).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  test.each(Object.entries(EXPECTED))('%s', (file, [entry, ...others]) => {
    const compiled = compileAsl(read(file), { workflowName: 'corpus' });
    expect(compiled.entry).toBe(entry);
    expect(Object.keys(compiled.nodes).sort()).toEqual([entry, ...others].sort());
    for (const node of Object.values(compiled.nodes)) expect(validateIr(node.ir)).toEqual({ valid: true, errors: [] });
  });
});

describe('corpus shapes in the IR', () => {
  test('excamera: state names with spaces become node names; ItemsPath, ResultPath $ and MaxConcurrency 0 carry over', () => {
    const { nodes } = compileAsl(read('excamera.embedded.asl.json'));
    expect(nodes['vpxenc_And_xcdec.Origin'].ir.instructions).toEqual([
      { op: 'invoke', invoke: { kind: 'map', target: 'vpxenc', join: 'Group', itemsPath: '$.chunks', maxConcurrency: 0 } },
    ]);
    // "Re-encode" has no function before it other than Group, which fans out directly over its own output ($).
    expect(nodes.Group.ir.join).toEqual({ tails: ['xcdec'] });
    expect(nodes.Group.ir.instructions).toEqual([
      { op: 'invoke', invoke: { kind: 'map', target: 'xcenc_Replace_Key_Frame', join: 'Rebase', itemsPath: '$', maxConcurrency: 0 } },
    ]);
    // Resources are ${...} placeholders: the handler is the placeholder variable.
    expect(nodes.xcdec.ir.handler).toEqual({ kind: 'user', export: 'xcdecArn' });
  });

  test('hello-bye: the Choice becomes the entry node\'s first-match rules, with no otherwise (States.NoChoiceMatched)', () => {
    const compiled = compileAsl(read('hello-bye.embedded.asl.json'));
    expect(compiled.nodes['GreetingChoice.Enter'].ir.instructions).toEqual([
      {
        op: 'choice',
        state: 'GreetingChoice',
        rules: [
          { when: { kind: 'compare', type: 'string', op: 'eq', path: '$', value: 'hello' }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Hello' } }] },
          { when: { kind: 'compare', type: 'string', op: 'eq', path: '$', value: 'bye' }, then: [{ op: 'invoke', invoke: { kind: 'scalar', target: 'Bye' } }] },
        ],
      },
    ]);
    expect(compiled.warnings).toEqual([expect.stringContaining("node 'GreetingChoice', field 'otherwise'")]);
  });

  test('text-processing: branches of unequal length fan in to CreatePost, which continues to Publish', () => {
    const { nodes } = compileAsl(read('text-processing.asl.json'));
    expect(nodes['Parallel.Origin'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'parallel', targets: ['UserMention', 'FindUrl'], join: 'CreatePost' } }]);
    expect(nodes.CreatePost.ir.join).toEqual({ tails: ['ShortenUrl', 'UserMention'], branchTails: [1, 0] });
    expect(nodes.UserMention.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'fanIn', target: 'CreatePost', size: 2, tail: 1 } }]);
    expect(nodes.Publish.ir.instructions).toEqual([{ op: 'succeed' }]);
  });

  test('text-processing with Lambda ARNs: the handler is the function name in the ARN, or the state\'s own settings', () => {
    const byArn = compileAsl(read('step-functions-text-processing-arn.asl.json'));
    expect(byArn.nodes.UserMention.ir.handler).toEqual({ kind: 'user', export: 'text_processing_sf_UserMention_K2K0q8GITJHV' });
    const byState = compileAsl(read('step-functions-text-processing-arn.asl.json'), {
      tasks: { UserMention: { entry: '/abs/mention.js', handler: 'mention', memorySize: 512 } },
    });
    expect(byState.nodes.UserMention.ir.handler).toEqual({ kind: 'user', export: 'mention' });
    expect(byState.nodes.UserMention.fn).toMatchObject({ entry: '/abs/mention.js', memorySize: 512 });
  });

  test('wordcount: map -> fan-in -> map -> fan-in', () => {
    const { nodes } = compileAsl(read('wordcount.asl.json'));
    expect(nodes['Count.Origin'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Mapper', join: 'Partition', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(nodes.Partition.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'map', target: 'Reducer', join: 'Summary', itemsPath: '$', maxConcurrency: 0 } }]);
    expect(nodes.Summary.ir.join).toEqual({ tails: ['Reducer'] });
  });

  test('chains of the same ${passArn} function: one node per state, all with the same handler', () => {
    const { nodes } = compileAsl(read('chain-Chain10.embedded.asl.json'));
    expect(new Set(Object.values(nodes).map((n) => JSON.stringify(n.ir.handler)))).toEqual(new Set([JSON.stringify({ kind: 'user', export: 'passArn' })]));
    expect(nodes.Ninth.ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Tenth' } }]);
  });

  // asl-validator builds its schema validator on every call (~0.3 s): three representative files suffice.
  test('compilation is deterministic', () => {
    for (const file of ['excamera.embedded.asl.json', 'hello-bye.embedded.asl.json', 'text-processing.asl.json']) {
      expect(JSON.stringify(compileAsl(read(file)))).toBe(JSON.stringify(compileAsl(read(file))));
    }
  });
});
