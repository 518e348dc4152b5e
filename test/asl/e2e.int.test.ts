/**
 * End to end: every document of test/asl/fixtures (and of the optional
 * corpus, where it is found: test/asl/optional-corpus.ts), imported with
 * fromAsl, synthesized with UnumWorkflow (test/asl/app) and run on the local
 * engine (Lambda emulator + DynamoDB Local) with the handlers of
 * test/asl/handlers. Each expected result is derived from the ASL semantics
 * and the handlers, step by step in the comments — not taken from a run.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Json } from '../../runtime/contract/ir';
import { forEachLimit } from '../../runtime/ports/pool';
import { LocalEngine } from '../../lib/local/engine';
import type { RunStatusWithResult } from '../../lib/runs/run-status';
import { fixtureFiles, workflowNameOf } from './app/workflows';
import { appstoreFiles, optionalCase } from './optional-corpus';
import { ENGINE_TEST_TIMEOUT_MS, RUN_WAIT_MS } from '../support/load';
import { engineDynamoDb } from '../support/test-dynamodb';

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

const APP = path.join(__dirname, 'app');

interface Case {
  readonly workflow: string;
  readonly input: Json;
  readonly expected: Pick<RunStatusWithResult, 'status' | 'result'> & { error?: { error: string; cause?: string; state?: string } };
  /** A case of the optional corpus: run only where it is found, and named so. */
  readonly optional?: true;
}

const succeeds = (workflow: string, input: Json, result: Json): Case => ({ workflow, input, expected: { status: 'SUCCEEDED', result } });

/** The runs of the optional corpus (unum-appstore), whose handlers are test/asl/handlers/corpus.ts. */
const APPSTORE_CASES: Case[] = [
  // Hello -> World. Hello ignores its input and returns "Hello"; World appends " World".
  succeeds('hello-world', {}, 'Hello World'),
  succeeds('step-functions-hello-world-embedded', {}, 'Hello World'),
  // Choice on the raw input ($): "hello" -> Hello ("Hello") -> World; "bye" -> Bye ("Bye") -> World.
  succeeds('hello-bye-embedded', 'hello', 'Hello World'),
  succeeds('hello-bye-embedded', 'bye', 'Bye World'),
  // No rule matches and there is no Default: the run fails with States.NoChoiceMatched.
  { workflow: 'hello-bye-embedded', input: 'hi', expected: { status: 'FAILED', error: { error: 'States.NoChoiceMatched' } } },
  // Aggregator: average of [20, 30, 31] = 27; HvacController: 27 > 25 -> "cool".
  succeeds('iot-pipeline', { readings: [20, 30, 31] }, { average: 27, action: 'cool' }),
  succeeds('iot-pipeline-embedded', { readings: [20, 30, 31] }, { average: 27, action: 'cool' }),
  succeeds('step-functions-iot-pipeline', { readings: [10, 14] }, { average: 12, action: 'heat' }),
  // Map over $ = [1, 2, 3]: F1 squares -> [1, 4, 9] (item order); Summary sums -> 14.
  succeeds('map', [1, 2, 3], 14),
  succeeds('map-embedded', [1, 2, 3], 14),
  succeeds('step-functions-map', [1, 2, 3], 14),
  // Map of F1 -> F2 -> F3 per item: 1 -> 1 -> 2 -> 20, 2 -> 4 -> 5 -> 50, 3 -> 9 -> 10 -> 100; Summary -> 170.
  succeeds('parallel-pipeline', [1, 2, 3], 170),
  succeeds('parallel-pipeline-embedded', [1, 2, 3], 170),
  succeeds('step-functions-parallel-pipeline', [1, 2, 3], 170),
  // Both branches get the input. Branch 0: UserMention -> { mentions: [bob, amy] }. Branch 1: FindUrl ->
  // { urls: [https://example.com/a] } -> ShortenUrl -> { short: [sh.rt/0] }. CreatePost gets [branch 0, branch 1]
  // -> { mentions: [bob, amy], links: [sh.rt/0] }; Publish -> "@bob @amy sh.rt/0".
  ...['text-processing', 'step-functions-text-processing', 'step-functions-text-processing-arn'].map((w) =>
    succeeds(w, { text: 'hi @bob and @amy, see https://example.com/a' }, '@bob @amy sh.rt/0'),
  ),
  // Count maps lines: "a b a" -> {a: 2, b: 1}, "b c" -> {b: 1, c: 1}. Partition groups by sorted word:
  // [{a, [2]}, {b, [1, 1]}, {c, [1]}]. Reduce maps Reducer -> totals a 2, b 2, c 1; Summary -> {a: 2, b: 2, c: 1}.
  succeeds('wordcount', ['a b a', 'b c'], { a: 2, b: 2, c: 1 }),
  succeeds('step-functions-wordcount', ['a b a', 'b c'], { a: 2, b: 2, c: 1 }),
  // Thumbnail -> { thumbnail: thumb-family.png }, FaceDetection -> { faces: 2 }; Publish merges [both].
  succeeds('image-process', { image: 'family.png', people: ['ann', 'bo'] }, { thumbnail: 'thumb-family.png', faces: 2 }),
  // ChainN: N states all calling passArn, which adds 1 to count: {count: 0} -> {count: N}.
  ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => succeeds(`chain-Chain${n}-embedded`, { count: 0 }, { count: n })),
  // First adds first: true, Second adds second: true.
  succeeds('pass-embedded', {}, { first: true, second: true }),
  // Map over $.chunks (ResultPath $: the results replace the input): vpxenc -> {id, encoded: v<id>}, xcdec adds
  // state s<id> -> [{0, v0, s0}, {1, v1, s1}, {2, v2, s2}]. Group pairs each with the previous state:
  // [{v0, null}, {v1, s0}, {v2, s1}]. Re-encode over $: "v0<key", "v1<s0", "v2<s1". Rebase joins with "|".
  succeeds('excamera-embedded', { chunks: [{ id: 0 }, { id: 1 }, { id: 2 }] }, 'v0<key|v1<s0|v2<s1'),
];

