/**
 * The local engine's view of a synthesized app, read by lib/assembly: which
 * Lambda functions exist (bundle directory, handler, timeout, memory,
 * environment, async-invoke settings), which DynamoDB tables, and which Unum
 * workflows, with the names a deployment would give resolved to local names
 * (a resource CloudFormation names is `<stack>-<logicalId>`).
 *
 * lib/local must not import aws-cdk-lib, so this is the engine's only view of
 * the app: exactly what would deploy.
 */
import { ENV, type NodeIR } from '../../runtime/contract/ir';
import { LOCAL_ACCOUNT, localName, readAssembly, type AssemblyStack, type SynthesizedWorkflow, type TemplateResource } from '../assembly';
import { MAX_EVENT_AGE_SECONDS, RETRY_ATTEMPTS } from '../compiler/function-settings';
import type { TableSchema } from './create-tables';

/** CloudFormation defaults of AWS::Lambda::Function. */
const DEFAULT_TIMEOUT_SECONDS = 3;
const DEFAULT_MEMORY_MB = 128;

/** An on-failure destination of this app: a function or a queue, by local name. */
export type FailureDestination = { readonly function: string } | { readonly queue: string };

export interface AsyncInvokeConfig {
  /** 0-2: how often Lambda runs a failed async event again. */
  readonly retryAttempts: number;
  readonly maxEventAgeSeconds: number;
  /** The on-failure destination, if it is a function or queue of this app. */
  readonly onFailure?: FailureDestination;
}

export interface LocalFunction {
  readonly stack: string;
  readonly logicalId: string;
  readonly functionName: string;
  /** Absolute directory of the function's asset (bundle + unum-ir.json). */
  readonly assetDir: string;
  /** `file.export`, as in the template's `Handler`. */
  readonly handler: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  /** Template environment with intrinsics resolved to local names. */
  readonly environment: Readonly<Record<string, string>>;
  readonly async: AsyncInvokeConfig;
  /** The node IR when the function is a workflow node. */
  readonly ir?: NodeIR;
}

export interface LocalTable {
  readonly stack: string;
  readonly logicalId: string;
  readonly tableName: string;
  readonly ttlAttribute?: string;
  /** Its keys and global secondary indexes, as the template declares them. */
  readonly schema?: TableSchema;
}

export interface LocalWorkflow {
  readonly name: string;
  readonly entryNode: string;
  readonly entryFunction: string;
  /** Node name -> function. */
  readonly nodes: Readonly<Record<string, LocalFunction>>;
  readonly tableName: string;
  /** The failure recorder the nodes' on-failure destinations point at. */
  readonly failureRecorder?: string;
  /** The queue the failure recorder's own on-failure destination points at. */
  readonly deadLetterQueue?: string;
}

export interface LocalApp {
  readonly dir: string;
  readonly functions: ReadonlyMap<string, LocalFunction>;
  readonly tables: readonly LocalTable[];
  /** Names of the app's SQS queues. */
  readonly queues: readonly string[];
  readonly workflows: ReadonlyMap<string, LocalWorkflow>;
  /**
   * Stacks whose workflows have no IR beside their functions: synthesized
   * without their assets (`aws:cdk:bundling-stacks` excluded them), so those
   * workflows cannot run here.
   */
  readonly unbundledStacks: readonly string[];
}

export interface ReadAssemblyOptions {
  /**
   * Put before every table's local name, wherever the app names it (the tables, the functions'
   * environment, the workflows): several engines' tables side by side in one DynamoDB.
   * @default ''
   */
  readonly tablePrefix?: string;
}

/** Reads every stack of the assembly in `dir` (nested stage assemblies included). */
export function readCloudAssembly(dir: string, options: ReadAssemblyOptions = {}): LocalApp {
  const assembly = readAssembly(dir);
  const functions = new Map<string, LocalFunction>();
  const tables: LocalTable[] = [];
  const queues: string[] = [];
  for (const stack of assembly.stacks) readStack(stack, functions, tables, queues, options.tablePrefix ?? '');
  const workflows = new Map<string, LocalWorkflow>();
  for (const [name, workflow] of assembly.workflows) workflows.set(name, localWorkflow(workflow, functions));
  return { dir: assembly.dir, functions, tables, queues, workflows, unbundledStacks: assembly.unbundledStacks };
}

