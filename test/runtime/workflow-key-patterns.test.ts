/**
 * Workflows sharing a table are kept apart by IAM: every grant of a workflow
 * is conditioned on `dynamodb:LeadingKeys` patterns (`workflowKeyPatterns`,
 * `runsIndexKeyPatterns`). DynamoDB Local does not enforce IAM, so this is
 * where the separation is proven: every key the runtime builds for a
 * workflow matches that workflow's patterns of its kind, and no pattern of
 * another workflow or of another kind, for any valid names, including names
 * that begin with another's (`Photos`, `PhotosV2`). The construct's tests
 * (test/construct/shared-table-roles.int.test.ts) check every role carries them.
 */
import fc from 'fast-check';
import { invocationName } from '../../runtime/contract/naming';
import { WORKFLOW_ID_PATTERN } from '../../runtime/contract/ir';
import {
  checkpointKey,
  deploymentKey,
  effectKey,
  envelopeKeyKey,
  historyKey,
  type ItemKind,
  parkKey,
  parseKey,
  runIndexAttributes,
  runKey,
  runsIndexKeyPatterns,
  type RunRef,
  shardKey,
  stateFailureKey,
  taskWaitKey,
  workflowKeyPatterns,
  workflowTag,
} from '../../runtime/contract/table';

/** IAM's `StringLike`: `*` any characters (none included), `?` one, the rest literally, case-sensitive, the whole value. */
function stringLike(pattern: string, value: string): boolean {
  const source = [...pattern].map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 's').test(value);
}

const matchesAny = (patterns: readonly string[], key: string): boolean => patterns.some((p) => stringLike(p, key));

/** Where in a run an invocation is: what its name is computed from (runtime/contract/naming.ts). */
interface Position {
  readonly node: string;
  readonly iteration: number;
  readonly frames: readonly { readonly iteration: number; readonly index: number }[];
  readonly fold?: number;
  readonly level: number;
  readonly shard: number;
  readonly operation: string;
  readonly seq: number;
  readonly deployment: string;
}

/** Every kind of key the runtime builds for `run` at `at`, by kind: a kind without keys here fails to compile. */
function keysOf(run: RunRef, at: Position): Record<ItemKind, string[]> {
  const invocation = invocationName(run, at.node, at.iteration, at.frames, at.fold);
  // A launcher of a bounded Map's launch tree (runtime/step/launch-tree.ts) is named as a node of its own.
  const launcher = invocationName(run, `${at.node}#launch:${at.shard}`, at.iteration, at.frames);
  return {
    checkpoint: [checkpointKey(invocation), checkpointKey(launcher)],
    shard: [shardKey(invocation, at.level, at.shard)],
    stateFailure: [stateFailureKey(invocation)],
    taskWait: [taskWaitKey(invocation)],
    effect: [effectKey(invocation, at.operation)],
    run: [runKey(run)],
    history: [historyKey(run), historyKey(run, at.seq)],
    park: [parkKey(run, invocation)],
    deployment: [deploymentKey(run.workflow), deploymentKey(run.workflow, at.deployment)],
    envelopeKey: [envelopeKeyKey(run.workflow)],
  };
}

const KINDS = Object.keys(keysOf({ workflow: 'W', workflowId: 'w' }, { node: 'N', iteration: 0, frames: [], level: 0, shard: 0, operation: 'o', seq: 0, deployment: 'd' })) as ItemKind[];

/** A workflow name: the characters the runtime accepts (the compiler's are fewer). */
const workflowName = fc.stringMatching(/^[A-Za-z0-9_.-]{1,24}$/);
/** Two different workflows, half the time one's name the beginning of the other's (either one). */
const twoWorkflows = fc
  .oneof(
    fc.tuple(workflowName, workflowName),
    fc
      .tuple(workflowName, fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/), fc.boolean())
      .map(([a, suffix, longerFirst]): [string, string] => (longerFirst ? [a + suffix, a] : [a, a + suffix])),
  )
  .filter(([a, b]) => a !== b);
