// Starting runs and reading them with the client (`unum-cdk/client` loads no aws-cdk-lib:
// an application can depend on it alone).
import * as fs from 'node:fs';
import { UnumClient } from 'unum-cdk/client';

export async function collatzRuns(): Promise<void> {
  // #region locate
  // `cdk deploy --outputs-file cdk-outputs.json` wrote the stack outputs: every workflow's entry function and table.
  const outputs = JSON.parse(fs.readFileSync('cdk-outputs.json', 'utf8')) as Record<string, Record<string, string>>;
  const collatz = UnumClient.fromStackOutputs(outputs.UnumExamples, 'Collatz');
  // or UnumClient.forWorkflow({ workflow: 'Collatz', entryFunction, table, lambda?, dynamodb? })
  // or UnumClient.fromCloudAssembly('cdk.out', 'Collatz', { outputs: outputs.UnumExamples })
  // #endregion

  // #region run
  const id = await collatz.start({ n: 27 });                 // a UUID; or { workflowId: 'order-1234' }
  const status = await collatz.wait(id, {
    timeoutMs: 60_000,                                        // UnumWaitTimeoutError names the run
    signal: AbortSignal.timeout(120_000),
    onProgress: (s, ms) => console.log(s.status, ms),
  });
  if (status.status === 'FAILED') console.error(status.error); // { node, state, error, cause }
  else console.log(await collatz.result(id));                  // { start: 27, steps: 111, peak: 9232 }

  // or in one call: the result, or UnumRunFailedError
  const { workflowId, result } = await collatz.startAndWait({ n: 6 });
  // #endregion
  console.log(workflowId, result);

  // #region list-runs
  const { runs, nextToken } = await collatz.listRuns({ status: 'FAILED', startedAfter: '2026-11-23T00:00:00Z', limit: 20 });
  // runs: [{ workflowId, status, startedAt, finishedAt?, error? }, ...], newest first
  const more = nextToken ? await collatz.listRuns({ status: 'FAILED', startedAfter: '2026-11-23T00:00:00Z', limit: 20, nextToken }) : undefined;
  // #endregion
  console.log(runs.length + (more?.runs.length ?? 0));
}

export async function localEngine(): Promise<UnumClient> {
  // #region local-engine
  // In a shell with the variables `unum local start` printed exported (AWS_ENDPOINT_URL_DYNAMODB, ...),
  // the client finds the running engine and the names it gave the tables, as the unum commands do.
  const shouter = UnumClient.fromCloudAssembly('cdk.out', 'Shouter');
  const { result } = await shouter.startAndWait({ text: 'a b' });   // { shouted: 'A B', count: 2 }
  // #endregion
  console.log(result);
  return shouter;
}

export async function control(orders: UnumClient, runId: string): Promise<void> {
  // #region stop
  const { stopped, status } = await orders.stop(runId, { error: 'Cancelled', cause: 'the customer cancelled' });
  // stopped: true, status: 'ABORTED' (with error: { error: 'Cancelled', cause: '...' });
  // a run that had finished already: stopped: false and the status it ended with
  // #endregion
  console.log(stopped, status);
  // #region waiting
  // The callback Tasks the run waits on, oldest first: { node, iteration, since, heartbeats, taskToken }
  const [waiting] = await orders.waitingTasks(runId);
  if (waiting) await orders.sendTaskSuccess(waiting.taskToken, { approvedBy: 'ann' });
  // #endregion
  // #region redrive
  const { redriveCount, resumed } = await orders.redrive('order-17'); // after fixing the cause of its failure
  // #endregion
  console.log(redriveCount, resumed);
  // #region recover
  const report = await orders.recover();  // replays the dead-letter queue once DynamoDB is back
  console.log(report.replayed, report.finished, report.kept);
  // #endregion
}
