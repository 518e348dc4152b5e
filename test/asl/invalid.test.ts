/**
 * Invalid or unsupported ASL documents (test/asl/invalid/): each is rejected
 * with an error naming the ASL state and field and saying why. Messages are
 * asserted in full, so a vaguer message is a test failure.
 */
import * as fs from 'fs';
import * as path from 'path';
import { AslDefinitionError, AslValidationError, fromAsl } from '../../lib/asl';
import { UnumDefinitionError } from '../../lib/compiler';
import type { Json } from '../../runtime/contract/ir';
import { DEFAULT_TASK, ENTRY, aslError, compileAsl, machine, task } from './helpers';

const DIR = path.join(__dirname, 'invalid');
const VALIDATOR = 'the document is not valid ASL (asl-validator): ';

/** file -> the exact message (workflow 'wf'). */
const EXPECTED: Record<string, string> = {
  // asl-validator findings, reported with all their detail and located at the state and field.
  'missing-start-at.json': `Workflow 'wf', node '(workflow)', field '(document)': ${VALIDATOR}[SCHEMA_VALIDATION_FAILED] / is invalid. must have required property 'StartAt'`,
  'next-to-missing-state.json': `Workflow 'wf', node 'A', field 'Next': ${VALIDATOR}[MISSING_TRANSITION_TARGET] Missing 'StartAt'|'Next'|'Default' target: Nowhere; [MISSING_TERMINAL_STATE] State machine fsm1 is missing a terminal state`,
  'unreachable-state.json': `Workflow 'wf', node 'Orphan', field '(document)': ${VALIDATOR}[MISSING_TRANSITION_TARGET] State Orphan is not reachable`,
  'end-and-next.json': `Workflow 'wf', node 'A', field '(document)': ${VALIDATOR}[TERMINAL_STATE_WITH_NEXT] State "A" MUST contain exactly one of "End", "Next"`,
  'bad-input-path.json': `Workflow 'wf', node 'A', field 'InputPath': ${VALIDATOR}[SCHEMA_VALIDATION_FAILED] /States/A/InputPath is invalid. must match format "asl_path"`,
  'unknown-type.json': `Workflow 'wf', node 'A', field 'Type': ${VALIDATOR}[SCHEMA_VALIDATION_FAILED] /States/A/Type is invalid. must be equal to one of the allowed values; [SCHEMA_VALIDATION_FAILED] /States/A/QueryLanguage is invalid. must be equal to one of the allowed values`,
  'duplicate-state-names.json': `Workflow 'wf', node 'Work', field '(document)': ${VALIDATOR}[DUPLICATE_STATE_NAMES] A state with this name already exists: Work`,
  'loop-without-exit.json': `Workflow 'wf', node '(workflow)', field '(document)': ${VALIDATOR}[MISSING_TERMINAL_STATE] State machine fsm1 is missing a terminal state`,
  'resource-not-a-function.json': `Workflow 'wf', node 'A', field 'Resource': ${VALIDATOR}[SCHEMA_VALIDATION_FAILED] /States/A/Resource is invalid. must match exactly one schema in oneOf`,
  // Valid ASL that unum does not translate.
  'jsonata-top-level.json': "Workflow 'wf', node 'A', field 'Choices[0].Condition': the condition reads $now, whose value changes from one evaluation to the next; a Choice decides from its input after the state before it commits, and every execution must decide alike: compute the value in that state's outputs (or a Pass before the Choice) and test it here",
  'jsonata-state.json': "Workflow 'wf', node 'Shape it', field 'QueryLanguage': a JSONPath state cannot be in a JSONata document (Step Functions refuses it too): make the document JSONPath and this state JSONata, or rewrite the state",
  'wait-two-times.json': `Workflow 'wf', node 'Pause a bit', field '(document)': ${VALIDATOR}[WAIT_DURATION] State "Pause a bit" MUST contain exactly one of "Seconds", "SecondsPath", "Timestamp", "TimestampPath"`,
  'wait-bad-timestamp.json': `Workflow 'wf', node 'Pause a bit', field 'Timestamp': ${VALIDATOR}[SCHEMA_VALIDATION_FAILED] /States/Pause a bit/Timestamp is invalid. must match exactly one schema in oneOf`,
  'service-integration.json': "Workflow 'wf', node 'Save', field 'Resource': the service integration 'arn:aws:states:::dynamodb:putItem' is not supported: a Task must call a Lambda function (a function name, a Lambda ARN, a ${...} placeholder, arn:aws:states:::lambda:invoke or arn:aws:states:::lambda:invoke.waitForTaskToken)",
  'activity.json': "Workflow 'wf', node 'Approve', field 'Resource': activities are not supported ('arn:aws:states:us-east-1:123456789012:activity:Approve'): a Task must call a Lambda function",
  'parallel-catch-unknown-field.json': "Workflow 'wf', node 'Both', field 'Catch[0].Backoff': Backoff is not supported here: it is not one of ErrorEquals, Next, ResultPath, Comment",
  'unsupported-intrinsic.json': `Workflow 'wf', node 'Digest', field 'Parameters.digest.$': invalid intrinsic "States.Hash($.text, 'SHA-3')": States.Hash: argument 2 (algorithm) must be one of MD5, SHA-1, SHA-256, SHA-384, SHA-512, got "SHA-3" at position 20`,
  'unsupported-context-path.json': "Workflow 'wf', node 'Stamp', field 'Parameters.startedAt.$': the context path $$.Execution.StartTime is not supported (available here: $$.Execution.Id, $$.State.Name)",
  'task-timeout-too-long.json': "Workflow 'wf', node 'Slow', field 'TimeoutSeconds': 3600 s is longer than a handler may run (890 s: Lambda's 900 s, less the 10 s the runtime keeps for its own work)",
  'choice-output-path.json': "Workflow 'wf', node 'Pick', field 'OutputPath': OutputPath is not supported on a Choice state: its rules see the InputPath selection, and the selected output would need a step after the decision; put the path on a Pass state after it",
  'distributed-map.json': `Workflow 'wf', node 'Each', field 'ItemProcessor.ProcessorConfig.Mode': "DISTRIBUTED" is not supported: only Mode INLINE (a distributed Map's child executions, item readers and result writers have no unum translation)`,
  'heartbeat.json': "Workflow 'wf', node 'Long', field 'HeartbeatSeconds': heartbeats apply to callback Tasks only (Resource arn:aws:states:::lambda:invoke.waitForTaskToken)",
  'callback-without-token.json': `Workflow 'wf', node 'Ask', field 'Parameters.Payload': arn:aws:states:::lambda:invoke.waitForTaskToken must hand the task token to the function: put a "$$.Task.Token" path in Payload (e.g. "token.$": "$$.Task.Token")`,
  'task-token-outside-callback.json': "Workflow 'wf', node 'Ask', field 'Parameters.token.$': the context path $$.Task.Token is available only in the parameters of a Task that waits for its token (integrationPattern WAIT_FOR_TASK_TOKEN, ASL .waitForTaskToken)",
  'fail-error-and-error-path.json': "Workflow 'wf', node 'Stop', field '(document)': the document is not valid ASL (asl-validator): [FAIL_ERROR_PROPERTY] State \"Stop\" MUST contain at most one of \"Error\", \"ErrorPath\"",
  'top-level-timeout.json': "Workflow 'wf', node '(workflow)', field 'TimeoutSeconds': the run's timeout must be a whole number of seconds from 1 to 31536000 (one year), got 40000000",
  'lambda-invoke-dynamic-function.json': "Workflow 'wf', node 'Call', field 'Parameters.FunctionName.$': the function must be known at deploy time: use a fixed FunctionName",
  'lambda-invoke-extra-parameter.json': "Workflow 'wf', node 'Call', field 'Parameters.InvocationType': arn:aws:states:::lambda:invoke supports only FunctionName and Payload (the call is always an asynchronous unum invocation)",
  'catch-unknown-field.json': "Workflow 'wf', node 'Charge', field 'Catch[0].Resultpath': Resultpath is not supported here: it is not one of ErrorEquals, Next, ResultPath, Comment",
  'resource-object.json': `Workflow 'wf', node 'A', field 'Resource': {"Ref":"MyFunction"} is not supported: Resource must be a string (a function name, a Lambda ARN or a \${...} placeholder)`,
  'choice-rule-two-operators.json': `Workflow 'wf', node 'Pick', field 'Choices[0]': ${VALIDATOR}[SCHEMA_VALIDATION_FAILED] /States/Pick/Choices/0 is invalid. must match exactly one schema in oneOf; [SCHEMA_VALIDATION_FAILED] /States/Pick/Choices/0 is invalid. must match exactly one schema in oneOf`,
  // Found by the compiler, reported in ASL terms: the state name with its space, the ASL field.
  'retry-jitter-strategy.json': "Workflow 'wf', node 'Charge card', field 'Retry[0].JitterStrategy': 'SAMPLE' is not 'FULL' or 'NONE'",
  'wait-too-long.json': "Workflow 'wf', node 'Pause a bit', field 'Seconds': 40000000 is not a whole number of seconds from 0 to 31536000 (one year)",
  'callback-heartbeat-too-long.json': "Workflow 'wf', node 'Ask partner', field 'HeartbeatSeconds': 600 s is not shorter than the timeout (600 s)",
  'callback-timeout-too-long.json': "Workflow 'wf', node 'Ask', field 'TimeoutSeconds': 40000000 is not a whole number of seconds from 1 to 31536000 (one year)",
  'catch-loops-back.json': "Workflow 'wf', node 'Do work', field 'Catch[0].Next': the catch handler 'Do work' leads back to an earlier state; route the loop through a Choice so that each iteration is a new invocation",
};

