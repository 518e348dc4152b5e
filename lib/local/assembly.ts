/**
 * The local engine's view of a synthesized app, read by lib/assembly: which
 * Lambda functions exist (bundle directory, handler, timeout, memory,
 * environment, async-invoke settings), under which qualifiers (`$LATEST`, and
 * each alias: a deployment's, the entry's `live`), which DynamoDB tables, which
 * Unum workflows and deployment custom resources, with the names a deployment
 * would give resolved to local names (a resource CloudFormation names is `<stack>-<logicalId>`).
 *
 * lib/local must not import aws-cdk-lib, so this is the engine's only view of
 * the app: exactly what would deploy.
 */
import { DEPLOYMENT_ID_PATTERN, ENV, qualifiedName, type Json, type NodeIR } from '../../runtime/contract/ir';
import { CloudAssemblyError, LOCAL_ACCOUNT, localName, readAssembly, type AssemblyStack, type SynthesizedWorkflow, type TemplateResource } from '../assembly';
import { MAX_EVENT_AGE_SECONDS, RETRY_ATTEMPTS } from '../compiler/function-settings';
import type { TableSchema } from './create-tables';

/** CloudFormation defaults of AWS::Lambda::Function. */
const DEFAULT_TIMEOUT_SECONDS = 3;
const DEFAULT_MEMORY_MB = 128;

/** An on-failure destination of this app: a function (with the qualifier its ARN names, if any) or a queue, by local name. */
export type FailureDestination = { readonly function: string; readonly qualifier?: string } | { readonly queue: string };

/** The qualifier of an unqualified invocation. */
export const LATEST = '$LATEST';

/** Lambda's async settings of a qualifier nothing configured. */
export const DEFAULT_ASYNC: AsyncInvokeConfig = { retryAttempts: RETRY_ATTEMPTS.default, maxEventAgeSeconds: MAX_EVENT_AGE_SECONDS.default };

/** The version an assembly alone publishes of each function (the engine numbers the versions it publishes). */
export const PUBLISHED_VERSION = '1';

/** The custom resource type whose function the engine runs at each deploy (the construct's deployment record and sweeper). */
export const DEPLOYMENT_RESOURCE_TYPE = 'Custom::UnumDeployment';

export interface AsyncInvokeConfig {
  /** 0-2: how often Lambda runs a failed async event again. */
  readonly retryAttempts: number;
  readonly maxEventAgeSeconds: number;
  /** The on-failure destination, if it is a function or queue of this app. */
  readonly onFailure?: FailureDestination;
}

/**
 * One function as one qualifier reaches it: its version's code and settings,
 * and the async settings of that qualifier (an `EventInvokeConfig` is per qualifier).
 */
export interface LocalFunction {
  readonly stack: string;
  readonly logicalId: string;
  /** The function's name, unqualified. */
  readonly functionName: string;
  /** How it is reached: `$LATEST` (unqualified), an alias (a deployment id, `live`) or a version number. */
  readonly qualifier: string;
  /**
   * The version it runs: `$LATEST`, or a number. An assembly alone publishes
   * version `1` of each function; the engine numbers the versions it publishes per function.
   */
  readonly version: string;
  /** The deployment of the assembly it came from (the name of its alias matching `DEPLOYMENT_ID_PATTERN`); absent for a function of no workflow. */
  readonly deployment?: string;
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
  /** The deployment this synth of the workflow is (`DEPLOYMENT_ID_PATTERN`). */
  readonly deployment: string;
  readonly entryNode: string;
  /** The entry function's name, unqualified: runs start at its `live` alias. */
  readonly entryFunction: string;
  /** Node name -> function: at the deployment's alias where the template makes one, else the version published for the deployment. */
  readonly nodes: Readonly<Record<string, LocalFunction>>;
  readonly tableName: string;
  /** The failure recorder the nodes' on-failure destinations point at (unqualified). */
  readonly failureRecorder?: string;
  /** The queue the failure recorder's own on-failure destination points at. */
  readonly deadLetterQueue?: string;
  /** The run-control function (unqualified): stop and redrive invoke its `stop` and `redrive` aliases. */
  readonly runControlFunction?: string;
}

