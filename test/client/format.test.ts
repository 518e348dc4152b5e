/** Human-readable output: a handler's cause (Lambda's JSON error document) is shown by its message in one-line places. */
import { causeSummary } from '../../lib/client/cause';
import { formatInspectReport } from '../../lib/client/format';

const lambdaCause = JSON.stringify({ errorType: 'CardDeclined', errorMessage: 'no funds', trace: ['CardDeclined: no funds', '    at charge (index.js:1:1)'] });

test('a Lambda error document is summarised by its errorMessage; any other cause is kept', () => {
  expect(causeSummary(lambdaCause)).toBe('no funds');
  expect(causeSummary('node A: handler timed out')).toBe('node A: handler timed out');
  expect(causeSummary('{"other":1}')).toBe('{"other":1}');
  expect(causeSummary('null')).toBe('null');
});

test('the failures table shows the summary, the status block the whole cause', () => {
  const text = formatInspectReport({
    run: { workflowId: 'w', status: 'FAILED', error: { node: 'Charge', error: 'CardDeclined', cause: lambdaCause } },
    fanIns: [],
    failures: [{ node: 'Charge', error: 'CardDeclined', cause: lambdaCause, caught: false }],
  });
  expect(text).toContain(`cause   ${lambdaCause}`);
  expect(text).toContain('failures\nnode    error         cause     caught\nCharge  CardDeclined  no funds  no');
});
