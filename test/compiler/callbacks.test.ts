/**
 * Compiling callback Tasks (`integrationPattern: WAIT_FOR_TASK_TOKEN`): the
 * node's IR carries `callback` (timeout, default one year, and heartbeat),
 * `$$.Task.Token` is readable in its parameters only, and a bad timeout or
 * heartbeat is a definition error naming the workflow, state and field.
 */
import { compileWorkflow, UnumDefinitionError } from '../../lib/compiler';
import { Definition, IntegrationPattern, Pass, Task, type TaskProps } from '../../lib/definition';
import { MAX_WAIT_SECONDS } from '../../runtime/contract/ir';
import { validateIr } from '../support/ir-schema';

const ENTRY = '/project/h.ts';
const WAIT = IntegrationPattern.WAIT_FOR_TASK_TOKEN;
const PARAMETERS = { 'token.$': '$$.Task.Token', 'order.$': '$.order' };
const compile = (props: Omit<TaskProps, 'entry'>) => compileWorkflow('wf', Definition.from(new Task('Ask', { entry: ENTRY, ...props }).next(new Task('Next', { entry: ENTRY }))));

function definitionError(props: Omit<TaskProps, 'entry'>): string {
  try {
    compile(props);
  } catch (e) {
    expect(e).toBeInstanceOf(UnumDefinitionError);
    return (e as Error).message;
  }
  throw new Error('compiled');
}

test('a callback Task: its IR has the timeout (a Duration or seconds) and heartbeat; other Tasks have none', () => {
  const compiled = compile({ integrationPattern: WAIT, parameters: PARAMETERS, timeout: { toSeconds: () => 3600 }, heartbeat: 60 });
  expect(compiled.nodes.Ask.ir.callback).toEqual({ timeoutSeconds: 3600, heartbeatSeconds: 60 });
  expect(compiled.nodes.Ask.ir.io).toEqual({ parameters: PARAMETERS });
  expect(compiled.nodes.Next.ir.callback).toBeUndefined();
  for (const node of Object.values(compiled.nodes)) expect(validateIr(node.ir)).toEqual({ errors: [], valid: true });
  expect(compile({ integrationPattern: WAIT }).nodes.Ask.ir.callback).toEqual({ timeoutSeconds: MAX_WAIT_SECONDS });
  expect(compile({ integrationPattern: IntegrationPattern.REQUEST_RESPONSE }).nodes.Ask.ir.callback).toBeUndefined();
});

test('a Pass after a callback Task folds into it: the completion\'s output goes through it before the commit', () => {
  const compiled = compileWorkflow('wf', Definition.from(new Task('Ask', { entry: ENTRY, integrationPattern: WAIT }).next(new Pass('Tag', { result: 1, resultPath: '$.tag' })).next(new Task('Next', { entry: ENTRY }))));
  expect(compiled.nodes.Ask.ir.instructions[0]).toEqual({ op: 'pass', result: 1, io: { resultPath: '$.tag' } });
});

test('bad callback settings are definition errors naming workflow, state and field', () => {
  expect(definitionError({ timeout: 60 })).toBe("Workflow 'wf', node 'Ask', field 'timeout': timeout applies to a Task with integrationPattern WAIT_FOR_TASK_TOKEN only (use timeoutSeconds for the handler's timeout)");
  expect(definitionError({ heartbeat: 60 })).toBe("Workflow 'wf', node 'Ask', field 'heartbeat': heartbeat applies to a Task with integrationPattern WAIT_FOR_TASK_TOKEN only (use timeoutSeconds for the handler's timeout)");
  expect(definitionError({ integrationPattern: 'RUN_JOB' as IntegrationPattern })).toBe("Workflow 'wf', node 'Ask', field 'integrationPattern': 'RUN_JOB' is not one of REQUEST_RESPONSE, WAIT_FOR_TASK_TOKEN");
  expect(definitionError({ integrationPattern: WAIT, timeout: 0.5 })).toBe("Workflow 'wf', node 'Ask', field 'timeout': 0.5 is not a whole number of seconds from 1 to 31536000 (one year)");
  expect(definitionError({ integrationPattern: WAIT, timeout: MAX_WAIT_SECONDS + 1 })).toBe("Workflow 'wf', node 'Ask', field 'timeout': 31536001 is not a whole number of seconds from 1 to 31536000 (one year)");
  expect(definitionError({ integrationPattern: WAIT, timeout: 60, heartbeat: 60 })).toBe("Workflow 'wf', node 'Ask', field 'heartbeat': 60 s is not shorter than the timeout (60 s)");
  expect(definitionError({ parameters: { 'token.$': '$$.Task.Token' } })).toBe(
    "Workflow 'wf', node 'Ask', field 'parameters': 'token.$': the context path $$.Task.Token is available only in the parameters of a Task that waits for its token (integrationPattern WAIT_FOR_TASK_TOKEN, ASL .waitForTaskToken)",
  );
  expect(definitionError({ integrationPattern: WAIT, resultSelector: { 'token.$': '$$.Task.Token' } })).toMatch(/field 'resultSelector': 'token.\$': the context path \$\$.Task.Token is available only in the parameters/);
});

test('a callback Task that starts the workflow gets an implicit start node: the entry takes start requests only', () => {
  const compiled = compileWorkflow('wf', Definition.from(new Task('Ask', { entry: ENTRY, integrationPattern: WAIT })));
  expect(compiled.entry).toBe('Ask.Start');
  expect(compiled.nodes['Ask.Start'].ir.instructions).toEqual([{ op: 'invoke', invoke: { kind: 'scalar', target: 'Ask' } }]);
  expect(compiled.nodes.Ask.ir.entry).toBe(false);
});

test('a callback Task with Retry rules invokes itself (its next attempt): it is its own successor, and the workflow loops; without rules it is not', () => {
  const task = (): Task => new Task('Ask', { entry: ENTRY, integrationPattern: WAIT });
  const retried = compileWorkflow('wf', Definition.from(task().addRetry({ errors: ['Busy'] }).next(new Task('Next', { entry: ENTRY }))));
  expect(retried.nodes.Ask.successors).toEqual(['Ask', 'Next']);
  expect(retried.loops).toBe(true);
  const plain = compileWorkflow('wf', Definition.from(task().next(new Task('Next', { entry: ENTRY }))));
  expect(plain.nodes.Ask.successors).toEqual(['Next']);
  expect(plain.loops).toBe(false);
  const handlerRetry = compileWorkflow('wf', Definition.from(new Task('Ask', { entry: ENTRY }).addRetry({ errors: ['Busy'] }).next(new Task('Next', { entry: ENTRY }))));
  expect(handlerRetry.nodes.Ask.successors).toEqual(['Next']);
});