/** A `Custom::UnumDeployment` resource: the function CloudFormation sends its requests to, and its properties, resolved. */
export interface LocalCustomResource {
  readonly stack: string;
  readonly logicalId: string;
  readonly type: string;
  /** The function of its `ServiceToken`, unqualified name and qualifier. */
  readonly serviceToken: { readonly functionName: string; readonly qualifier?: string };
  /** Its `Properties` (`ServiceToken` included), intrinsics resolved to local names. */
  readonly properties: Readonly<Record<string, Json>>;
  /**
   * Where its properties name a function's published version (`Fn::GetAtt [<version>, Version]`):
   * the engine writes there the number it published (the reader cannot know it).
   */
  readonly versions: ReadonlyArray<{ readonly path: ReadonlyArray<string | number>; readonly functionName: string }>;
}

export interface LocalApp {
  readonly dir: string;
  /**
   * Every function by its name (`$LATEST`) and by each qualified name
   * (`name:<alias>`, `name:<version>`), as the Invoke API resolves them.
   */
  readonly functions: ReadonlyMap<string, LocalFunction>;
  readonly tables: readonly LocalTable[];
  /** Names of the app's SQS queues. */
  readonly queues: readonly string[];
  readonly workflows: ReadonlyMap<string, LocalWorkflow>;
  /** The `Custom::UnumDeployment` resources, which the engine runs at each deploy. */
  readonly customResources: readonly LocalCustomResource[];
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
  const customResources: LocalCustomResource[] = [];
  for (const stack of assembly.stacks) readStack(stack, { functions, tables, queues, customResources }, options.tablePrefix ?? '');
  const workflows = new Map<string, LocalWorkflow>();
  for (const [name, workflow] of assembly.workflows) workflows.set(name, localWorkflow(workflow, functions));
  return { dir: assembly.dir, functions, tables, queues, workflows, customResources, unbundledStacks: assembly.unbundledStacks };
}

function localWorkflow(workflow: SynthesizedWorkflow, functions: ReadonlyMap<string, LocalFunction>): LocalWorkflow {
  const { workflow: name, deployment, failureRecorder, deadLetterQueueLogicalId } = workflow.metadata;
  const nodes: Record<string, LocalFunction> = {};
  for (const [node, fn] of Object.entries(workflow.nodes)) {
    const functionName = localName(workflow.stack, fn.logicalId, fn.properties.FunctionName);
    // The deployment's alias when the template makes it, else the version it will name (the deployment function makes the alias).
    const pinned = functions.get(qualifiedName(functionName, deployment)) ?? functions.get(qualifiedRef(functionName, PUBLISHED_VERSION));
    if (!pinned) throw new CloudAssemblyError(`workflow '${name}': function ${functionName} of node ${node} publishes no version for deployment ${deployment}: synthesize again with this unum-cdk`);
    nodes[node] = pinned;
  }
  const entry = nodes[workflow.metadata.entry] as LocalFunction;
  const tableName = entry.environment[ENV.table];
  if (!tableName) throw new Error(`workflow '${name}': entry function ${entry.functionName} has no ${ENV.table}`);
  const recorder = entry.async.onFailure && 'function' in entry.async.onFailure ? entry.async.onFailure : undefined;
  const deadLetters = recorder === undefined ? undefined : functions.get(qualifiedRef(recorder.function, recorder.qualifier))?.async.onFailure;
  const deadLetterQueue = deadLetters && 'queue' in deadLetters ? deadLetters.queue : deadLetterQueueLogicalId && localName(workflow.stack, deadLetterQueueLogicalId);
  return {
    name,
    deployment,
    entryNode: workflow.metadata.entry,
    entryFunction: entry.functionName,
    nodes,
    tableName,
    failureRecorder: recorder?.function ?? failureRecorder.functionName,
    ...(deadLetterQueue ? { deadLetterQueue } : {}),
    ...(workflow.metadata.runControl ? { runControlFunction: localName(workflow.stack, workflow.metadata.runControl.logicalId, workflow.metadata.runControl.functionName) } : {}),
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
    customResources: apps.flatMap((a) => a.customResources),
    unbundledStacks: apps.flatMap((a) => a.unbundledStacks),
  };
}

/** What the stacks of an assembly add up to. */
interface AppParts {
  readonly functions: Map<string, LocalFunction>;
  readonly tables: LocalTable[];
  readonly queues: string[];
  readonly customResources: LocalCustomResource[];
}

