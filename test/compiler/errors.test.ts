import { compileWorkflow, UnumDefinitionError } from '../../lib/compiler';
import { Chain, Choice, Condition, Definition, Fail, Fold, MapState, Parallel, Pass, Succeed, Task } from '../../lib/definition';
import { compile, ENTRY, expectDefinitionError, task } from './helpers';

const W = (node: string, field: string, detail: string): string => `Workflow 'W', node '${node}', field '${field}': ${detail}`;
const SUPPORTED_INTRINSICS = [
  'States.Array', 'States.ArrayPartition', 'States.ArrayContains', 'States.ArrayRange', 'States.ArrayGetItem', 'States.ArrayLength', 'States.ArrayUnique',
  'States.Base64Encode', 'States.Base64Decode', 'States.Hash', 'States.JsonMerge', 'States.StringToJson', 'States.JsonToString',
  'States.MathAdd', 'States.MathRandom', 'States.UUID', 'States.Format', 'States.StringSplit',
].join(', ');

describe('UnumDefinitionError', () => {
  it('carries workflow, node and field', () => {
    try {
      compileWorkflow('Photos', task('Resize', { entry: 'handlers.ts' }));
      throw new Error('expected an error');
    } catch (e) {
      expect(e).toBeInstanceOf(UnumDefinitionError);
      const err = e as UnumDefinitionError;
      expect([err.workflow, err.node, err.field]).toEqual(['Photos', 'Resize', 'entry']);
      expect(err.message).toBe("Workflow 'Photos', node 'Resize', field 'entry': 'handlers.ts' is not an absolute path; use path.join(__dirname, '...')");
    }
  });
});

