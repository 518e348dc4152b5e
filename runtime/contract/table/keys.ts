/** The keys of the table's items: one prefix per kind of record, each built from a run or an invocation name. */
import { createHash } from 'node:crypto';

/**
 * A run: its workflow and its id there. Every key of a run's items carries
 * both (invocation names hash them), so workflows sharing a table never read
 * or write each other's items, even for runs of the same id.
 */
export interface RunRef {
  readonly workflow: string;
  readonly workflowId: string;
}

export const checkpointKey = (invocation: string): string => `ckpt#${invocation}`;

export const shardKey = (joinInvocation: string, level: number, shard: number): string =>
  `fanin#${joinInvocation}#${level}#${shard}`;

export const runKey = (run: RunRef): string => `run#${run.workflow}#${run.workflowId}`;

/** The failure of one attempt of a Parallel/Map state: keyed by the join's invocation name for that attempt. */
export const stateFailureKey = (joinInvocation: string): string => `sfail#${joinInvocation}`;

/** The run's history counter (no `seq`) or its entry `seq`. */
export const historyKey = (run: RunRef, seq?: number): string => `hist#${run.workflow}#${run.workflowId}${seq === undefined ? '' : `#${seq}`}`;

/** A callback Task's waiting record (docs/architecture.md "Callbacks"). */
export const taskWaitKey = (invocation: string): string => `task#${invocation}`;

/** An effect record of an invocation (`unum-cdk/effects`): `operation` is the effect's kind, name and occurrence. */
export const effectKey = (invocation: string, operation: string): string => `effect#${invocation}#${operation}`;

/** An invocation of a FAILED run parked for a redrive (docs/architecture.md "Redrive"). */
export const parkKey = (run: RunRef, invocation: string): string => `park#${run.workflow}#${run.workflowId}#${invocation}`;

