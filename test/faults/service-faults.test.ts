/**
 * Each kind of service fault, injected by the fault proxy on a chosen call of
 * a Chain3 run (A -> B -> C): the SDK in the sandbox retries what DynamoDB or
 * Lambda refused or failed (throttling, 429, 500 before the call, 500 after
 * it took effect), an outage longer than the SDK's attempts (3 or 4, by SDK
 * version) fails the execution and Lambda's retry finishes it, and the run
 * ends with the fault-free result. And an eventually consistent read
 * answered by a replica that has seen none of its items: the step asks the
 * leader again.
 */
import { expectationFor } from '../../lib/testing/campaign';
import { checkedRun, referenceRun } from '../../lib/testing/fault-run';
import { NO_EVENT_FAULT, type CallFault, type CallInfo, type EventFault, type ExecutionInfo, type FaultPlan } from '../../lib/local/fault-plan';
import type { CallRecord } from '../../lib/local/call-records';
import { FAULT_TARGETS } from './app/targets';
import { useFaultEngine } from './fault-engine';

interface Scripted {
  readonly node: string;
  /** The call's label, or its start (`Invoke(`). */
  readonly label: string;
  readonly occurrences: readonly number[];
  readonly fault: CallFault;
}

/** Injects the scripted faults on the first attempt of each node's invocation. */
class ScriptedPlan implements FaultPlan {
  readonly fired: Array<{ step: Scripted; executionId: string; call: CallInfo }> = [];

  constructor(private readonly functionOf: (node: string) => string, private readonly script: readonly Scripted[]) {}

  callFault(exec: ExecutionInfo, call: CallInfo): CallFault {
    const step = this.script.find((s) => exec.functionName === this.functionOf(s.node) && exec.attempt === 1 && !exec.duplicate
      && call.label.startsWith(s.label) && s.occurrences.includes(call.occurrence));
    if (!step) return 'none';
    this.fired.push({ step, executionId: exec.executionId, call });
    return step.fault;
  }

  eventFault(): EventFault {
    return NO_EVENT_FAULT;
  }

  rerunSucceeded(): boolean {
    return false;
  }
}

const faultEngine = useFaultEngine();

test('the SDK and Lambda retries absorb throttling, 500s, 429s and a short outage; the run keeps its result', async () => {
  const engine = faultEngine();
  const chain = FAULT_TARGETS.find((t) => t.workflow === 'Chain3');
  if (!chain) throw new Error('no Chain3 target');
  const expectation = expectationFor(chain, await referenceRun(engine, 'Chain3', chain.input), engine);
  const functionOf = (node: string): string => engine.workflow('Chain3').nodes[node]?.functionName ?? '?';
  const plan = new ScriptedPlan(functionOf, [
    { node: 'A', label: 'PutItem(run)', occurrences: [0], fault: 'throughput' },
    { node: 'A', label: 'PutItem(ckpt)', occurrences: [0], fault: 'error-after' },
    // B's read: the run record, one GetItem beside its commit (its input came inline).
    { node: 'B', label: 'GetItem(run)', occurrences: [0], fault: 'throttling' },
    { node: 'B', label: 'PutItem(ckpt)', occurrences: [0], fault: 'error-before' },
    { node: 'B', label: 'Invoke(', occurrences: [0], fault: 'throttling' },
    // C ends the run: its commit is the run record's final write.
    { node: 'C', label: 'UpdateItem(run)', occurrences: [0, 1, 2, 3, 4, 5, 6, 7], fault: 'unreachable' },
  ]);
  const run = await checkedRun(engine, 'Chain3', chain.input, plan, expectation, { keep: true });
  try {
    expect(run.violations).toEqual([]);
    expect(run.record?.status).toBe('SUCCEEDED');
    expect(run.serviceFaults).toBe(plan.fired.length);
    expect(run.callFaults).toBe(0);
    expect(plan.fired.map((f) => `${f.step.node} ${f.call.label.replace(/\(.*/, '')}#${f.call.occurrence} ${f.step.fault}`)).toEqual(expect.arrayContaining([
      'A PutItem#0 throughput', 'A PutItem#0 error-after', 'B GetItem#0 throttling', 'B PutItem#0 error-before', 'B Invoke#0 throttling',
      'C UpdateItem#0 unreachable', 'C UpdateItem#1 unreachable', 'C UpdateItem#2 unreachable',
    ]));
    const calls = engine.traffic.of(run.workflowId);
    const callsOf = (executionId: string, label: string): CallRecord[] => calls.filter((c) => c.exec.executionId === executionId && c.call.label === label);

    // Every refused or failed call was sent again by the SDK, in the same execution, and went through.
    for (const { step, executionId, call } of plan.fired.filter((f) => f.step.fault !== 'unreachable')) {
      const retry = callsOf(executionId, call.label).find((c) => c.call.occurrence === call.occurrence + 1);
      expect({ fault: step.fault, retried: retry?.fault, status: retry?.status }).toEqual({ fault: step.fault, retried: 'none', status: expect.any(Number) });
    }
    // The checkpoint write that took effect before its 500: its retry finds it written (by itself) and the run goes on.
    const afterFault = plan.fired.find((f) => f.step.fault === 'error-after');
    const [written, retried] = callsOf(afterFault?.executionId ?? '', afterFault?.call.label ?? '');
    expect([written?.status, retried?.status]).toEqual([200, 400]);
    expect(retried?.response).toContain('ConditionalCheckFailedException');

    // A and B: the SDK absorbed their faults, Lambda never retried them. C: the outage outlasted the SDK's attempts.
    const timeline = engine.emulator.timeline.of(run.workflowId);
    const attempts = (node: string): string[] => timeline.filter((e) => e.functionName === functionOf(node)).map((e) => `${e.attempt} ${e.outcome ?? ''}`);
    expect(attempts('A')).toEqual(['1 ok']);
    expect(attempts('B')).toEqual(['1 ok']);
    expect(attempts('C')).toEqual(['1 error', '2 ok']);
    const outage = plan.fired.find((f) => f.step.fault === 'unreachable');
    const tries = callsOf(outage?.executionId ?? '', 'UpdateItem(run)');
    expect(tries.length).toBeGreaterThanOrEqual(3);
    expect(tries.every((c) => c.fault === 'unreachable')).toBe(true);
  } finally {
    engine.forget(run.workflowId);
  }
});

