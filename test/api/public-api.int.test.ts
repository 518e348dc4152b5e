/**
 * The public surface, as the TypeScript compiler sees it: every name each
 * package entry exports, with what it is. A change to the API shows here as
 * a change to this list, deliberately made.
 */
import * as path from 'node:path';
import * as ts from 'typescript';
import { UnumError } from '../../runtime/contract/errors';
import * as main from '../../lib';
import * as client from '../../lib/client';
import * as local from '../../lib/local';
import * as effects from '../../runtime/effects';
import * as postgres from '../../runtime/effects/postgres';

const ROOT = path.join(__dirname, '..', '..');
const ENTRIES = {
  'unum-cdk': 'lib/index.ts',
  'unum-cdk/client': 'lib/client/index.ts',
  'unum-cdk/local': 'lib/local/index.ts',
  'unum-cdk/testing': 'lib/testing/index.ts',
  'unum-cdk/effects': 'runtime/effects/index.ts',
  'unum-cdk/effects/postgres': 'runtime/effects/postgres.ts',
} as const;

function kind(symbol: ts.Symbol): string {
  const f = symbol.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  if (f & ts.SymbolFlags.Variable) return 'const';
  return 'other';
}

/** `name: kind` for every export of each entry, sorted. */
function exportsOf(): Record<string, string[]> {
  const program = ts.createProgram(Object.values(ENTRIES).map((f) => path.join(ROOT, f)), {
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  return Object.fromEntries(Object.entries(ENTRIES).map(([entry, file]) => {
    const module = checker.getSymbolAtLocation(program.getSourceFile(path.join(ROOT, file)) as ts.SourceFile) as ts.Symbol;
    const names = checker.getExportsOfModule(module).map((s) => {
      const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
      return `${s.name}: ${kind(target)}`;
    });
    return [entry, names.sort()];
  }));
}

test('each entry exports exactly these names', () => {
  expect(exportsOf()).toEqual({
    'unum-cdk': [
      'AfterwardsOptions: interface', 'AslDefinitionError: class', 'AslTaskInfo: interface', 'AslTaskProps: type', 'AslValidationError: class',
      'AslValidatorFinding: interface', 'CatchProps: interface', 'Chain: class', 'Choice: class', 'ChoiceProps: interface', 'CompileOptions: interface',
      'CompiledNode: interface', 'CompiledWorkflow: interface', 'Condition: class', 'Definition: class', 'DurationLike: interface', 'EffectsTable: interface', 'Fail: class', 'FailProps: interface',
      'Fold: class', 'FoldHandler: type', 'FoldProps: interface', 'FromAslOptions: interface', 'FunctionEffects: interface', 'FunctionProps: interface', 'FunctionSpec: interface',
      'Handler: type', 'IChainable: interface', 'InputOf: type', 'IntegrationPattern: other', 'IoProps: type', 'Json: type', 'JsonPath: type', 'JsonataProps: type', 'Map: class', 'MapProps: interface',
      'MapState: class', 'OutputOf: type', 'Parallel: class', 'ParallelProps: type', 'Pass: class', 'PassProps: interface',
      'PayloadTemplate: type', 'QueryLanguage: other', 'RetryProps: interface', 'Succeed: class', 'Task: class', 'TaskProps: interface', 'UnumBundlingOptions: interface',
      'UnumDefinitionError: class', 'UnumError: class', 'UnumWorkflow: class', 'UnumWorkflowError: class', 'UnumWorkflowFromAslProps: interface',
      'UnumWorkflowProps: interface', 'Wait: class', 'WaitProps: interface', 'WaitTime: class', 'WaitTimeSpec: type', 'compileWorkflow: function', 'fromAsl: function',
    ],
    'unum-cdk/client': [
      'CloudAssemblyOptions: interface', 'DeadLetterOutcome: type', 'DeploymentSummary: interface', 'FanInProgress: interface', 'HistoryEntry: interface', 'HistoryOutcome: type',
      'InspectFailure: interface', 'InspectOptions: interface', 'InspectReport: interface', 'Json: type', 'ListRunsOptions: interface', 'RecoverOptions: interface',
      'RecoveredDeadLetter: interface', 'RecoveryReport: interface', 'RedriveOptions: interface', 'RedriveResult: interface', 'RunControlStatus: type', 'RunError: interface', 'RunList: interface', 'RunOutcome: interface', 'RunState: type',
      'RunStatus: interface', 'RunSummary: interface',
      'StartAndWaitOptions: interface', 'StartOptions: interface', 'StopOptions: interface', 'StopResult: interface', 'TableSummary: interface', 'UnumClient: class', 'UnumClientError: class',
      'UnumClientProps: interface', 'UnumError: class', 'UnumRunFailedError: class', 'UnumRunNotFinishedError: class', 'UnumRunNotRedrivableError: class', 'UnumSdkClients: interface', 'UnumTaskAlreadyCompletedError: class', 'UnumTaskTokenError: class',
      'UnumWaitTimeoutError: class', 'WORKFLOW_ID_PATTERN: const', 'WaitOptions: interface', 'WaitingTask: interface', 'WorkflowLocation: interface',
    ],
    'unum-cdk/local': [
      'AsyncInvokeConfig: interface', 'ExecutionResult: type', 'ExistingDynamoDb: interface', 'Json: type', 'LocalEngine: class', 'LocalEngineOptions: interface',
      'LocalFaultCheck: interface', 'LocalFaultSchedule: interface', 'LocalFunction: interface', 'LocalRun: interface', 'LocalRunFaults: interface', 'LocalRunOptions: interface', 'LocalRunOutcome: interface',
      'LocalTestEngine: class', 'LocalWorkflow: interface', 'StartLocalEngineOptions: interface',
      'TimelineEntry: interface', 'UnumError: class', 'UnumLocalError: class', 'startLocalEngine: function',
    ],
    'unum-cdk/testing': [
      'ArmedFaults: interface', 'CallFault: type', 'CallInfo: interface', 'CampaignSummary: interface', 'CheckedRun: interface', 'CheckedRunOptions: interface', 'Committed: type', 'CrashPoint: interface',
      'CrashPointPlan: class', 'EffectCheck: interface', 'EnumerationOptions: interface', 'EnumerationSummary: interface', 'EventFault: interface', 'ExecutionInfo: interface',
      'Expectation: type', 'Failure: interface', 'FaultPlan: interface', 'InterventionResult: interface', 'LocalFaultCheck: interface', 'LocalFaultSchedule: interface',
      'Profile: interface', 'RandomFaultParams: interface', 'RandomFaults: class', 'RandomFaultsOptions: interface', 'RandomOptions: interface', 'RandomPlan: class',
      'RunIntervention: type', 'ServiceFault: type', 'ServiceFaultParams: interface', 'ServiceFaultPlan: class', 'Target: interface', 'UnumLocalError: class',
      'allPairs: function', 'checkedRun: function', 'describePoint: function', 'enumerateCrashPoints: function', 'pairwiseCovering: function', 'paramsForSeed: function',
      'planForSeed: function', 'profile: function', 'randomFaults: function', 'randomSchedules: function', 'referenceRun: function', 'serviceParamsForSeed: function',
    ],
    'unum-cdk/effects': [
      'EffectError: class', 'Effects: interface', 'TransactWriteOptions: interface', 'UnumContext: interface', 'UpdateItemInput: type',
      'UpdateItemOptions: interface', 'UpdateOutcome: interface', 'WriteOutcome: interface', 'effects: function',
    ],
    'unum-cdk/effects/postgres': [
      'EffectError: class', 'IsolationLevel: type', 'PgClient: interface', 'PgPool: interface', 'PgResult: interface', 'PostgresEffects: interface',
      'PostgresEffectsOptions: interface', 'PostgresStrategy: type', 'RetryPolicy: interface', 'TransactionOptions: interface', 'UnumContext: interface', 'postgres: function',
    ],
  });
});

test('every error class of the public entries extends UnumError', () => {
  const errors = [main, client, local, effects, postgres].flatMap((entry) => Object.entries(entry))
    .filter(([name, value]) => typeof value === 'function' && name.endsWith('Error'))
    .map(([name, value]) => [name, (value as { prototype: unknown }).prototype instanceof UnumError || value === UnumError]);
  expect(errors.length).toBeGreaterThan(8);
  expect(errors.filter(([, ok]) => !ok)).toEqual([]);
});

test('an error names its class', () => {
  expect(new client.UnumWaitTimeoutError('run-1', 5, 'RUNNING').name).toBe('UnumWaitTimeoutError');
  expect(new local.UnumLocalError('x').name).toBe('UnumLocalError');
});