function localWorkflow(workflow: SynthesizedWorkflow, functions: ReadonlyMap<string, LocalFunction>): LocalWorkflow {
  const name = workflow.metadata.workflow;
  const nodes: Record<string, LocalFunction> = {};
  for (const [node, fn] of Object.entries(workflow.nodes)) {
    nodes[node] = functions.get(localName(workflow.stack, fn.logicalId, fn.properties.FunctionName)) as LocalFunction;
  }
  const entry = nodes[workflow.metadata.entry];
  const tableName = entry.environment[ENV.table];
  if (!tableName) throw new Error(`workflow '${name}': entry function ${entry.functionName} has no ${ENV.table}`);
  const recorder = entry.async.onFailure && 'function' in entry.async.onFailure ? entry.async.onFailure.function : undefined;
  const deadLetters = recorder === undefined ? undefined : functions.get(recorder)?.async.onFailure;
  return {
    name,
    entryNode: workflow.metadata.entry,
    entryFunction: entry.functionName,
    nodes,
    tableName,
    ...(recorder ? { failureRecorder: recorder } : {}),
    ...(deadLetters && 'queue' in deadLetters ? { deadLetterQueue: deadLetters.queue } : {}),
  };
}

/** Several assemblies as one app (e.g. the examples and the fault-test workflows on one engine). */
export function readCloudAssemblies(dirs: readonly string[], options: ReadAssemblyOptions = {}): LocalApp {
  const apps = dirs.map((dir) => readCloudAssembly(dir, options));
  const functions = new Map<string, LocalFunction>();
  const workflows = new Map<string, LocalWorkflow>();
  for (const app of apps) {
    for (const [k, v] of app.functions) {
      if (functions.has(k)) throw new Error(`function ${k} is in more than one assembly`);
      functions.set(k, v);
    }
    for (const [k, v] of app.workflows) {
      if (workflows.has(k)) throw new Error(`workflow ${k} is in more than one assembly`);
      workflows.set(k, v);
    }
  }
  return {
    dir: apps[0]?.dir ?? '',
    functions,
    tables: apps.flatMap((a) => a.tables),
    queues: apps.flatMap((a) => a.queues),
    workflows,
    unbundledStacks: apps.flatMap((a) => a.unbundledStacks),
  };
}

function readStack(stack: AssemblyStack, functions: Map<string, LocalFunction>, tables: LocalTable[], queues: string[], tablePrefix: string): void {
  const { resources } = stack;
  const names = new Map<string, string>();
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type === 'AWS::Lambda::Function') {
      names.set(id, localName(stack.name, id, r.Properties?.FunctionName));
    } else if (r.Type === 'AWS::SQS::Queue') {
      const name = localName(stack.name, id, r.Properties?.QueueName);
      names.set(id, name);
      queues.push(name);
    } else if (r.Type === 'AWS::DynamoDB::Table') {
      const name = tablePrefix + localName(stack.name, id, r.Properties?.TableName);
      names.set(id, name);
      const ttl = r.Properties?.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
      const schema = tableSchema(r.Properties ?? {});
      tables.push({
        stack: stack.name,
        logicalId: id,
        tableName: name,
        ...(ttl?.Enabled !== false && ttl?.AttributeName ? { ttlAttribute: ttl.AttributeName } : {}),
        ...(schema ? { schema } : {}),
      });
    }
  }
  const resolve = (v: unknown): string | undefined => resolveIntrinsic(v, resources, names);
  const asyncConfigs = new Map<string, AsyncInvokeConfig>();
  for (const r of Object.values(resources)) {
    if (r.Type !== 'AWS::Lambda::EventInvokeConfig') continue;
    const p = r.Properties ?? {};
    const target = resolve(p.FunctionName);
    if (!target) continue;
    const destination = (p.DestinationConfig as { OnFailure?: { Destination?: unknown } } | undefined)?.OnFailure?.Destination;
    const onFailure = destination === undefined ? undefined : destinationOf(resolve(destination));
    asyncConfigs.set(target, {
      retryAttempts: typeof p.MaximumRetryAttempts === 'number' ? p.MaximumRetryAttempts : RETRY_ATTEMPTS.default,
      maxEventAgeSeconds: typeof p.MaximumEventAgeInSeconds === 'number' ? p.MaximumEventAgeInSeconds : MAX_EVENT_AGE_SECONDS.default,
      ...(onFailure ? { onFailure } : {}),
    });
  }
  for (const { logicalId: id, properties: p, assetDir, ir } of stack.functions) {
    const functionName = names.get(id) as string;
    const variables = ((p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables) ?? {};
    const environment: Record<string, string> = {};
    for (const [k, v] of Object.entries(variables)) {
      const value = resolve(v);
      if (value !== undefined) environment[k] = value;
    }
    functions.set(functionName, {
      stack: stack.name,
      logicalId: id,
      functionName,
      assetDir,
      handler: typeof p.Handler === 'string' ? p.Handler : 'index.handler',
      timeoutSeconds: typeof p.Timeout === 'number' ? p.Timeout : DEFAULT_TIMEOUT_SECONDS,
      memoryMb: typeof p.MemorySize === 'number' ? p.MemorySize : DEFAULT_MEMORY_MB,
      environment,
      async: asyncConfigs.get(functionName) ?? { retryAttempts: RETRY_ATTEMPTS.default, maxEventAgeSeconds: MAX_EVENT_AGE_SECONDS.default },
      ...(ir ? { ir } : {}),
    });
  }
}