/** An invocation name (runtime/contract/naming.ts): 43 base64url characters, of a SHA-256 digest and, from table format 3, beginning with the workflow's tag. */
export const isInvocationName = (name: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(name);

/** The characters of a workflow's tag: 72 bits. */
export const WORKFLOW_TAG_LENGTH = 12;

/**
 * The workflow's tag, the first characters of each of its invocation names
 * (naming.ts, from table format 3): the keys built from an invocation name
 * (checkpoint, shard, state failure, callback wait, effect) name their
 * workflow at a fixed place, where a `dynamodb:LeadingKeys` pattern can
 * match it. Of fixed length, so no tag is the beginning of another (names
 * are: `Photos`, `PhotosV2`); a hash, so invocation names keep their 43
 * characters (schedule names, task tokens). Two workflows share a tag with
 * probability 2^-72.
 */
export const workflowTag = (workflow: string): string =>
  createHash('sha256').update(JSON.stringify(['unum workflow tag', workflow])).digest('base64url').slice(0, WORKFLOW_TAG_LENGTH);

export const isCheckpointKey = (key: string): boolean => key.startsWith('ckpt#') && isInvocationName(key.slice(5));

/** What a key names. Invocation names, workflow names and workflow ids hold no `#`, so the parts split cleanly. */
export type TableKey =
  | { readonly kind: 'checkpoint'; readonly invocation: string }
  | { readonly kind: 'shard'; readonly join: string; readonly level: number; readonly shard: number }
  | { readonly kind: 'stateFailure'; readonly join: string }
  | ({ readonly kind: 'run' } & RunRef)
  | ({ readonly kind: 'history'; readonly seq?: number } & RunRef)
  | { readonly kind: 'effect'; readonly invocation: string; readonly operation: string }
  | { readonly kind: 'taskWait'; readonly invocation: string }
  | ({ readonly kind: 'park'; readonly invocation: string } & RunRef)
  | { readonly kind: 'envelopeKey'; readonly workflow: string };

/** The key's parts; undefined for a key of no item of this layout. */
export function parseKey(key: string): TableKey | undefined {
  const hash = key.indexOf('#');
  const rest = key.slice(hash + 1);
  switch (hash < 0 ? '' : key.slice(0, hash)) {
    case 'ckpt':
      return { kind: 'checkpoint', invocation: rest };
    case 'run': {
      const [workflow, workflowId] = rest.split('#');
      return workflowId === undefined ? undefined : { kind: 'run', workflow, workflowId };
    }
    case 'fanin': {
      const [join, level, shard] = rest.split('#');
      return { kind: 'shard', join, level: Number(level), shard: Number(shard) };
    }
    case 'sfail':
      return { kind: 'stateFailure', join: rest };
    case 'task':
      return { kind: 'taskWait', invocation: rest };
    case 'effect': {
      const cut = rest.indexOf('#');
      return cut < 0 ? undefined : { kind: 'effect', invocation: rest.slice(0, cut), operation: rest.slice(cut + 1) };
    }
    case 'park': {
      const [workflow, workflowId, invocation] = rest.split('#');
      return invocation === undefined ? undefined : { kind: 'park', workflow, workflowId, invocation };
    }
    case 'envkey':
      return { kind: 'envelopeKey', workflow: rest };
    case 'hist': {
      const [workflow, workflowId, seq] = rest.split('#');
      if (workflowId === undefined) return undefined;
      return { kind: 'history', workflow, workflowId, ...(seq === undefined ? {} : { seq: Number(seq) }) };
    }
    default:
      return undefined;
  }
}

/**
 * A deployment record of `workflow` (docs/architecture.md "Deployments"), or
 * without `deployment` the workflow's list of them. Workflow names and
 * deployment ids hold no `#`, so the two never meet.
 */
export const deploymentKey = (workflow: string, deployment?: string): string => `dep#${workflow}${deployment === undefined ? '' : `#${deployment}`}`;

/** The kinds of a workflow's items: those `parseKey` tells apart, and its deployment records. */
export type ItemKind = TableKey['kind'] | 'deployment';

/** The kinds of items of a workflow's runs: what its functions read and write (the deployment records are the sweeper's). */
export const RUN_ITEM_KINDS: readonly ItemKind[] = ['checkpoint', 'shard', 'stateFailure', 'taskWait', 'effect', 'run', 'history', 'park'];

/** IAM `StringLike`'s wildcard: any characters, `#` included. */
const ANY = '*';
const tagged = (workflow: string): string => `${workflowTag(workflow)}${ANY}`;
const anyRun = (workflow: string): RunRef => ({ workflow, workflowId: ANY });

/**
 * Each kind's patterns for one workflow's keys. Keys built from an invocation
 * name have the workflow's tag right after their prefix; the others have the
 * workflow's name between `#`s, and names hold no `#`, `*` or `?`: a pattern
 * of one workflow matches no key of another, not even of a workflow whose
 * name begins with this one's.
 */
const PATTERNS: Readonly<Record<ItemKind, (workflow: string) => readonly string[]>> = {
  checkpoint: (w) => [checkpointKey(tagged(w))],
  shard: (w) => [`fanin#${tagged(w)}`],
  stateFailure: (w) => [stateFailureKey(tagged(w))],
  taskWait: (w) => [taskWaitKey(tagged(w))],
  effect: (w) => [effectKey(tagged(w), ANY)],
  run: (w) => [runKey(anyRun(w))],
  history: (w) => [historyKey(anyRun(w))],
  park: (w) => [parkKey(anyRun(w), ANY)],
  deployment: (w) => [deploymentKey(w), deploymentKey(w, ANY)],
  envelopeKey: (w) => [envelopeKeyKey(w)],
};

/** The characters of a workflow name (lib/compiler/names.ts allows fewer): none is a separator or an IAM wildcard. */
const WORKFLOW_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * The `dynamodb:LeadingKeys` patterns (for `ForAllValues:StringLike`) of
 * `workflow`'s items of `kinds`: a grant conditioned on them reaches those
 * items of this workflow only, in a table other workflows share.
 */
export function workflowKeyPatterns(workflow: string, kinds: readonly ItemKind[]): string[] {
  if (!WORKFLOW_NAME.test(workflow)) throw new Error(`workflow name '${workflow}' has characters outside ${WORKFLOW_NAME}: its keys cannot be told apart from another workflow's`);
  return [...new Set(kinds.flatMap((kind) => PATTERNS[kind](workflow)))];
}

/**
 * The item holding `workflow`'s envelope key (envelope-key.ts): a kind of its
 * own, so that `dynamodb:LeadingKeys` conditions can keep every grant to
 * clients off it.
 */
export const envelopeKeyKey = (workflow: string): string => `envkey#${workflow}`;
