// The local engine from a script: start it on a synthesized app, use a workflow through the
// client, stop it.
import { UnumClient } from 'unum-cdk/client';
import { LocalEngine } from 'unum-cdk/local';

export async function main(): Promise<void> {
  // #region engine
  const engine = await LocalEngine.fromCloudAssembly('cdk.out', { port: 4010 });
  console.log(engine.environment);   // AWS_ENDPOINT_URL_LAMBDA, AWS_ENDPOINT_URL_DYNAMODB, ...: what `unum local start` prints
  console.log(engine.workflows.map((w) => `${w.name}: ${w.entryFunction} ${w.tableName}`));

  // A client of one of its workflows: the engine's endpoints, and the names it gave the tables
  // and the dead-letter queue that CloudFormation would name at deploy.
  const shouter = UnumClient.fromCloudAssembly('cdk.out', 'Shouter', { localEngine: engine.environment });
  const { result } = await shouter.startAndWait({ text: 'hello unum world' });
  console.log(result);               // { shouted: 'HELLO UNUM WORLD', count: 3 }

  await engine.stop();               // stops DynamoDB Local too, when the engine started it
  // #endregion
}

export async function sharedDynamoDb(endpoint: string): Promise<LocalEngine> {
  // #region shared-dynamodb
  // Use a DynamoDB Local that is already running (yours, or one shared by the engines of a test
  // suite): the app's tables are created there under the prefix, and deleted when the engine stops.
  const engine = await LocalEngine.fromCloudAssembly('cdk.out', { dynamoDb: { endpoint, tablePrefix: 'suite-1-' } });
  // #endregion
  return engine;
}

export async function redeploy(engine: LocalEngine): Promise<void> {
  // #region redeploy
  // Deploy a newer synth while runs are in flight, as `cdk deploy` would: each run in flight
  // finishes on the deployment it started on, and runs started from now on run on the new one.
  const deployments = await engine.deploy('cdk.out.v2');
  console.log(deployments);          // { Shouter: 'd5f0c…' }: the new deployment of each workflow
  // #endregion
}
