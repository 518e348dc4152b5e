/**
 * Construct metadata that describes a deployed workflow: written by the
 * UnumWorkflow construct (lib/construct), read by this layer for the tools
 * (client, CLI, local engine, graph). It is written on the construct's node,
 * so it lands in `cdk.out/<stack>.metadata.json` (the stack artifact's
 * `additionalMetadataFile` in manifest.json) under the construct path, as
 * `{ type: 'unum:workflow', data: WorkflowMetadata }`.
 */
export const WORKFLOW_METADATA_TYPE = 'unum:workflow';

export interface WorkflowMetadata {
  /** 2 added `deployment`: every function has an alias of that name, and the entry an alias `live` (LIVE_ALIAS). */
  readonly version: 2;
  readonly workflow: string;
  /** The deployment id of this synth (runtime/contract/ir `DEPLOYMENT_ID_PATTERN`). */
  readonly deployment: string;
  /** Entry node name. */
  readonly entry: string;
  readonly nodes: Readonly<
    Record<
      string,
      {
        /** Deployed (physical) function name, as in the IR's `functionNames`. */
        readonly functionName: string;
        /** Logical id of the `AWS::Lambda::Function` in the stack template (its `Code.S3Key` is `<hash>.zip`; the bundle is `cdk.out/asset.<hash>/`). */
        readonly logicalId: string;
        readonly successors: readonly string[];
        /** Added by the compiler (implicit pass nodes). */
        readonly implicit: boolean;
      }
    >
  >;
  /** Logical id of the `AWS::DynamoDB::Table`; absent when an existing table was passed in. */
  readonly tableLogicalId?: string;
  /** Table name (resolved as a CloudFormation `Ref` for a table the stack creates). */
  readonly tableName: unknown;
  /** The on-failure destination function of every node. */
  readonly failureRecorder: { readonly functionName: string; readonly logicalId: string };
  /**
   * Logical id of the `AWS::SQS::Queue` behind the failure recorder
   * (CloudFormation names it: its URL is the `DeadLetterQueueUrl` output);
   * absent in assemblies synthesized before the queue existed.
   */
  readonly deadLetterQueueLogicalId?: string;
  /** The function that completes task tokens (`grantTaskResponse`); absent when the workflow has no callback Task. */
  readonly taskResponse?: { readonly functionName: string; readonly logicalId: string };
  /**
   * The function that stops and redrives runs (its aliases `stop` and
   * `redrive`): written by every synth, absent in assemblies synthesized
   * before it existed (same metadata version: nothing else changed), which
   * readers tolerate.
   */
  readonly runControl?: { readonly functionName: string; readonly logicalId: string };
}