/** A table resource's keys and indexes; undefined when it declares no keys (then the engine creates the workflow table's). */
function tableSchema(properties: Record<string, unknown>): TableSchema | undefined {
  const { KeySchema, AttributeDefinitions, GlobalSecondaryIndexes } = properties;
  if (!Array.isArray(KeySchema) || !Array.isArray(AttributeDefinitions)) return undefined;
  return {
    KeySchema,
    AttributeDefinitions,
    ...(Array.isArray(GlobalSecondaryIndexes) ? { GlobalSecondaryIndexes } : {}),
  } as TableSchema;
}

const REGION = 'us-east-1';

/**
 * The local value of a template expression: names for Refs, fake ARNs for
 * GetAtt Arn (functions, queues, tables, roles). (A queue's Ref, its URL, is left unresolved: the engine's
 * endpoint is not known yet, and the functions are not given one for SQS.)
 */
function resolveIntrinsic(v: unknown, resources: Readonly<Record<string, TemplateResource>>, names: Map<string, string>): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.Ref === 'string') {
    if (o.Ref === 'AWS::Region') return REGION;
    if (o.Ref === 'AWS::AccountId') return LOCAL_ACCOUNT;
    if (o.Ref === 'AWS::Partition') return 'aws';
    if (o.Ref === 'AWS::URLSuffix') return 'amazonaws.com';
    return resources[o.Ref]?.Type === 'AWS::SQS::Queue' ? undefined : names.get(o.Ref);
  }
  const getAtt = o['Fn::GetAtt'];
  if (Array.isArray(getAtt) && getAtt[1] === 'Arn') {
    const id = String(getAtt[0]);
    // A role (e.g. the one Scheduler assumes for a workflow's Waits) is named by its logical id here.
    if (resources[id]?.Type === 'AWS::IAM::Role') return `arn:aws:iam::${LOCAL_ACCOUNT}:role/${id}`;
    const name = names.get(id);
    if (name === undefined) return undefined;
    switch (resources[id]?.Type) {
      case 'AWS::Lambda::Function':
        return functionArn(name);
      case 'AWS::SQS::Queue':
        return `arn:aws:sqs:${REGION}:${LOCAL_ACCOUNT}:${name}`;
      default:
        return `arn:aws:dynamodb:${REGION}:${LOCAL_ACCOUNT}:table/${name}`;
    }
  }
  const join = o['Fn::Join'];
  if (Array.isArray(join) && Array.isArray(join[1])) {
    const parts = (join[1] as unknown[]).map((p) => resolveIntrinsic(p, resources, names));
    return parts.every((p) => p !== undefined) ? parts.join(String(join[0])) : undefined;
  }
  return undefined;
}

export function functionArn(name: string): string {
  return `arn:aws:lambda:${REGION}:${LOCAL_ACCOUNT}:function:${name}`;
}

/** The function name in a function ARN, partial ARN or plain name, and its qualifier. */
export function parseFunctionRef(ref: string): { name: string; qualifier?: string } {
  const m = /^(?:arn:[^:]+:lambda:[^:]*:[^:]*:function:|[0-9]{12}:function:)?([^:]+)(?::([^:]+))?$/.exec(ref);
  if (!m) return { name: ref };
  return { name: m[1] as string, ...(m[2] ? { qualifier: m[2] } : {}) };
}

/** A destination ARN (or function name) as a function or queue of this app. */
function destinationOf(ref: string | undefined): FailureDestination | undefined {
  if (ref === undefined) return undefined;
  const queue = /^arn:[^:]+:sqs:[^:]*:[^:]*:(.+)$/.exec(ref);
  if (queue) return { queue: queue[1] as string };
  return { function: ref.includes(':lambda:') || ref.includes(':function:') ? parseFunctionRef(ref).name : ref };
}