/** The key of a function's entry in `LocalApp.functions`: its name for `$LATEST`, else `name:qualifier`. */
export const qualifiedRef = (functionName: string, qualifier: string | undefined): string =>
  qualifier === undefined || qualifier === LATEST ? functionName : qualifiedName(functionName, qualifier);

function readStack(stack: AssemblyStack, parts: AppParts, tablePrefix: string): void {
  const { resources } = stack;
  const names = new Map<string, string>();
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type === 'AWS::Lambda::Function') {
      names.set(id, localName(stack.name, id, r.Properties?.FunctionName));
    } else if (r.Type === 'AWS::SQS::Queue') {
      const name = localName(stack.name, id, r.Properties?.QueueName);
      names.set(id, name);
      parts.queues.push(name);
    } else if (r.Type === 'AWS::DynamoDB::Table') {
      const name = tablePrefix + localName(stack.name, id, r.Properties?.TableName);
      names.set(id, name);
      const ttl = r.Properties?.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
      const schema = tableSchema(r.Properties ?? {});
      parts.tables.push({
        stack: stack.name,
        logicalId: id,
        tableName: name,
        ...(ttl?.Enabled !== false && ttl?.AttributeName ? { ttlAttribute: ttl.AttributeName } : {}),
        ...(schema ? { schema } : {}),
      });
    }
  }
  const resolve = (v: unknown): string | undefined => resolveIntrinsic(v, resources, names);
  // Per function: whether a version is published, its aliases, and the async settings of each qualifier.
  const published = new Set<string>();
  const aliases = new Map<string, string[]>();
  const asyncConfigs = new Map<string, AsyncInvokeConfig>();
  for (const r of Object.values(resources)) {
    const p = r.Properties ?? {};
    if (r.Type === 'AWS::Lambda::Version') {
      const target = resolve(p.FunctionName);
      if (target !== undefined) published.add(target);
      continue;
    }
    if (r.Type === 'AWS::Lambda::Alias') {
      const target = resolve(p.FunctionName);
      if (target !== undefined && typeof p.Name === 'string') aliases.set(target, [...(aliases.get(target) ?? []), p.Name]);
      continue;
    }
    if (r.Type !== 'AWS::Lambda::EventInvokeConfig') continue;
    const target = resolve(p.FunctionName);
    if (!target) continue;
    const destination = (p.DestinationConfig as { OnFailure?: { Destination?: unknown } } | undefined)?.OnFailure?.Destination;
    const onFailure = destination === undefined ? undefined : failureDestination(resolve(destination));
    asyncConfigs.set(qualifiedRef(target, typeof p.Qualifier === 'string' ? p.Qualifier : LATEST), {
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
    const aliasNames = aliases.get(functionName) ?? [];
    // The deployment's alias names it; a function whose aliases its deployment function makes knows it from its IR or environment.
    const deployment = aliasNames.find((a) => DEPLOYMENT_ID_PATTERN.test(a)) ?? ir?.deployment ?? environment[ENV.deployment];
    const latest: LocalFunction = {
      stack: stack.name,
      logicalId: id,
      functionName,
      qualifier: LATEST,
      version: LATEST,
      ...(deployment ? { deployment } : {}),
      assetDir,
      handler: typeof p.Handler === 'string' ? p.Handler : 'index.handler',
      timeoutSeconds: typeof p.Timeout === 'number' ? p.Timeout : DEFAULT_TIMEOUT_SECONDS,
      memoryMb: typeof p.MemorySize === 'number' ? p.MemorySize : DEFAULT_MEMORY_MB,
      environment,
      async: asyncConfigs.get(functionName) ?? DEFAULT_ASYNC,
      ...(ir ? { ir } : {}),
    };
    parts.functions.set(functionName, latest);
    if (!published.has(functionName) && aliasNames.length === 0) continue;
    // One Version resource per function and synth: the aliases all name it.
    const version: LocalFunction = { ...latest, qualifier: PUBLISHED_VERSION, version: PUBLISHED_VERSION, async: asyncConfigs.get(qualifiedRef(functionName, PUBLISHED_VERSION)) ?? DEFAULT_ASYNC };
    parts.functions.set(qualifiedRef(functionName, PUBLISHED_VERSION), version);
    for (const alias of aliasNames) {
      const key = qualifiedRef(functionName, alias);
      parts.functions.set(key, { ...version, qualifier: alias, async: asyncConfigs.get(key) ?? DEFAULT_ASYNC });
    }
  }
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type !== DEPLOYMENT_RESOURCE_TYPE) continue;
    const token = parseFunctionRef(resolve(r.Properties?.ServiceToken) ?? '');
    const versions: Array<{ path: Array<string | number>; functionName: string }> = [];
    const versionOf = (v: unknown, at: Array<string | number>): void => {
      const getAtt = (v as Record<string, unknown>)['Fn::GetAtt'];
      const version = Array.isArray(getAtt) && getAtt[1] === 'Version' ? resources[String(getAtt[0])] : undefined;
      const functionName = version?.Type === 'AWS::Lambda::Version' ? resolve(version.Properties?.FunctionName) : undefined;
      if (functionName !== undefined) versions.push({ path: at, functionName });
    };
    parts.customResources.push({
      stack: stack.name,
      logicalId: id,
      type: r.Type,
      serviceToken: { functionName: token.name, ...(token.qualifier ? { qualifier: token.qualifier } : {}) },
      properties: resolveProperties(r.Properties ?? {}, resolve, versionOf, []),
      versions,
    });
  }
}

