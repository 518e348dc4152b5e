import * as fs from 'node:fs';
import * as path from 'node:path';
import { IR_FILE_NAME, type NodeIR } from '../../runtime/contract/ir';
import { CloudAssemblyError, readJson, readStacks, type StackArtifact } from './manifest';
import type { WorkflowMetadata } from './metadata';

/** A resource of a stack template, as JSON. */
export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Readonly<Record<string, unknown>>;
  readonly Metadata?: Readonly<Record<string, unknown>>;
}

/** A Lambda function of a template whose code is a local asset. */
export interface AssetFunction {
  readonly logicalId: string;
  readonly properties: Readonly<Record<string, unknown>>;
  /** Absolute directory of the function's asset (the bundle, and `unum-ir.json` for a workflow node). */
  readonly assetDir: string;
  /** The node IR bundled beside the code, when the function is a workflow node. */
  readonly ir?: NodeIR;
}

/** A stack with its template read. */
export interface AssemblyStack extends StackArtifact {
  readonly resources: Readonly<Record<string, TemplateResource>>;
  /** Functions with local code, in template order (inline or image code has nothing local to run). */
  readonly functions: readonly AssetFunction[];
}

/** A workflow node's function, with its IR. */
export type NodeFunction = AssetFunction & { readonly ir: NodeIR };

/** A workflow of the assembly whose every node was bundled with its IR. */
export interface SynthesizedWorkflow {
  readonly stack: string;
  /** Construct path below the stack. */
  readonly constructPath: string;
  readonly metadata: WorkflowMetadata;
  /** Node name -> its function. */
  readonly nodes: Readonly<Record<string, NodeFunction>>;
}

/** A synthesized app (`cdk.out`): its stacks, and its workflows as they would deploy. */
export interface CloudAssembly {
  /** Absolute directory of the assembly. */
  readonly dir: string;
  readonly stacks: readonly AssemblyStack[];
  /** Workflows by name (`workflowName` of the construct). */
  readonly workflows: ReadonlyMap<string, SynthesizedWorkflow>;
  /**
   * Stacks with workflows but no IR beside their functions: synthesized
   * without their assets (`aws:cdk:bundling-stacks` excluded them), so those
   * workflows are not in `workflows`.
   */
  readonly unbundledStacks: readonly string[];
}

/** Reads every stack of the assembly in `dir` (nested stage assemblies included), templates and bundled IR too. */
export function readAssembly(dir: string): CloudAssembly {
  const absDir = path.resolve(dir);
  const stacks = readStacks(absDir).map(withTemplate);
  const workflows = new Map<string, SynthesizedWorkflow>();
  const unbundled = new Set<string>();
  for (const stack of stacks) {
    for (const found of stack.workflows) {
      const workflow = synthesized(stack, found.constructPath, found.metadata);
      if (workflow === undefined) {
        unbundled.add(stack.name);
        continue;
      }
      const other = workflows.get(workflow.metadata.workflow);
      if (other) throw new CloudAssemblyError(`workflow '${workflow.metadata.workflow}' is in more than one stack of ${absDir} (${other.stack}, ${stack.name})`);
      workflows.set(workflow.metadata.workflow, workflow);
    }
  }
  return { dir: absDir, stacks, workflows, unbundledStacks: [...unbundled] };
}

/** The message for a workflow name the app does not have, saying which stacks were synthesized without assets. */
export function noWorkflowError(app: Pick<CloudAssembly, 'dir' | 'unbundledStacks'> & { readonly workflows: ReadonlyMap<string, unknown> }, name: string): string {
  const have = [...app.workflows.keys()].join(', ') || 'none';
  const unbundled = app.unbundledStacks.length === 0
    ? ''
    : `; stack(s) ${app.unbundledStacks.join(', ')} were synthesized without their assets (aws:cdk:bundling-stacks excluded them): synthesize every stack, e.g. \`npx cdk synth\` with no stack named`;
  return `no workflow '${name}' in ${app.dir} (have: ${have})${unbundled}`;
}

function withTemplate(stack: StackArtifact): AssemblyStack {
  if (stack.templateFile === undefined) return { ...stack, resources: {}, functions: [] };
  const template = readJson(path.join(stack.dir, stack.templateFile)) as { Resources?: Record<string, TemplateResource> };
  const resources = template.Resources ?? {};
  const functions: AssetFunction[] = [];
  for (const [logicalId, r] of Object.entries(resources)) {
    const assetPath = r.Metadata?.['aws:asset:path'];
    if (r.Type !== 'AWS::Lambda::Function' || typeof assetPath !== 'string') continue;
    const assetDir = path.resolve(stack.dir, assetPath);
    const irFile = path.join(assetDir, IR_FILE_NAME);
    functions.push({
      logicalId,
      properties: r.Properties ?? {},
      assetDir,
      ...(fs.existsSync(irFile) ? { ir: readJson(irFile) as NodeIR } : {}),
    });
  }
  return { ...stack, resources, functions };
}

/** The workflow with each node's function, or undefined when a node's function has no IR (its stack was not bundled). */
function synthesized(stack: AssemblyStack, constructPath: string, metadata: WorkflowMetadata): SynthesizedWorkflow | undefined {
  const byLogicalId = new Map(stack.functions.map((f) => [f.logicalId, f]));
  const nodes: Record<string, NodeFunction> = {};
  for (const [node, { logicalId }] of Object.entries(metadata.nodes)) {
    const fn = byLogicalId.get(logicalId);
    if (fn?.ir === undefined) return undefined;
    nodes[node] = fn as NodeFunction;
  }
  return { stack: stack.name, constructPath, metadata, nodes };
}
