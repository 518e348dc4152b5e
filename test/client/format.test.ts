/** Human-readable output: a handler's cause (Lambda's JSON error document) is shown by its message in one-line places. */
import { causeSummary } from '../../lib/client/cause';
import { formatInspectReport, formatRunList, formatStatus } from '../../lib/client/format';

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
  expect(text).toContain('failures\nstate   error         cause     caught\nCharge  CardDeclined  no funds  no');
});

test('the state where a run ended comes first, with the node that ran it; retried attempts are counted by error', () => {
  const text = formatInspectReport({
    run: { workflowId: 'w', status: 'FAILED', error: { node: 'Validate', state: 'Declined', error: 'Card.Declined', cause: 'expired' } },
    history: [
      { seq: 1, node: 'Charge', state: 'Charge', invocation: 'i1', iteration: 0, indexes: [], at: 't1', outcome: 'committed', attempts: 4, retried: ['GatewayBusy', 'Throttled', 'GatewayBusy'] },
      { seq: 2, node: 'Validate', state: 'Validate', invocation: 'i2', iteration: 0, indexes: [], at: 't2', outcome: 'failed', error: { state: 'Declined', error: 'Card.Declined', cause: 'expired' } },
    ],
    fanIns: [],
    failures: [{ node: 'Validate', state: 'Declined', error: 'Card.Declined', cause: 'expired', caught: false }],
  });
  expect(text.startsWith('run     w\nstatus  FAILED\nstate   Declined\nnode    Validate\nerror   Card.Declined\ncause   expired\n')).toBe(true);
  expect(text).toContain('1    t1  Charge               -      0     committed  4: GatewayBusy x2, Throttled');
  expect(text).toContain('2    t2  Declined (Validate)  -      0     failed');
  expect(text).toContain('Declined (Validate)  Card.Declined  expired  no');
});

test('a run shows its deployment; a run of an unum-cdk before deployments shows none (- in a listing)', () => {
  const D = 'd0123456789abcdef0123';
  expect(formatStatus({ workflowId: 'w', status: 'RUNNING', deployment: D })).toBe(`run         w\nstatus      RUNNING\ndeployment  ${D}`);
  expect(formatStatus({ workflowId: 'w', status: 'RUNNING' })).toBe('run     w\nstatus  RUNNING');
  expect(formatRunList({ runs: [{ workflowId: 'new', status: 'RUNNING', deployment: D }, { workflowId: 'old', status: 'RUNNING' }] }).split('\n')).toEqual([
    'run  status   deployment             started  finished  duration  error',
    `new  RUNNING  ${D}  -        -                   `,
    'old  RUNNING  -                      -        -                   ',
  ]);
});