test('a first read answered by a lagging replica (no items) is asked again consistently: one attempt per node, the fault-free result', async () => {
  const engine = faultEngine();
  const target = FAULT_TARGETS.find((t) => t.workflow === 'Parallel3');
  if (!target) throw new Error('no Parallel3 target');
  const expectation = expectationFor(target, await referenceRun(engine, 'Parallel3', target.input), engine);
  const nodes = Object.keys(engine.workflow('Parallel3').nodes);
  const functionOf = (node: string): string => engine.workflow('Parallel3').nodes[node]?.functionName ?? '?';
  const plan = new ScriptedPlan(functionOf, nodes.flatMap((node) => ['BatchGetItem(', 'GetItem('].map((label) => ({ node, label, occurrences: [0], fault: 'stale' as const }))));
  const run = await checkedRun(engine, 'Parallel3', target.input, plan, expectation, { keep: true });
  try {
    expect(run.violations).toEqual([]);
    expect(run.record).toMatchObject({ status: 'SUCCEEDED', result: { sum: 12, parts: [2, 4, 6] } });
    const timeline = engine.emulator.timeline.of(run.workflowId);
    expect(timeline.filter((e) => e.attempt !== 1 || e.outcome !== 'ok')).toEqual([]);
    const calls = engine.traffic.of(run.workflowId);
    const consistency = (request: string): string => {
      const parsed = JSON.parse(request) as { ConsistentRead?: boolean; RequestItems?: Record<string, { ConsistentRead?: boolean }> };
      const [table] = Object.values(parsed.RequestItems ?? { get: parsed });
      return table?.ConsistentRead === true ? 'consistent' : 'eventual';
    };
    const reads = (node: string): string[] =>
      calls.filter((c) => c.exec.functionName === functionOf(node) && ['BatchGetItem', 'GetItem'].includes(c.call.operation)).map((c) => `${c.call.operation} ${c.fault} ${consistency(c.request)}`);
    // The join missed its shards and its branches' outputs: it asked the leader once more.
    expect(reads('Sum')).toEqual(['BatchGetItem stale eventual', 'BatchGetItem none consistent']);
    // A branch's input came inline: it reads only the run record, beside its commit, and a lagging replica's
    // answer (no record) hides no final status: it goes on, and asks nothing again.
    expect(reads('Times1')).toEqual(['GetItem stale eventual']);
    expect(run.staleReads).toBe(plan.fired.filter((f) => f.call.eventuallyConsistent).length);
    expect(run.staleReads).toBeGreaterThanOrEqual(2);
  } finally {
    engine.forget(run.workflowId);
  }
});