describe('invalid ASL documents', () => {
  test('every file in test/asl/invalid has an expected message, and there are at least 15', () => {
    const files = fs.readdirSync(DIR).filter((f) => f !== 'not-json.json').sort();
    expect(files).toEqual(Object.keys(EXPECTED).sort());
    expect(files.length).toBeGreaterThanOrEqual(15);
  });

  test.each(Object.entries(EXPECTED))('%s', (file, message) => {
    expect(aslError(fs.readFileSync(path.join(DIR, file), 'utf8'))).toBe(message);
  });

  test('not-json.json: the JSON parser\'s own message', () => {
    expect(aslError(fs.readFileSync(path.join(DIR, 'not-json.json'), 'utf8'))).toMatch(/^Workflow 'wf', node '\(workflow\)', field '\(document\)': the definition is not JSON: .*position \d+/);
  });

  test('errors are UnumDefinitionErrors carrying the ASL state and field; validator errors keep every finding', () => {
    const doc = fs.readFileSync(path.join(DIR, 'next-to-missing-state.json'), 'utf8');
    let error: unknown;
    try {
      fromAsl(doc, { workflowName: 'wf', defaultTask: DEFAULT_TASK });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnumDefinitionError);
    expect(error).toBeInstanceOf(AslDefinitionError);
    expect(error).toBeInstanceOf(AslValidationError);
    expect(error).toMatchObject({ workflow: 'wf', node: 'A', field: 'Next' });
    expect((error as AslValidationError).findings.map((f) => f.code)).toEqual(['MISSING_TRANSITION_TARGET', 'MISSING_TERMINAL_STATE']);
  });
});

