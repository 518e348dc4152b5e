/**
 * Runs a corpus document on the independent interpreter aws-local-stepfunctions,
 * with the corpus handlers as its local Task handlers. Those bypass Lambda,
 * so the adapter does what Lambda and the `lambda:invoke` integration would:
 * a handler's error becomes Lambda's error document as the Cause, and a
 * `lambda:invoke` Task passes `Payload` and gets `{ ExecutedVersion, Payload, StatusCode }` back.
 */
import type * as Peer from 'aws-local-stepfunctions' with { 'resolution-mode': 'import' };
import type { Json } from '../../../runtime/contract/ir';
import type { CorpusDocument, TaskTarget } from './corpus';
import * as handlers from './handlers';
import { failed, succeeded, type Outcome } from './outcome';

type Handler = (input: Json) => unknown;

// The package is an ES module with a CommonJS build for `require`, which jest's module system loads.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ExecutionError, StateMachine } = require('aws-local-stepfunctions') as typeof Peer;

/** aws-local-stepfunctions calls Promise.withResolvers (Node.js 22+); this machine may run Node.js 20. */
function ensureWithResolvers(): void {
  const P = Promise as unknown as { withResolvers?: () => unknown };
  P.withResolvers ??= () => {
    let resolve: unknown;
    let reject: unknown;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

/** The error Lambda's Node.js runtime reports for a handler's error: its name, and the error document as the message. */
function lambdaError(e: unknown): Error {
  const err = e instanceof Error ? e : new Error(String(e));
  const out = new Error(JSON.stringify({ errorType: err.name, errorMessage: err.message, trace: (err.stack ?? '').split('\n') }));
  out.name = err.name;
  return out;
}

function localHandler(target: TaskTarget): (input: Json) => Promise<Json> {
  const fn = (handlers as unknown as Record<string, Handler>)[target.functionName];
  if (typeof fn !== 'function') throw new Error(`handlers.ts exports no function '${target.functionName}'`);
  return async (input) => {
    const payload = target.lambdaInvoke ? (input as { Payload: Json }).Payload : input;
    let result: Json;
    try {
      result = JSON.parse(JSON.stringify((await fn(payload)) ?? null)) as Json;
    } catch (e) {
      throw lambdaError(e);
    }
    return target.lambdaInvoke ? { ExecutedVersion: '$LATEST', Payload: result, StatusCode: 200 } : result;
  };
}

type Scope = { States?: Record<string, { Type?: string; Branches?: unknown[]; Iterator?: unknown; ItemProcessor?: unknown }> };

/** The names of a document's Wait states, at any depth (branches, item processors). */
function waitStates(scope: unknown): string[] {
  const states = (scope as Scope | undefined)?.States ?? {};
  return Object.entries(states).flatMap(([name, s]) => [...(s.Type === 'Wait' ? [name] : []), ...[...(s.Branches ?? []), s.Iterator, s.ItemProcessor].flatMap(waitStates)]);
}

/**
 * Runs `doc` on `input`. `executionId` is what `$$.Execution.Id` reads: the
 * workflow id of the same run on unum, where it is not an execution ARN
 * (docs/migrating-from-step-functions.md, "Differences from Step Functions").
 */
export async function runOnPeer(doc: CorpusDocument, input: Json, executionId: string): Promise<Outcome> {
  ensureWithResolvers();
  // unum's importer has validated the document; the peer's older asl-validator refuses `${...}` resources.
  const machine = new StateMachine(doc.asl as unknown as Peer.StateMachineDefinition, { validationOptions: { noValidate: true } });
  const taskResourceLocalHandlers = Object.fromEntries(Object.entries(doc.tasks).map(([state, target]) => [state, localHandler(target)]));
  // Retries wait 0 ms: the wait does not change the outcome.
  const retryIntervalOverrides = Object.fromEntries(Object.keys(doc.tasks).map((state) => [state, 0]));
  // Waits end at once: unum's run on the engine is scaled in time, and a wait does not change the outcome.
  const waitTimeOverrides = Object.fromEntries(waitStates(doc.asl).map((state) => [state, 0]));
  try {
    const output = await machine.run(input, { overrides: { taskResourceLocalHandlers, retryIntervalOverrides, waitTimeOverrides }, context: { Execution: { Id: executionId } } }).result;
    return succeeded(output as Json);
  } catch (e) {
    if (!(e instanceof ExecutionError)) throw e;
    const cause = e.cause as Error;
    return failed(cause.name, cause.message);
  }
}
