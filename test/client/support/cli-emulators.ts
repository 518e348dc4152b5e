/**
 * DynamoDB Local and the Lambda stub for a test file that runs the CLI: the
 * CLI builds default SDK clients, which find the emulators through the
 * environment alone, set for the file's tests and restored after them.
 */
import { emulatorEnvironment, type LocalDynamo, startDynamo } from './dynamodb';
import { type LambdaStub, startLambdaStub, type StubFunction } from './lambda-stub';

export interface CliEmulators {
  readonly dynamo: LocalDynamo;
  readonly lambda: LambdaStub;
}

/** Starts both before the file's tests (the stub serving `functions`) and stops them after; read the result inside tests. */
export function cliEmulators(functions: Record<string, StubFunction>): CliEmulators {
  const running = {} as { dynamo: LocalDynamo; lambda: LambdaStub };
  const saved = { ...process.env };
  beforeAll(async () => {
    running.dynamo = await startDynamo();
    running.lambda = await startLambdaStub(functions);
    Object.assign(process.env, emulatorEnvironment(running.dynamo.endpoint, running.lambda.endpoint));
  });
  afterAll(async () => {
    process.env = saved;
    await running.lambda?.stop();
    await running.dynamo?.stop();
  });
  return running;
}