describe('invalid definitions', () => {
  it('duplicate names', () => {
    expectDefinitionError(() => compile(task('A').next(task('B')).next(task('A'))), W('A', 'id', "two different states are named 'A'; state names must be unique in a workflow"));
  });

  it('Fail with both a fixed error and an error path, or a path the runtime cannot read', () => {
    expectDefinitionError(() => compile(task('A').next(new Fail('F', { error: 'E', errorPath: '$.e' }))), W('F', 'errorPath', 'a Fail state takes a fixed error or a path to it, not both'));
    expectDefinitionError(() => compile(task('A').next(new Fail('F', { cause: 'c', causePath: '$.c' }))), W('F', 'causePath', 'a Fail state takes a fixed cause or a path to it, not both'));
    expect(() => compile(task('A').next(new Fail('F', { causePath: '$$.Map.Item.Value' })))).toThrow(/node 'F', field 'causePath': the context path \$\$\.Map\.Item\.Value is not supported/);
  });

  it('unreachable state', () => {
    const b = task('B');
    task('Orphan').next(b);
    expectDefinitionError(() => compile(task('A').next(b)), W('Orphan', 'id', 'the state is unreachable: no path from the start of the workflow leads to it'));
  });

  it('Parallel without branches: fan-in size unknown', () => {
    expectDefinitionError(() => compile(task('A').next(new Parallel('P')).next(task('B'))), W('P', 'branches', 'the fan-in size cannot be determined: the Parallel has no branches'));
  });

  it('Map without item processor: fan-in size unknown', () => {
    expectDefinitionError(() => compile(task('A').next(new MapState('M'))), W('M', 'itemProcessor', 'the fan-in size cannot be determined: the Map has no item processor'));
  });

  it('loop with no exit', () => {
    const a = task('A');
    const b = task('B');
    a.next(b);
    b.next(a);
    expectDefinitionError(() => compile(a), W('A', 'next', 'the state is in a loop with no exit: no path from it reaches a Succeed, a Fail or the end of its workflow/branch'));
  });

  it('loop with no exit through a Choice whose arms all loop back', () => {
    const a = task('A');
    a.next(new Choice('C').when(Condition.isPresent('$.x'), a).otherwise(task('B').next(a)));
    expectDefinitionError(() => compile(a), W('A', 'next', 'the state is in a loop with no exit: no path from it reaches a Succeed, a Fail or the end of its workflow/branch'));
  });

  it('node name with characters Lambda does not allow', () => {
    expectDefinitionError(() => compile(task('Resize image')), W('Resize image', 'id', "'Resize image' contains characters outside [A-Za-z0-9_-] (Lambda function name charset)"));
  });

  it('node name longer than 64 characters', () => {
    const name = 'N'.repeat(65);
    expectDefinitionError(() => compile(task(name)), W(name, 'id', 'the name is 65 characters long; at most 64 are allowed (Lambda function name limit)'));
  });

  it('workflow name with invalid characters', () => {
    expectDefinitionError(() => compile(task('A'), {}, 'my.flow'), "Workflow 'my.flow', node '(workflow)', field 'workflowName': 'my.flow' contains characters outside [A-Za-z0-9_-] (Lambda function name charset)");
  });

  it('empty workflow', () => {
    expectDefinitionError(() => compile(Chain.sequence()), W('(workflow)', 'definition', 'the workflow is empty: it has no states'));
    expectDefinitionError(() => compile(Definition.from(Chain.sequence())), W('(workflow)', 'definition', 'the workflow is empty: it has no states'));
  });

  it('Map itemsPath that is not an array in a Pass literal', () => {
    const def = new Pass('Seed', { result: { items: 'abc' } }).next(new MapState('M', { itemsPath: '$.items' }).itemProcessor(task('I')));
    expectDefinitionError(() => compile(def), W('M', 'itemsPath', "'$.items' selects a string, not an array, in the output of 'Seed'"));
  });

  it('Map itemsPath that selects nothing in a Task output example', () => {
    const def = task('List', { outputExample: { files: ['a'] } }).next(new MapState('M', { itemsPath: '$.file' }).itemProcessor(task('I')));
    expectDefinitionError(() => compile(def), W('M', 'itemsPath', "'$.file' selects nothing, not an array, in the output of 'List'"));
  });

  it('Map itemsPath is checked through a Choice and after the Map inputPath', () => {
    const map = new MapState('M', { inputPath: '$.data', itemsPath: '$.rows' }).itemProcessor(task('I'));
    const def = new Pass('Seed', { result: { data: { rows: 5 } } }).next(new Choice('C').when(Condition.isPresent('$.data'), map).otherwise(new Succeed('Done')));
    expectDefinitionError(() => compile(def), W('M', 'itemsPath', "'$.rows' selects a number, not an array, in the output of 'Seed'"));
    // and the same shape with an array passes
    expect(() => compile(new Pass('Seed', { result: { data: { rows: [1] } } }).next(new MapState('M', { inputPath: '$.data', itemsPath: '$.rows' }).itemProcessor(task('I'))))).not.toThrow();
  });

  it('retry maxAttempts below 0', () => {
    expectDefinitionError(() => compile(task('A').addRetry({ maxAttempts: -1 })), W('A', 'retry[0].maxAttempts', '-1 is not an integer >= 0'));
  });

  it('retry backoffRate below 1', () => {
    expectDefinitionError(() => compile(task('A').addRetry({ backoffRate: 0.5 })), W('A', 'retry[0].backoffRate', '0.5 is not a number >= 1'));
  });

  it('retry interval below 1 second', () => {
    expectDefinitionError(() => compile(task('A').addRetry({ errors: ['X'] }).addRetry({ intervalSeconds: 0 })), W('A', 'retry[1].intervalSeconds', '0 is not an integer >= 1'));
  });

  it('States.ALL not alone in the last rule', () => {
    expectDefinitionError(() => compile(task('A').addRetry({ errors: ['States.ALL'] }).addRetry({ errors: ['X'] })), W('A', 'retry[0].errors', "'States.ALL' must appear alone, in the last rule"));
  });

  it('catch handler that is not part of this scope of the workflow', () => {
    const handler = task('Handler');
    const def = task('A').next(new Parallel('P').branch(task('B').addCatch(handler))).next(handler);
    expectDefinitionError(() => compile(def), W('Handler', 'id', "the state is used in two places (branch 0 of 'P' and the top level); create a separate state for each use"));
  });

  it('catch handler that is an empty chain', () => {
    expectDefinitionError(() => compile(task('A').addCatch(Chain.sequence())), W('A', 'catch[0].handler', 'the catch handler is an empty chain'));
  });

  it('catch handler that leads back to an earlier state', () => {
    const a = task('A');
    const b = task('B').addCatch(a);
    expectDefinitionError(() => compile(a.next(b)), W('B', 'catch[0].handler', "the catch handler 'A' leads back to an earlier state; route the loop through a Choice so that each iteration is a new invocation"));
  });

  it('retryAttempts outside 0-2', () => {
    expectDefinitionError(() => compile(task('A', { retryAttempts: 3 })), W('A', 'retryAttempts', '3 is not an integer in 0-2'));
  });

  it('maxEventAgeSeconds outside 60-21600', () => {
    expectDefinitionError(() => compile(task('A', { maxEventAgeSeconds: 30 })), W('A', 'maxEventAgeSeconds', '30 s is not an integer in 60-21600 s'));
  });

  it('timeout outside 1-890 seconds (Lambda allows 900, the runtime keeps 10 of them)', () => {
    expectDefinitionError(() => compile(task('A', { timeoutSeconds: 891 })), W('A', 'timeoutSeconds', '891 s is not an integer in 1-890 s'));
    expectDefinitionError(() => compile(task('A', { timeoutSeconds: 0.5 })), W('A', 'timeoutSeconds', '0.5 s is not an integer in 1-890 s'));
    expect(compile(task('A', { timeoutSeconds: 890 })).nodes.A.ir.settings.timeoutSeconds).toBe(890);
  });

  it('memory outside 128-10240 MB', () => {
    expectDefinitionError(() => compile(task('A', { memorySize: 64 })), W('A', 'memorySize', '64 MB is not an integer in 128-10240 MB'));
  });

  it('a state reused in two branches', () => {
    const shared = task('Shared');
    expectDefinitionError(() => compile(task('A').next(new Parallel('P').branch(shared, task('B').next(shared)))), W('Shared', 'id', "the state is used in two places (branch 0 of 'P' and branch 1 of 'P'); create a separate state for each use"));
  });

  it('a state reused inside and after a Map', () => {
    const shared = task('Shared');
    expectDefinitionError(() => compile(task('A').next(new MapState('M').itemProcessor(shared)).next(task('B')).next(shared)), W('Shared', 'id', "the state is used in two places (the item processor of 'M' and the top level); create a separate state for each use"));
  });

  it('.next() after a Succeed', () => {
    // @ts-expect-error -- a chain ending in Succeed has output type never: the type checker rejects it too
    const chain = task('A').next(new Succeed('Done')).next(task('B'));
    expectDefinitionError(() => compile(chain), W('Done', 'next', "a succeed state has no next state (tried to continue with 'B')"));
  });

  it('.next() directly on a Choice', () => {
    const chain = task('A').next(new Choice('C').when(Condition.isPresent('$.a'), task('B')).otherwise(task('D'))).next(task('E'));
    expectDefinitionError(() => compile(chain), W('C', 'next', "a Choice has no single next state (tried to continue with 'E'); use .when()/.otherwise() or .afterwards().next()"));
  });

  it('a second .next() on the same state', () => {
    const a = task('A');
    a.next(task('B'));
    a.next(task('C'));
    expectDefinitionError(() => compile(a), W('A', 'next', "already continues with 'B'; cannot also continue with 'C'"));
  });

  it('relative entry path', () => {
    expectDefinitionError(() => compile(task('A', { entry: './handlers.ts' })), W('A', 'entry', "'./handlers.ts' is not an absolute path; use path.join(__dirname, '...')"));
  });

  it('export name that is not an identifier', () => {
    expectDefinitionError(() => compile(task('A', { handler: 'my-handler' })), W('A', 'handler', "'my-handler' is not a valid export name"));
  });

  it('reserved environment variable', () => {
    expectDefinitionError(() => compile(task('A', { environment: { UNUM_TABLE: 'x' } })), W('A', 'environment', "'UNUM_TABLE' is reserved (set by Lambda or unum)"));
  });

  it('Fold that does not follow a Map or Parallel', () => {
    expectDefinitionError(() => compile(task('A').next(new Fold('F', { entry: ENTRY, initial: 0 }))), W('F', 'next', 'a Fold must directly follow a Map or Parallel (it folds the fan-in items), and only that state may lead to it'));
  });

  it('a loop made only of Choice states', () => {
    const c1 = new Choice('C1');
    const c2 = new Choice('C2').when(Condition.isPresent('$.a'), c1).otherwise(new Succeed('Done'));
    c1.when(Condition.isPresent('$.b'), c2).otherwise(new Succeed('Done2'));
    expectDefinitionError(() => compile(task('A').next(c1)), W('C1', 'when', 'the Choice is in a loop made only of Choice states; a loop needs a function (e.g. a Pass) so that each iteration is a new invocation'));
  });

  it('consecutive Choices that would expand exponentially', () => {
    let next: Choice | Succeed = new Succeed('Done');
    for (let i = 0; i < 12; i++) next = new Choice(`C${i}`).when(Condition.isPresent(`$.a${i}`), next).otherwise(next);
    expectDefinitionError(() => compile(task('A').next(next)), W('A', 'next', 'the Choice states after this node expand to more than 1000 choice instructions; put a Pass between consecutive Choices'));
  });

  it('a Choice without rules', () => {
    expectDefinitionError(() => compile(task('A').next(new Choice('C').otherwise(task('B')))), W('C', 'when', 'the Choice has no when rules'));
  });

  it('invalid JSONPath in a condition', () => {
    expectDefinitionError(() => compile(task('A').next(new Choice('C').when(Condition.isPresent('x.y'), task('B')).otherwise(task('D')))), W('C', 'when[0]', 'invalid path "x.y": expected a path at position 0'));
  });

  it('a condition path names one value: no wildcards, filters or context paths', () => {
    const choice = (path: string): Definition => task('A').next(new Choice('C').when(Condition.numberEquals(path, 1), task('B')).otherwise(task('D')));
    expectDefinitionError(() => compile(choice('$.a[*]')), W('C', 'when[0]', `invalid path "$.a[*]": a reference path has only names and non-negative indexes (no wildcards, slices, filters or '..')`));
    expectDefinitionError(() => compile(choice('$$.Execution.Id')), W('C', 'when[0]', 'invalid path "$$.Execution.Id": the context object ($$) can only be read in payload templates'));
  });

  it('invalid itemsPath', () => {
    expectDefinitionError(() => compile(task('A').next(new MapState('M', { itemsPath: '$.a[x]' }).itemProcessor(task('I')))), W('M', 'itemsPath', `invalid path "$.a[x]": expected '*', a quoted name, an index, a slice or a filter '?(...)' at position 4`));
    expectDefinitionError(() => compile(task('A').next(new MapState('M', { itemsPath: '$..a' }).itemProcessor(task('I')))), W('M', 'itemsPath', `invalid path "$..a": a reference path has only names and non-negative indexes (no wildcards, slices, filters or '..')`));
  });

  it('resultPath names one place; inputPath and outputPath may select several values', () => {
    expectDefinitionError(() => compile(task('A', { resultPath: '$.a[0:1]' })), W('A', 'resultPath', `invalid path "$.a[0:1]": a reference path has only names and non-negative indexes (no wildcards, slices, filters or '..')`));
    expectDefinitionError(() => compile(task('A').addCatch(task('H'), { resultPath: '$.e[*]' })), W('A', 'catch[0].resultPath', `invalid path "$.e[*]": a reference path has only names and non-negative indexes (no wildcards, slices, filters or '..')`));
    expect(compile(task('A', { inputPath: '$.items[?(@.ok)]', outputPath: '$..id' })).nodes.A.ir.io).toEqual({ inputPath: '$.items[?(@.ok)]', outputPath: '$..id' });
    expectDefinitionError(() => compile(task('A', { outputPath: '$.a[?(@.b =~ /x/)]' })), W('A', 'outputPath', `invalid path "$.a[?(@.b =~ /x/)]": expected ==, !=, <, <=, >, >=, &&, || or ')' at position 10`));
  });

  it('payload templates: every .$ value is checked with the runtime grammar', () => {
    const parameters = (value: string, props = {}): Definition => task('A', { parameters: { nested: { 'x.$': value } }, ...props });
    expect(compile(parameters('$.a[?(@.b > 1)]..c')).nodes.A.ir.io).toEqual({ parameters: { nested: { 'x.$': '$.a[?(@.b > 1)]..c' } } });
    expect(compile(parameters("States.Format('a\\\\b \\{\\} {}', $['k'])")).nodes.A.ir.io?.parameters).toBeDefined();
    expectDefinitionError(() => compile(parameters("States.Format('{}', $.a")), W('A', 'parameters', `'x.$': invalid intrinsic "States.Format('{}', $.a": expected ')' at position 23`));
    expectDefinitionError(() => compile(parameters('States.Nope($.a)')), W('A', 'parameters', `'x.$': invalid intrinsic "States.Nope($.a)": the intrinsic function States.Nope is not supported (supported: ${SUPPORTED_INTRINSICS}) at position 0`));
    expectDefinitionError(() => compile(parameters('$.a[')), W('A', 'parameters', `'x.$': invalid path "$.a[": expected '*', a quoted name, an index, a slice or a filter '?(...)' at position 4`));
    expectDefinitionError(() => compile(task('A', { resultSelector: { 'x.$': 1 as unknown as string } })), W('A', 'resultSelector', `'x.$': must be a path ('$...', '$$...') or an intrinsic function call ('States.…'), got 1`));
  });

  it('payload templates read only the context paths the runtime provides', () => {
    expect(compile(task('A', { parameters: { 'id.$': '$$.Execution.Id', 's.$': "States.Format('{}', $$.State.Name)" } })).nodes.A.ir.io).toBeDefined();
    expectDefinitionError(() => compile(task('A', { parameters: { 'x.$': '$$.Execution.Input' } })), W('A', 'parameters', `'x.$': the context path $$.Execution.Input is not supported (available here: $$.Execution.Id, $$.State.Name)`));
    expectDefinitionError(() => compile(task('A', { parameters: { 'x.$': 'States.Array($$.Map.Item.Value)' } })), W('A', 'parameters', `'x.$': the context path $$.Map.Item.Value is not supported (available here: $$.Execution.Id, $$.State.Name)`));
    const map = (itemSelector: Record<string, string>): Definition => task('A').next(new MapState('M', { itemSelector }).itemProcessor(task('I')));
    expect(compile(map({ 'v.$': '$$.Map.Item.Value[?(@.x)]', 'i.$': '$$.Map.Item.Index' })).nodes).toBeDefined();
    expectDefinitionError(() => compile(map({ 'i.$': '$$.Map.Item.Index.x' })), W('M', 'itemSelector', `'i.$': the context path $$.Map.Item.Index.x is not supported (available here: $$.Execution.Id, $$.State.Name, $$.Map.Item.Value, $$.Map.Item.Index)`));
  });

  it('output processing on a Map or Parallel followed by a Fold', () => {
    const fold = () => new Fold('Sum', { entry: ENTRY, handler: 'sum', initial: 0 });
    expectDefinitionError(
      () => compile(task('A').next(new Parallel('P', { resultPath: '$.results' }).branch(task('B'))).next(fold())),
      W('P', 'resultPath', "a Parallel followed by a Fold ('Sum') cannot have resultPath: the Fold receives the branch outputs themselves; process the Fold's result instead"),
    );
    expectDefinitionError(
      () => compile(task('A').next(new MapState('M', { resultSelector: { 'n.$': '$[0]' } }).itemProcessor(task('B'))).next(fold())),
      W('M', 'resultSelector', "a Map followed by a Fold ('Sum') cannot have resultSelector: the Fold receives the branch outputs themselves; process the Fold's result instead"),
    );
    // ResultPath '$' is no processing: the Fold folds the outputs as before.
    expect(() => compile(task('A').next(new MapState('M', { resultPath: '$' }).itemProcessor(task('B'))).next(fold()))).not.toThrow();
  });

  it('an empty Parallel branch', () => {
    expectDefinitionError(() => compile(task('A').next(new Parallel('P').branch(task('B'), Chain.sequence()))), W('P', 'branches[1]', 'the branch is an empty chain'));
  });

  it('a Pass result that is not JSON', () => {
    expectDefinitionError(() => compile(new Pass('P', { result: { when: new Date(0) } })), W('P', 'result', 'the value is not plain JSON (found object)'));
  });

  it('invalid compile options', () => {
    expectDefinitionError(() => compile(task('A'), { inlineLimitBytes: 0 }), W('(workflow)', 'options.inlineLimitBytes', '0 is not an integer >= 1'));
  });

  it('a Choice without otherwise is a warning, not an error', () => {
    const compiled = compile(task('A').next(new Choice('C').when(Condition.isPresent('$.a'), task('B'))));
    expect(compiled.warnings).toEqual([W('C', 'otherwise', 'the Choice has no otherwise: if no condition matches, the run fails with States.NoChoiceMatched')]);
  });

  it('names cannot collide with implicit nodes (which contain a dot)', () => {
    expectDefinitionError(() => compile(new Parallel('P').branch(new Task('P.Join', { entry: ENTRY }))), W('P.Join', 'id', "'P.Join' contains characters outside [A-Za-z0-9_-] (Lambda function name charset)"));
  });
});
