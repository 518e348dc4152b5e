import * as fs from 'node:fs';
import * as path from 'node:path';
import { WORKFLOW_METADATA_TYPE, type WorkflowMetadata } from './metadata';

/** The `unum:workflow` metadata version this reader reads (`WorkflowMetadata.version`). */
const WORKFLOW_METADATA_VERSION = 2;

/** A directory that is not a readable cloud assembly, or an assembly whose workflows cannot be told apart. */
export class CloudAssemblyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CloudAssemblyError';
  }
}

/** A workflow's `unum:workflow` metadata and where the construct is. */
export interface StackWorkflow {
  /** Construct path below the stack (also the prefix of its stack outputs). */
  readonly constructPath: string;
  readonly metadata: WorkflowMetadata;
}

/** One stack artifact of the assembly, nested stage assemblies included. */
export interface StackArtifact {
  /** Stack name (the artifact id when the manifest names none). */
  readonly name: string;
  /** Directory of the (nested) assembly that holds the stack's files. */
  readonly dir: string;
  /** Template file, relative to `dir`. */
  readonly templateFile?: string;
  /** The unum workflows of the stack, in construct-path order as the metadata lists them. */
  readonly workflows: readonly StackWorkflow[];
}

type MetadataMap = Record<string, Array<{ type: string; data?: unknown }>>;
type Artifact = {
  type: string;
  additionalMetadataFile?: string;
  metadata?: MetadataMap;
  properties?: { templateFile?: string; stackName?: string; directoryName?: string };
};

/** Every stack of the assembly in `dir`, in manifest order, a nested assembly's stacks where it is listed. */
export function readStacks(dir: string): StackArtifact[] {
  const manifestFile = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestFile)) throw new CloudAssemblyError(`${dir} is not a cloud assembly (no manifest.json): run 'cdk synth' first`);
  const manifest = readJson(manifestFile) as { artifacts?: Record<string, Artifact> };
  const stacks: StackArtifact[] = [];
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    const props = artifact.properties ?? {};
    if (artifact.type === 'cdk:cloud-assembly' && props.directoryName) {
      stacks.push(...readStacks(path.join(dir, props.directoryName)));
    } else if (artifact.type === 'aws:cloudformation:stack') {
      stacks.push({
        name: props.stackName ?? id,
        dir,
        ...(props.templateFile ? { templateFile: props.templateFile } : {}),
        workflows: workflowsOf(dir, artifact),
      });
    }
  }
  return stacks;
}

/** The stack's `unum:workflow` entries; newer CDK versions move construct metadata out of the manifest into a side file. */
function workflowsOf(dir: string, artifact: Artifact): StackWorkflow[] {
  const metadata = artifact.additionalMetadataFile
    ? (readJson(path.join(dir, artifact.additionalMetadataFile)) as MetadataMap)
    : (artifact.metadata ?? {});
  const out: StackWorkflow[] = [];
  for (const [constructPath, entries] of Object.entries(metadata)) {
    for (const entry of entries) {
      // A construct path is `/<stack>/<id>/...`: the outputs prefix starts below the stack.
      if (entry.type !== WORKFLOW_METADATA_TYPE) continue;
      const metadata = entry.data as WorkflowMetadata;
      // Before version 2 no function had a deployment's alias: nothing could start or pin a run.
      if (metadata.version !== WORKFLOW_METADATA_VERSION) {
        throw new CloudAssemblyError(`workflow '${metadata.workflow}' in ${dir} was synthesized by an older unum-cdk (workflow metadata version ${String(metadata.version)}, this one reads ${WORKFLOW_METADATA_VERSION}): synthesize again`);
      }
      out.push({ constructPath: constructPath.split('/').slice(2).join('/'), metadata });
    }
  }
  return out;
}

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