const CASES: Case[] = [
  // relay.asl.json: each of the three legs (hopArn) adds 1 to hops and keeps the rest: {hops: 0, signed: true} ->
  // {hops: 3, signed: true}. "Arrived": hops >= 3 and signed is true -> "Delivered" (Succeed) with that document.
  succeeds('relay', { hops: 0, signed: true }, { hops: 3, signed: true }),
  // {hops: 1, signed: false} -> {hops: 4, signed: false}: the And is false -> Default "Lost" (Fail) with its Error and Cause.
  { workflow: 'relay', input: { hops: 1, signed: false }, expected: { status: 'FAILED', error: { error: 'Parcel.Lost', cause: 'nobody signed for it', state: 'Lost' } } },
  // No signed: hops 3 >= 3 holds, then $.signed is missing: States.Runtime, at the Choice "Arrived" (its rules run in
  // Leg3's function, but the run fails at the Choice, as in Step Functions).
  {
    workflow: 'relay',
    input: { hops: 0 },
    expected: { status: 'FAILED', error: { error: 'States.Runtime', state: 'Arrived', cause: "Choice state 'Arrived': Invalid path '$.signed': the condition path references an invalid value" } },
  },

  // sort-parcels.asl.json: the Choice on the raw input ($): "small" -> SmallBox ("box S") -> Label appends ", labelled".
  succeeds('sort-parcels', 'small', 'box S, labelled'),
  succeeds('sort-parcels', 'large', 'box L, labelled'),
  // No rule matches and there is no Default: the run fails with States.NoChoiceMatched at PickBox.
  { workflow: 'sort-parcels', input: 'medium', expected: { status: 'FAILED', error: { error: 'States.NoChoiceMatched', state: 'PickBox' } } },

  // video-frames.asl.json: "Decode and tint" maps $.frames: decode gives {id, pixels: p<id>}, tint adds tint t<id>;
  // ResultPath $: the results replace the input. "Pair up" gives each pixels with the tint before it:
  // [{p0, null}, {p1, t0}, {p2, t1}]. "Blend pairs" maps $: "p0+none", "p1+t0", "p2+t1"; Stitch joins with ",".
  succeeds('video-frames', { frames: [{ id: 0 }, { id: 1 }, { id: 2 }] }, 'p0+none,p1+t0,p2+t1'),

  // order-check.asl.json: both branches get the input. Branch 0: CheckStock -> {inStock: 3}. Branch 1: PriceItems ->
  // {total: 15} (5 per item) -> ApplyDiscount -> {total: 14}. Invoice gets [branch 0, branch 1] -> {lines: 3, due: 14};
  // Notify -> "3 lines, 14 due".
  succeeds('order-check', { items: ['tea', 'cup', 'pot'] }, '3 lines, 14 due'),

  // word-lengths.asl.json: MeasureWords maps $: [1, 2, 2, 3]. Bucket counts per length, shortest first:
  // [{1, 1}, {2, 2}, {3, 1}]. TallyBuckets maps $: "1x1", "2x2", "1x3"; Report joins with " ".
  succeeds('word-lengths', ['a', 'to', 'be', 'tea'], '1x1 2x2 1x3'),

  // features.asl.json, items [1, 2, 3]: "Set defaults" puts {factor: 10} at $.config. "Scale items" maps $.items;
  // the ItemSelector gives item i {value, index: i, factor: 10, tag: "item-i"}; Scale (lambda:invoke, Payload.$ $)
  // returns {n: value * 10, tag}, wrapped as {ExecutedVersion, Payload, StatusCode}, OutputPath $.Payload unwraps it.
  // The Map's ResultSelector over [{n: 10, tag: item-0}, ...] gives {scaled: [10, 20, 30], tags: [item-0, item-1, item-2]},
  // which replaces the input (ResultPath $). Total gets {values: [10, 20, 30]} (Parameters), returns {sum: 60, count: 3},
  // ResultSelector keeps {sum: 60}, ResultPath puts it at $.total. Choice: $.total present and 60 > 50 -> "Flaky step":
  // InputPath $.total -> {sum: 60}; attempt 1 throws Flaky, the Retry (1 s) runs attempt 2 -> {attempts: 2} at $.flaky.
  // "Done" (Succeed) ends the run with that document.
  succeeds('features', { items: [1, 2, 3] }, { scaled: [10, 20, 30], tags: ['item-0', 'item-1', 'item-2'], total: { sum: 60 }, flaky: { attempts: 2 } }),
  // items [1]: scaled [10], sum 10: the And fails (10 > 50 is false), rule 2 holds (10 >= 10) -> "Small" puts "small" at $.size.
  succeeds('features', { items: [1] }, { scaled: [10], tags: ['item-0'], total: { sum: 10 }, size: 'small' }),
  // items [0]: sum 0, no rule matches -> Default "Too small" (Fail) -> the run fails with its Error and Cause.
  { workflow: 'features', input: { items: [0] }, expected: { status: 'FAILED', error: { error: 'TooSmall', cause: 'sum below 10' } } },
  // items [7, 8]: scaled [70, 80], sum 150 -> "Flaky step": 150 > 100 throws Fatal; the Retry is only for Flaky, so the
  // Catch (States.ALL) puts {Error: Fatal, Cause} at $.error and goes to "Recover". The Cause is Lambda's error
  // document as JSON, as Step Functions gives it: Recover parses it with States.StringToJson, and Report picks its
  // errorType, errorMessage and first trace line, and every sum ($..sum, recursive descent).
  succeeds('features', { items: [7, 8] }, { recovered: 'Fatal', type: 'Fatal', message: '150 is too big', thrown: 'Fatal: 150 is too big', sums: [150] }),

  // result-path.asl.json, numbers [1, 2, 3]: "Square all" maps $.numbers -> [1, 4, 9]; its ResultSelector gives
  // {values: [1, 4, 9]}, which ResultPath places at $.squares of the raw input: {numbers, squares: {values: [1, 4, 9]}}.
  // "Both ways" runs both branches on that: Sum (InputPath $.squares.values) -> 14; Describe (Pass, Parameters)
  // -> {n: "[1,2,3]"} (States.JsonToString). ResultPath $.stats places [14, {n}] in the input, OutputPath $.stats
  // selects it back: [14, {n: "[1,2,3]"}]. "Side effects" maps Ignore over those 2 items; ResultPath null discards
  // the results, so the run's result is the Map's input unchanged.
  succeeds('result-path', { numbers: [1, 2, 3] }, [14, { n: '[1,2,3]' }]),

  // paths.asl.json: Route's InputPath selects $.order = {total: 150, items: [a, b]}; 150 > 100 -> Big, which gets that
  // selection; Big's InputPath $.items -> [a, b], OutputPath $[0] -> "a", the run's result.
  succeeds('paths', { order: { total: 150, items: ['a', 'b'] } }, 'a'),
  // total 5: no rule matches -> Default Small, a Pass whose Result "small" replaces its input.
  succeeds('paths', { order: { total: 5, items: [] } }, 'small'),
  // JSONata (values as the jsonata package gives them): Unwrap -> $states.input.order. Total's Arguments: lines.(qty * price) = [20, 5];
  // total -> { sum: 25, count: 2 }; its Output merges { sum: 25, lines: 2 } into the input. Tag (folded into Total's node) adds
  // tagged: true. Summarize (its own node: it reads $states.context): $uppercase('ada') = 'ADA', 25 * 2 = 50, lines 2,
  // 25 > 100 = false, $states.context.State.Name = 'Summarize'.
  succeeds('jsonata-orders', { order: { customer: 'ada', lines: [{ qty: 2, price: 10 }, { qty: 1, price: 5 }] } }, { customer: 'ADA', due: 50, lines: 2, big: false, state: 'Summarize', kept: 'as written', tagged: true }),
  // JSONata Choice, Fail, Wait, Succeed (values as the jsonata package gives them). Total sums amounts; its Output adds sum.
  // 60 + 70 = 130 > 100 -> Big, a Succeed whose Output is { size: 'big', sum }.
  succeeds('jsonata-routes', { customer: 'ada', amounts: [60, 70] }, { size: 'big', sum: 130 }),
  // No amounts: sum 0, and the context's State.Name is the Choice's, 'Route' -> Empty, whose Error and Cause are expressions.
  {
    workflow: 'jsonata-routes',
    input: { customer: 'ada', kind: 'refund', amounts: [] },
    expected: { status: 'FAILED', error: { error: 'Order.refund', cause: 'no amounts for ada', state: 'Empty' } },
  },
  // 20 + 40 = 60: no rule -> Hold, which waits 60 > 50 ? 1 : 0 = 1 s; its Output { held: 60, customer }; Done merges size.
  succeeds('jsonata-routes', { customer: 'bo', amounts: [20, 40] }, { held: 60, customer: 'bo', size: 'small' }),
  // 5: Hold waits 0 s.
  succeeds('jsonata-routes', { customer: 'cy', amounts: [5] }, { held: 5, customer: 'cy', size: 'small' }),
  // JSONata Parallel and Map. Both's Arguments: { values: numbers, factor }. Branch 0: total -> { sum: 6 }, Output 6.
  // Branch 1: Items [1, 2, 3]; each ItemSelector { value, index, factor: 10, tag: 'i<index>' }; scaleArn -> { n: value * 10, tag };
  // the Map's Output $states.result.n = [10, 20, 30]. Both's Output: result[0], result[1], and label from its own input.
  succeeds('jsonata-fan-out', { numbers: [1, 2, 3], factor: 10, label: 'x' }, { sum: 6, scaled: [10, 20, 30], kept: 'x' }),
  // One item: as JSONata gives it, a path over a one-element array is that element's value, not an array.
  succeeds('jsonata-fan-out', { numbers: [4], factor: 10, label: 'y' }, { sum: 4, scaled: 40, kept: 'y' }),
  // No total: as in Step Functions, the rule's missing path fails the run at the Choice (it does not fall through to Default).
  {
    workflow: 'paths',
    input: { order: { items: [] } },
    expected: { status: 'FAILED', error: { error: 'States.Runtime', state: 'Route', cause: "Choice state 'Route': Invalid path '$.total': the condition path references an invalid value" } },
  },
  // Found outside the repository, the optional corpus adds its cases; nothing above depends on it.
  ...(appstoreFiles().length > 0 ? APPSTORE_CASES.map((c): Case => ({ ...c, optional: true })) : []),
];

