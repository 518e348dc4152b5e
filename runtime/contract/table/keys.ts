/** The keys of the table's items: one prefix per kind of record, each built from a run or an invocation name. */

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

/** An invocation name (runtime/contract/naming.ts): 43 base64url characters, the SHA-256 digest. */
export const isInvocationName = (name: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(name);

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
  | ({ readonly kind: 'park'; readonly invocation: string } & RunRef);

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
