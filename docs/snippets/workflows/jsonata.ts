// The JSONata example of docs/writing-workflows.md; test/compiler/docs-examples.test.ts compiles it.
// #region imports
import * as path from 'node:path';
import { Choice, Condition, Definition, Fail, Pass, Task, Wait, WaitTime } from 'unum-cdk';

const entry = path.join(__dirname, 'handlers.ts');
// #endregion

export function jsonataOrder(): Definition {
  // #region jsonata
  const price = Task.jsonata<{ order: { lines: { qty: number; price: number }[] } }, { total: number }>('Price', {
    entry,
    handler: 'sum', // returns the sum of the numbers it gets
    arguments: '{% $states.input.order.lines.(qty * price) %}',
    outputs: { total: '{% $states.result %}' },
  });
  const route = Choice.jsonata('Route')
    .when(Condition.jsonata('{% $states.input.total > 1000 %}'), Fail.jsonata('TooBig', { error: 'Order.TooBig', cause: '{% "total " & $string($states.input.total) %}' }))
    .otherwise(
      Wait.jsonata('CoolOff', { time: WaitTime.seconds('{% $states.input.total > 100 ? 60 : 0 %}') })
        .next(Pass.jsonata('Receipt', { outputs: { paid: '{% $states.input.total %}', at: '{% $states.context.Execution.Id %}' } })),
    );
  const definition = Definition.from(price.next(route));
  // #endregion
  return definition;
}