const workflowId = fc.stringMatching(WORKFLOW_ID_PATTERN);
const position: fc.Arbitrary<Position> = fc.record(
  {
    node: fc.stringMatching(/^[A-Za-z0-9_-]{1,16}$/),
    iteration: fc.nat(1000),
    frames: fc.array(fc.record({ iteration: fc.nat(50), index: fc.nat(10_000) }), { maxLength: 4 }),
    fold: fc.nat(100),
    level: fc.nat(5),
    shard: fc.nat(1000),
    operation: fc.stringMatching(/^(dynamodb|postgres|once):[A-Za-z0-9_.%-]{1,20}:[0-9]{1,3}$/),
    seq: fc.nat(100_000),
    deployment: fc.stringMatching(/^d[0-9a-f]{20}$/),
  },
  { requiredKeys: ['node', 'iteration', 'frames', 'level', 'shard', 'operation', 'seq', 'deployment'] },
);

test('every key of a workflow matches its patterns of that kind, and no pattern of another kind', () => {
  fc.assert(
    fc.property(workflowName, workflowId, position, (workflow, id, at) => {
      const keys = keysOf({ workflow, workflowId: id }, at);
      for (const kind of KINDS) {
        const own = workflowKeyPatterns(workflow, [kind]);
        const others = workflowKeyPatterns(workflow, KINDS.filter((k) => k !== kind));
        for (const key of keys[kind]) {
          if (!matchesAny(own, key)) throw new Error(`${kind} key ${key} matches none of ${own.join(', ')}`);
          if (matchesAny(others, key)) throw new Error(`${kind} key ${key} matches a pattern of another kind: ${others.filter((p) => stringLike(p, key)).join(', ')}`);
        }
      }
    }),
  );
});

test("no key of one workflow matches any pattern of another, even when one's name begins the other's", () => {
  fc.assert(
    fc.property(twoWorkflows, workflowId, position, ([a, b], id, at) => {
      const keysOfA = Object.values(keysOf({ workflow: a, workflowId: id }, at)).flat();
      const patternsOfB = workflowKeyPatterns(b, KINDS);
      const crossing = keysOfA.filter((key) => matchesAny(patternsOfB, key));
      if (crossing.length > 0) throw new Error(`keys of ${a} match patterns of ${b}: ${crossing.join(', ')}`);
      // The runs index: a Query of a workflow's runs names its partition, the workflow.
      const partition = runIndexAttributes({ workflow: a, workflowId: id }, '2026-01-01T00:00:00.000Z').runs.S as string;
      expect(matchesAny(runsIndexKeyPatterns(a), partition)).toBe(true);
      expect(matchesAny(runsIndexKeyPatterns(b), partition)).toBe(false);
    }),
  );
});

test('the keys built from an invocation name begin, after their prefix, with the tag of the workflow (table format 3)', () => {
  fc.assert(
    fc.property(workflowName, workflowId, position, (workflow, id, at) => {
      const keys = keysOf({ workflow, workflowId: id }, at);
      for (const key of [...keys.checkpoint, ...keys.shard, ...keys.stateFailure, ...keys.taskWait, ...keys.effect]) {
        expect(key.slice(key.indexOf('#') + 1).startsWith(workflowTag(workflow))).toBe(true);
      }
    }),
  );
});

test("the keys parse back to their kind, and a grant to clients' kinds never reaches the envelope key", () => {
  const keys = keysOf({ workflow: 'Photos', workflowId: 'id-1' }, { node: 'Resize', iteration: 2, frames: [{ iteration: 0, index: 3 }], fold: 1, level: 1, shard: 7, operation: 'dynamodb:orders:0', seq: 4, deployment: 'd0123456789abcdef0123' });
  for (const kind of KINDS.filter((k) => k !== 'deployment')) for (const key of keys[kind]) expect(parseKey(key)?.kind).toBe(kind);
  const clients = workflowKeyPatterns('Photos', ['run', 'park', 'deployment']);
  expect(matchesAny(clients, envelopeKeyKey('Photos'))).toBe(false);
  expect(workflowKeyPatterns('Photos', ['envelopeKey'])).toEqual(['envkey#Photos']);
});

test('a name with a separator or an IAM wildcard has no patterns', () => {
  for (const name of ['a#b', 'a*', 'a?b', '']) expect(() => workflowKeyPatterns(name, ['run'])).toThrow(/characters outside/);
});

test("IAM's StringLike as modelled here", () => {
  expect(stringLike('run#Photos#*', 'run#Photos#1')).toBe(true);
  expect(stringLike('run#Photos#*', 'run#PhotosV2#1')).toBe(false);
  expect(stringLike('a?c', 'abc')).toBe(true);
  expect(stringLike('a.c', 'abc')).toBe(false);
  expect(stringLike('ckpt#T*', 'ckpt#T')).toBe(true);
});
