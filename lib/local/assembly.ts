/**
 * Reads a synthesized cloud assembly (`cdk.out`) as plain JSON: which Lambda
 * functions exist (bundle directory, handler, timeout, memory, environment,
 * async-invoke settings), which DynamoDB tables, and which Unum workflows (from
 * the `unum-ir.json` each workflow function ships beside its bundle).
 *
 * lib/local must not import aws-cdk-lib, so this is the engine's only view of
 * the app: exactly what would deploy.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ENV, IR_FILE_NAME, type NodeIR } from '../../runtime/ir';

/** Lambda's async-invoke defaults (EventInvokeConfig absent). */
const DEFAULT_RETRY_ATTEMPTS = 2;
const DEFAULT_MAX_EVENT_AGE_SECONDS = 21600;
/** CloudFormation defaults of AWS::Lambda::Function. */
const DEFAULT_TIMEOUT_SECONDS = 3;
const DEFAULT_MEMORY_MB = 128;

export interface AsyncInvokeConfig {
  /** 0-2: how often Lambda runs a failed async event again. */
  readonly retryAttempts: number;
  readonly maxEventAgeSeconds: number;
  /** Function name of the on-failure destination, if it is a function of this app. */
  readonly onFailure?: string;
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
}

export interface LocalApp {
  readonly dir: string;
  readonly functions: ReadonlyMap<string, LocalFunction>;
  readonly tables: readonly LocalTable[];
  readonly workflows: ReadonlyMap<string, LocalWorkflow>;
  /**
   * Stacks with workflow functions but no IR beside them: synthesized without
   * their assets (`aws:cdk:bundling-stacks` excluded them), so their workflows
   * are unknown here.
   */
  readonly unbundledStacks: readonly string[];
}

type Resource = { Type: string; Properties?: Record<string, unknown>; Metadata?: Record<string, unknown> };
type Template = { Resources?: Record<string, Resource> };
type Artifact = { type: string; properties?: { templateFile?: string; stackName?: string; directoryName?: string } };

/** Reads every stack of the assembly in `dir` (nested stage assemblies included). */
export function readCloudAssembly(dir: string): LocalApp {
  const absDir = path.resolve(dir);
  const functions = new Map<string, LocalFunction>();
  const tables: LocalTable[] = [];
  for (const stack of listStacks(absDir)) {
    readStack(stack, functions, tables);
  }
  return { dir: absDir, functions, tables, workflows: groupWorkflows(functions), unbundledStacks: unbundledStacks(functions.values()) };
}

/** A workflow node function (it has the table, and is not the failure recorder) whose asset holds no IR. */
function unbundledStacks(functions: Iterable<LocalFunction>): string[] {
  const stacks = new Set<string>();
  for (const f of functions) {
    if (!f.ir && f.environment[ENV.table] !== undefined && f.environment[ENV.entryNode] === undefined) stacks.add(f.stack);
  }
  return [...stacks];
}

/** The error for a workflow name the app does not have, saying which stacks were synthesized without assets. */
export function noWorkflowError(app: LocalApp, name: string): string {
  const have = [...app.workflows.keys()].join(', ') || 'none';
  const unbundled = app.unbundledStacks.length === 0
    ? ''
    : `; stack(s) ${app.unbundledStacks.join(', ')} were synthesized without their assets (aws:cdk:bundling-stacks excluded them): synthesize every stack, e.g. \`npx cdk synth\` with no stack named`;
  return `no workflow '${name}' in ${app.dir} (have: ${have})${unbundled}`;
}

/** Several assemblies as one app (e.g. the examples and the fault-test workflows on one engine). */
export function readCloudAssemblies(dirs: readonly string[]): LocalApp {
  const apps = dirs.map(readCloudAssembly);
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
  return { dir: apps[0]?.dir ?? '', functions, tables: apps.flatMap((a) => a.tables), workflows, unbundledStacks: apps.flatMap((a) => a.unbundledStacks) };
}

interface StackFile {
  readonly name: string;
  readonly dir: string;
  readonly template: Template;
}