/**
 * A resource's properties as CloudFormation sends them to a custom resource:
 * every intrinsic resolved (left out where it cannot be), each one shown to
 * `visit` with its path first.
 */
function resolveProperties(
  properties: Readonly<Record<string, unknown>>,
  resolve: (v: unknown) => string | undefined,
  visit: (intrinsic: unknown, path: Array<string | number>) => void,
  at: Array<string | number>,
): Record<string, Json> {
  const deep = (v: unknown, path: Array<string | number>): Json | undefined => {
    if (v === null || typeof v === 'boolean' || typeof v === 'number') return v;
    if (Array.isArray(v)) return v.map((x, i) => deep(x, [...path, i])).filter((x): x is Json => x !== undefined);
    if (typeof v !== 'object') return resolve(v);
    const keys = Object.keys(v as object);
    if (keys.length === 1 && (keys[0] === 'Ref' || keys[0]?.startsWith('Fn::'))) {
      visit(v, path);
      return resolve(v);
    }
    return resolveProperties(v as Record<string, unknown>, resolve, visit, path);
  };
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(properties)) {
    const value = deep(v, [...at, k]);
    if (value !== undefined) out[k] = value;
  }
  return out;
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
    const referenced = resources[o.Ref];
    // A role is named by its logical id here (as its ARN below).
    if (referenced?.Type === 'AWS::IAM::Role') return o.Ref;
    // An alias's or a version's Ref is its qualified ARN.
    if (referenced?.Type === 'AWS::Lambda::Alias' || referenced?.Type === 'AWS::Lambda::Version') return qualifiedArn(referenced, resources, names);
    return referenced?.Type === 'AWS::SQS::Queue' ? undefined : names.get(o.Ref);
  }
  const getAtt = o['Fn::GetAtt'];
  if (Array.isArray(getAtt) && resources[String(getAtt[0])]?.Type === 'AWS::Lambda::Version' && getAtt[1] === 'Version') return PUBLISHED_VERSION;
  if (Array.isArray(getAtt) && resources[String(getAtt[0])]?.Type === 'AWS::Lambda::Alias' && getAtt[1] === 'AliasArn') {
    return qualifiedArn(resources[String(getAtt[0])] as TemplateResource, resources, names);
  }
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

/** The ARN of an alias (qualified with its name) or of a version (with the one number an assembly publishes). */
function qualifiedArn(resource: TemplateResource, resources: Readonly<Record<string, TemplateResource>>, names: Map<string, string>): string | undefined {
  const p = resource.Properties ?? {};
  const name = resolveIntrinsic(p.FunctionName, resources, names);
  if (name === undefined) return undefined;
  return `${functionArn(parseFunctionRef(name).name)}:${resource.Type === 'AWS::Lambda::Alias' ? String(p.Name) : PUBLISHED_VERSION}`;
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
export function failureDestination(ref: string | undefined): FailureDestination | undefined {
  if (ref === undefined) return undefined;
  const queue = /^arn:[^:]+:sqs:[^:]*:[^:]*:(.+)$/.exec(ref);
  if (queue) return { queue: queue[1] as string };
  const { name, qualifier } = parseFunctionRef(ref);
  return { function: name, ...(qualifier ? { qualifier } : {}) };
}
