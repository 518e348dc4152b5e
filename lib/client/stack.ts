/**
 * Finding a workflow's entry function and table: from a deployed stack's
 * outputs, or from a synthesized cloud assembly (`cdk.out`) through the
 * `unum:workflow` construct metadata (lib/construct/workflow-metadata.ts).
 * Plain JSON reading: lib/client does not import aws-cdk-lib.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { UnumClientError } from './errors';
import type { WorkflowLocation } from './client';

/** Suffixes of the CfnOutputs every UnumWorkflow adds (`<prefix>EntryFunctionName`, ...). */
const OUTPUT = { entryFunction: 'EntryFunctionName', table: 'TableName' } as const;

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
  const table = outputs[`${prefix}${OUTPUT.table}`];
  if (table === undefined) throw new UnumClientError(`stack outputs have ${prefix}${OUTPUT.entryFunction} but no ${prefix}${OUTPUT.table}`);
  return { entryFunction: outputs[`${prefix}${OUTPUT.entryFunction}`], table };
}

/** A workflow found in a cloud assembly. */
export interface AssemblyWorkflow {
  readonly stack: string;
  /** Workflow name (`workflowName` of the construct). */
  readonly workflow: string;
  /** Construct path below the stack: the prefix of its stack outputs. */
  readonly constructPath: string;
  /** Deployed name of the entry function (deterministic, known at synth). */
  readonly entryFunction: string;
  /** The table name when it is a literal; for a table the stack creates, CloudFormation names it at deploy. */
  readonly table: string | { readonly logicalId: string };
}

type Manifest = { artifacts?: Record<string, { type: string; additionalMetadataFile?: string; metadata?: MetadataMap; properties?: { stackName?: string; directoryName?: string } }> };
type MetadataMap = Record<string, Array<{ type: string; data?: unknown }>>;
type WorkflowMetadata = {
  workflow: string;
  entry: string;
  nodes: Record<string, { functionName: string }>;
  tableLogicalId?: string;
  tableName: unknown;
};

/** Every unum workflow of the assembly in `dir`, nested stage assemblies included. */
export function workflowsInAssembly(dir: string): AssemblyWorkflow[] {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new UnumClientError(`${dir} is not a cloud assembly (no manifest.json): run 'cdk synth' first`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  const found: AssemblyWorkflow[] = [];
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    if (artifact.type === 'cdk:cloud-assembly' && artifact.properties?.directoryName) {
      found.push(...workflowsInAssembly(path.join(dir, artifact.properties.directoryName)));
    }
    if (artifact.type !== 'aws:cloudformation:stack') continue;
    const stack = artifact.properties?.stackName ?? id;
    // Newer CDK versions move construct metadata out of the manifest into a side file.
    const metadata: MetadataMap = artifact.additionalMetadataFile
      ? JSON.parse(fs.readFileSync(path.join(dir, artifact.additionalMetadataFile), 'utf8')) as MetadataMap
      : artifact.metadata ?? {};
    for (const [constructPath, entries] of Object.entries(metadata)) {
      for (const entry of entries) {
        if (entry.type !== 'unum:workflow') continue;
        const data = entry.data as WorkflowMetadata;
        found.push({
          stack,
          workflow: data.workflow,
          constructPath: constructPath.split('/').slice(2).join('/'),
          entryFunction: data.nodes[data.entry].functionName,
          table: typeof data.tableName === 'string' ? data.tableName : { logicalId: data.tableLogicalId ?? '?' },
        });
      }
    }
  }
  return found;
}

/** The one workflow of the assembly matching `workflow` (name or construct path) and `stack`, if given. */
export function findAssemblyWorkflow(dir: string, workflow?: string, stack?: string): AssemblyWorkflow {
  const all = workflowsInAssembly(dir);
  const matches = all.filter((w) =>
    (stack === undefined || w.stack === stack) && (workflow === undefined || w.workflow === workflow || w.constructPath === workflow));
  if (matches.length !== 1) {
    const have = all.map((w) => `${w.stack}/${w.workflow}`).join(', ') || 'none';
    throw new UnumClientError(`${matches.length === 0 ? 'no' : 'more than one'} unum workflow${workflow ? ` '${workflow}'` : ''}${stack ? ` in stack ${stack}` : ''} in ${dir} (have: ${have})${matches.length > 1 ? ': pass --workflow or --stack' : ''}`);
  }
  return matches[0];
}