function listStacks(dir: string): StackFile[] {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${dir} is not a cloud assembly (no manifest.json); run 'cdk synth' first`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { artifacts?: Record<string, Artifact> };
  const stacks: StackFile[] = [];
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    const props = artifact.properties ?? {};
    if (artifact.type === 'aws:cloudformation:stack' && props.templateFile) {
      const template = JSON.parse(fs.readFileSync(path.join(dir, props.templateFile), 'utf8')) as Template;
      stacks.push({ name: props.stackName ?? id, dir, template });
    } else if (artifact.type === 'cdk:cloud-assembly' && props.directoryName) {
      stacks.push(...listStacks(path.join(dir, props.directoryName)));
    }
  }
  return stacks;
}

function readStack(stack: StackFile, functions: Map<string, LocalFunction>, tables: LocalTable[]): void {
  const resources = stack.template.Resources ?? {};
  const names = new Map<string, string>();
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type === 'AWS::Lambda::Function') {
      names.set(id, typeof r.Properties?.FunctionName === 'string' ? r.Properties.FunctionName : `${stack.name}-${id}`);
    } else if (r.Type === 'AWS::DynamoDB::Table') {
      const name = typeof r.Properties?.TableName === 'string' ? r.Properties.TableName : `${stack.name}-${id}`;
      names.set(id, name);
      const ttl = r.Properties?.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
      tables.push({ stack: stack.name, logicalId: id, tableName: name, ...(ttl?.Enabled !== false && ttl?.AttributeName ? { ttlAttribute: ttl.AttributeName } : {}) });
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
    const onFailure = destination === undefined ? undefined : functionNameOf(resolve(destination));
    asyncConfigs.set(target, {
      retryAttempts: typeof p.MaximumRetryAttempts === 'number' ? p.MaximumRetryAttempts : DEFAULT_RETRY_ATTEMPTS,
      maxEventAgeSeconds: typeof p.MaximumEventAgeInSeconds === 'number' ? p.MaximumEventAgeInSeconds : DEFAULT_MAX_EVENT_AGE_SECONDS,
      ...(onFailure ? { onFailure } : {}),
    });
  }
  for (const [id, r] of Object.entries(resources)) {
    if (r.Type !== 'AWS::Lambda::Function') continue;
    const assetPath = r.Metadata?.['aws:asset:path'];
    if (typeof assetPath !== 'string') continue; // inline or image code: nothing local to run
    const p = r.Properties ?? {};
    const functionName = names.get(id) as string;
    const assetDir = path.resolve(stack.dir, assetPath);
    const variables = ((p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables) ?? {};
    const environment: Record<string, string> = {};
    for (const [k, v] of Object.entries(variables)) {
      const value = resolve(v);
      if (value !== undefined) environment[k] = value;
    }
    const irFile = path.join(assetDir, IR_FILE_NAME);
    functions.set(functionName, {
      stack: stack.name,
      logicalId: id,
      functionName,
      assetDir,
      handler: typeof p.Handler === 'string' ? p.Handler : 'index.handler',
      timeoutSeconds: typeof p.Timeout === 'number' ? p.Timeout : DEFAULT_TIMEOUT_SECONDS,
      memoryMb: typeof p.MemorySize === 'number' ? p.MemorySize : DEFAULT_MEMORY_MB,
      environment,
      async: asyncConfigs.get(functionName) ?? { retryAttempts: DEFAULT_RETRY_ATTEMPTS, maxEventAgeSeconds: DEFAULT_MAX_EVENT_AGE_SECONDS },
      ...(fs.existsSync(irFile) ? { ir: JSON.parse(fs.readFileSync(irFile, 'utf8')) as NodeIR } : {}),
    });
  }
}

const REGION = 'us-east-1';
const ACCOUNT = '000000000000';

/** The local value of a template expression: names for Refs, fake ARNs for GetAtt Arn. */
function resolveIntrinsic(v: unknown, resources: Record<string, Resource>, names: Map<string, string>): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.Ref === 'string') {
    if (o.Ref === 'AWS::Region') return REGION;
    if (o.Ref === 'AWS::AccountId') return ACCOUNT;
    if (o.Ref === 'AWS::Partition') return 'aws';
    if (o.Ref === 'AWS::URLSuffix') return 'amazonaws.com';
    return names.get(o.Ref);
  }
  const getAtt = o['Fn::GetAtt'];
  if (Array.isArray(getAtt) && getAtt[1] === 'Arn') {
    const id = String(getAtt[0]);
    const name = names.get(id);
    if (name === undefined) return undefined;
    return resources[id]?.Type === 'AWS::Lambda::Function'
      ? functionArn(name)
      : `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`;
  }
  const join = o['Fn::Join'];
  if (Array.isArray(join) && Array.isArray(join[1])) {
    const parts = (join[1] as unknown[]).map((p) => resolveIntrinsic(p, resources, names));
    return parts.every((p) => p !== undefined) ? parts.join(String(join[0])) : undefined;
  }
  return undefined;
}

export function functionArn(name: string): string {
  return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name}`;
}

/** The function name in a function ARN, partial ARN or plain name, and its qualifier. */
export function parseFunctionRef(ref: string): { name: string; qualifier?: string } {
  const m = /^(?:arn:[^:]+:lambda:[^:]*:[^:]*:function:|[0-9]{12}:function:)?([^:]+)(?::([^:]+))?$/.exec(ref);
  if (!m) return { name: ref };
  return { name: m[1] as string, ...(m[2] ? { qualifier: m[2] } : {}) };
}

function functionNameOf(ref: string | undefined): string | undefined {
  if (ref === undefined) return undefined;
  return ref.includes(':lambda:') || ref.includes(':function:') ? parseFunctionRef(ref).name : ref;
}

function groupWorkflows(functions: Map<string, LocalFunction>): Map<string, LocalWorkflow> {
  const byName = new Map<string, LocalFunction[]>();
  for (const fn of functions.values()) {
    if (!fn.ir) continue;
    const key = fn.ir.workflow;
    byName.set(key, [...(byName.get(key) ?? []), fn]);
  }
  const workflows = new Map<string, LocalWorkflow>();
  for (const [name, fns] of byName) {
    const entry = fns.find((f) => f.ir?.entry);
    if (!entry?.ir) throw new Error(`workflow '${name}' has no entry node in ${fns.map((f) => f.assetDir).join(', ')}`);
    const nodes: Record<string, LocalFunction> = {};
    for (const fn of fns) nodes[(fn.ir as NodeIR).node] = fn;
    const tableName = entry.environment[ENV.table];
    if (!tableName) throw new Error(`workflow '${name}': entry function ${entry.functionName} has no ${ENV.table}`);
    workflows.set(name, {
      name,
      entryNode: entry.ir.node,
      entryFunction: entry.functionName,
      nodes,
      tableName,
      ...(entry.async.onFailure ? { failureRecorder: entry.async.onFailure } : {}),
    });
  }
  return workflows;
}
