/**
 * Finding a workflow's entry function and table: from a deployed stack's
 * outputs, or from a synthesized cloud assembly (`cdk.out`) through the
 * `unum:workflow` construct metadata, read by lib/assembly.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SQSClient } from '@aws-sdk/client-sqs';
import * as assembly from '../assembly';
import type { AssemblyWorkflow } from '../assembly';
import { UnumClientError } from './errors';
import type { WorkflowLocation } from './types';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The local engine the environment points at, as `unum local start` prints
 * it for another shell (`export AWS_ENDPOINT_URL_DYNAMODB=...`): the rule the
 * `unum` commands follow, so a script in that shell finds the same tables.
 */
export function localEngineOf(env: Environment): Environment | undefined {
  return env.AWS_ENDPOINT_URL_DYNAMODB ? env : undefined;
}

/**
 * Node names of the workflow's callback Tasks, from the IR bundled with its
 * functions; undefined when the assembly has no IR for it (synthesized
 * without its assets) or its templates and IR files cannot be read: the
 * workflow was found by its metadata, and these names only add to what the
 * client reports, so a partial assembly still gives a client.
 */
export function callbackTasksOf(dir: string, found: AssemblyWorkflow): string[] | undefined {
  let synthesized: assembly.SynthesizedWorkflow | undefined;
  try {
    synthesized = assembly.readAssembly(dir).workflows.get(found.workflow);
  } catch {
    return undefined;
  }
  if (synthesized?.stack !== found.stack) return undefined;
  return Object.values(synthesized.nodes).filter((fn) => fn.ir.callback).map((fn) => fn.ir.node).sort();
}

/** Where a workflow of the assembly is on the local engine whose `environment` is given. */
export function localLocation(found: AssemblyWorkflow, engine: Environment): WorkflowLocation {
  const sqs = engine.AWS_ENDPOINT_URL_SQS;
  return {
    entryFunction: found.entryFunction,
    table: (engine[assembly.LOCAL_TABLE_PREFIX_VARIABLE] ?? '') + (typeof found.table === 'string' ? found.table : assembly.localName(found.stack, found.table.logicalId)),
    workflow: found.workflow,
    ...(sqs && found.deadLetterQueue ? { deadLetterQueue: assembly.localQueueUrl(sqs, assembly.localName(found.stack, found.deadLetterQueue.logicalId)) } : {}),
    ...(found.taskResponseFunction ? { taskResponseFunction: found.taskResponseFunction } : {}),
    ...(found.runControlFunction ? { runControlFunction: found.runControlFunction } : {}),
  };
}

/** SDK clients of the local engine whose `environment` is given, for those not passed in. */
export function localClients(engine: Environment, given: { lambda?: LambdaClient; dynamodb?: DynamoDBClient; sqs?: SQSClient }): { lambda: LambdaClient; dynamodb: DynamoDBClient; sqs: SQSClient } {
  const { AWS_REGION: region, AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = engine;
  const config = (endpoint: string | undefined) => ({
    ...(endpoint ? { endpoint } : {}),
    ...(region ? { region } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } } : {}),
  });
  return {
    lambda: given.lambda ?? new LambdaClient(config(engine.AWS_ENDPOINT_URL_LAMBDA)),
    dynamodb: given.dynamodb ?? new DynamoDBClient(config(engine.AWS_ENDPOINT_URL_DYNAMODB)),
    sqs: given.sqs ?? new SQSClient(config(engine.AWS_ENDPOINT_URL_SQS)),
  };
}

export type { AssemblyWorkflow };

/** Suffixes of the CfnOutputs every UnumWorkflow adds (`<prefix>EntryFunctionName`, ...). */
const OUTPUT = { entryFunction: 'EntryFunctionName', table: 'TableName', workflow: 'WorkflowName', deadLetterQueue: 'DeadLetterQueueUrl', taskResponse: 'TaskResponseFunctionName', runControl: 'RunControlFunctionName' } as const;

/** The outputs prefix of a workflow: its construct path below the stack, non-alphanumerics removed. */
function outputPrefix(constructPathBelowStack: string): string {
  return constructPathBelowStack.replace(/[^A-Za-z0-9]/g, '');
}

/**
 * The location of a workflow from a stack's outputs (`{ key: value }`, as in
 * one stack of `cdk deploy --outputs-file`). `workflow` is the construct path
 * below the stack (usually the construct id); it may be omitted when the
 * outputs hold one workflow.
 */
export function locationFromOutputs(outputs: Readonly<Record<string, string>>, workflow?: string): WorkflowLocation {
  const prefixes = Object.keys(outputs)
    .filter((k) => k.endsWith(OUTPUT.entryFunction))
    .map((k) => k.slice(0, -OUTPUT.entryFunction.length));
  const wanted = workflow === undefined ? undefined : outputPrefix(workflow);
  const matches = wanted === undefined ? prefixes : prefixes.filter((p) => p.toLowerCase() === wanted.toLowerCase());
  if (matches.length !== 1) {
    const what = workflow === undefined ? 'several workflows: name one' : `no workflow '${workflow}'`;
    throw new UnumClientError(`stack outputs have ${prefixes.length === 0 ? 'no unum workflow' : `${what} (have: ${prefixes.join(', ')})`}`);
  }
  const prefix = matches[0];
  const [table, name] = [OUTPUT.table, OUTPUT.workflow].map((suffix) => {
    const value = outputs[`${prefix}${suffix}`];
    if (value === undefined) throw new UnumClientError(`stack outputs have ${prefix}${OUTPUT.entryFunction} but no ${prefix}${suffix}`);
    return value;
  });
  const deadLetterQueue = outputs[`${prefix}${OUTPUT.deadLetterQueue}`];
  const taskResponseFunction = outputs[`${prefix}${OUTPUT.taskResponse}`];
  const runControlFunction = outputs[`${prefix}${OUTPUT.runControl}`];
  return {
    entryFunction: outputs[`${prefix}${OUTPUT.entryFunction}`],
    table,
    workflow: name,
    ...(deadLetterQueue === undefined ? {} : { deadLetterQueue }),
    ...(taskResponseFunction === undefined ? {} : { taskResponseFunction }),
    ...(runControlFunction === undefined ? {} : { runControlFunction }),
  };
}

/** Every unum workflow of the assembly in `dir`, nested stage assemblies included. */
export function workflowsInAssembly(dir: string): AssemblyWorkflow[] {
  return asClientError(() => assembly.workflowsInAssembly(dir));
}

/** The one workflow of the assembly matching `workflow` (name or construct path) and `stack`, if given. */
export function findAssemblyWorkflow(dir: string, workflow?: string, stack?: string): AssemblyWorkflow {
  return asClientError(() => assembly.findAssemblyWorkflow(dir, workflow, stack));
}

/** The client reports every problem as an `UnumClientError` (the CLI prints those as messages). */
function asClientError<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof assembly.CloudAssemblyError) throw new UnumClientError(err.message);
    throw err;
  }
}