/** Runs at once on the engine: the cases are independent runs, and one at a time left a core idle. */
const CONCURRENT_RUNS = 8;

describe('imported ASL workflows run on the local engine', () => {
  let engine: LocalEngine;
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'unum-asl-e2e-'));
  const records = new Map<number, RunStatusWithResult>();

  beforeAll(async () => {
    engine = await LocalEngine.fromApp(APP, { outDir, ...engineDynamoDb() });
    await forEachLimit(CASES.map((c, i) => [c, i] as const), CONCURRENT_RUNS, async ([c, i]) => {
      const id = engine.startRun(c.workflow, c.input);
      records.set(i, await engine.waitForRun(c.workflow, id, { timeoutMs: RUN_WAIT_MS }));
    });
  });
  afterAll(async () => {
    await engine?.stop();
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  test('every fixture (and optional corpus file found) is a workflow of the app, and has at least one run below', () => {
    const names = [...fixtureFiles(), ...appstoreFiles()].map(workflowNameOf);
    expect(engine.workflows.map((w) => w.name).sort()).toEqual([...names].sort());
    for (const name of names) expect(CASES.some((c) => c.workflow === name)).toBe(true);
  });

  const titled = CASES.map((c, i) => {
    const title = `${c.workflow} ${JSON.stringify(c.input)}`;
    return [c.optional ? optionalCase(title) : title, i] as const;
  });
  test.each(titled)('%s', (_title, i) => {
    const c = CASES[i];
    const record = records.get(i) as RunStatusWithResult;
    expect(record.status).toBe(c.expected.status);
    if (c.expected.status === 'SUCCEEDED') expect(record.result).toEqual(c.expected.result);
    else expect(record.error).toMatchObject(c.expected.error ?? {});
  });
});
