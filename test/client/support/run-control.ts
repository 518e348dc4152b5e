/**
 * The run-control function behind the Lambda stub, served by the runtime's
 * own handler (runtime/control/handler.ts) on DynamoDB Local, and a fresh
 * table with a client of it for each test: what a test of stop and redrive
 * through `UnumClient` needs without a synthesized app.
 */
import { UnumClient } from '../../../lib/client';
import { ENV } from '../../../runtime/contract/ir';
import { handler as controlHandler } from '../../../runtime/control/handler';
import { cliEmulators, type CliEmulators } from './cli-emulators';
import { createTable, WORKFLOW } from './dynamodb';
import type { StubFunction } from './lambda-stub';

/** The run-control function's name behind the stub. */
export const RUN_CONTROL = 'wf-control';

/** The run-control function as Lambda runs it: told the alias it was invoked through by its ARN. */
const runControl: StubFunction = (payload, qualifier) =>
  controlHandler(payload, { invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${RUN_CONTROL}${qualifier === undefined ? '' : `:${qualifier}`}` });

export interface RunControlFixture {
  readonly emulators: CliEmulators;
  /** This test's table. */
  table: string;
  /** A client of workflow `WORKFLOW` in this test's table, naming the run-control function. */
  client: UnumClient;
}

/** Starts the emulators for the file (the stub serving `functions` and the run-control function); a new table and client before each test. */
export function runControlFixture(functions: Record<string, StubFunction> = {}): RunControlFixture {
  const emulators = cliEmulators(Object.assign(functions, { [RUN_CONTROL]: runControl }));
  const fixture = { emulators } as RunControlFixture;
  beforeEach(async () => {
    fixture.table = await createTable(emulators.dynamo.client);
    // The handler reads its workflow and table as Lambda gives them: from the environment.
    Object.assign(process.env, { [ENV.workflow]: WORKFLOW, [ENV.table]: fixture.table });
    fixture.client = UnumClient.forWorkflow({ entryFunction: 'wf-A', table: fixture.table, workflow: WORKFLOW, runControlFunction: RUN_CONTROL, lambda: emulators.lambda.client, dynamodb: emulators.dynamo.client });
    emulators.lambda.invocations.length = 0;
  });
  return fixture;
}