describe('states named like the fields asl-validator looks up anywhere ($..Branches, $..Next, ...)', () => {
  const branch = (name: string): Json => ({ StartAt: name, States: { [name]: task() } });

  test('are valid ASL: a Parallel named "Branches", a Pass named "Next", a Map named "Iterator" import and compile', () => {
    const doc = machine({
      Branches: { Type: 'Parallel', Branches: [branch('States'), branch('Default')], Next: 'Next' },
      Next: { Type: 'Pass', Next: 'Iterator' },
      Iterator: { Type: 'Map', ItemProcessor: branch('StartAt'), End: true },
    });
    expect(Object.keys(compileAsl(doc).nodes)).toEqual(expect.arrayContaining(['Branches.Origin', 'States', 'Default', 'Next', 'StartAt']));
  });

  test('a finding about such a state names it as written', () => {
    const doc = machine({ Branches: { Type: 'Parallel', Branches: [branch('A')], Next: 'Missing' } });
    expect(aslError(doc)).toMatch(/^Workflow 'wf', node 'Branches', field 'Next': .*target: Missing/);
  });
});

describe('invalid task settings', () => {
  test('a Task with no settings names the keys that would cover it', () => {
    expect(aslError(machine({ T: task({ Resource: '${fnArn}' }) }), { defaultTask: undefined })).toBe(
      `Workflow 'wf', node 'T', field 'Resource': no function settings for this Task: add tasks["T"] or tasks["\${fnArn}"] or tasks["fnArn"] (or defaultTask) with at least { entry }`,
    );
  });

  test('a tasks key that matches no state or resource is a typo, not silently ignored', () => {
    expect(aslError(machine({ T: task() }), { tasks: { Tee: { entry: ENTRY } } })).toBe(
      `Workflow 'wf', node '(workflow)', field 'tasks["Tee"]': the key matches no Task state name, Resource or function name in the definition (known: Fn, T)`,
    );
  });

  test('a bad setting is reported by the compiler as a tasks field of the ASL state', () => {
    expect(aslError(machine({ 'Resize image': task() }), { tasks: { 'Resize image': { entry: 'relative/handlers.ts' } } })).toBe(
      "Workflow 'wf', node 'Resize image', field 'tasks.entry': 'relative/handlers.ts' is not an absolute path; use path.join(__dirname, '...')",
    );
  });

  test('a name the compiler rejects: the workflow name', () => {
    expect(aslError(machine({ T: task() }), { workflowName: 'has space' })).toBe(
      "Workflow 'has space', node '(workflow)', field 'workflowName': 'has space' contains characters outside [A-Za-z0-9_-] (Lambda function name charset)",
    );
  });
});
