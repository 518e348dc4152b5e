/**
 * Observability without dependencies: one JSON line per transition (fits
 * Lambda's JSON log format) and CloudWatch Embedded Metric Format lines.
 */
import { METRICS } from '../contract/ir';

/**
 * Written straight to stdout, not through `console`: under Lambda's JSON log
 * format the runtime wraps console output in its own JSON record, which hides
 * EMF documents from CloudWatch's metric extraction; raw lines pass unchanged.
 */
export function writeLogLine(doc: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(doc)}\n`);
}

export function writeTransitionLog(fields: Record<string, unknown>): void {
  writeLogLine({ timestamp: new Date().toISOString(), level: 'INFO', message: 'unum transition', ...fields });
}

export type MetricName = Exclude<keyof typeof METRICS, 'namespace'>;

/** One EMF line with the given metrics, dimensions [Workflow] and [Workflow, Node]. */
export function emitMetrics(workflow: string, node: string, values: Partial<Record<MetricName, number>>): void {
  const entries = Object.entries(values) as [MetricName, number][];
  if (entries.length === 0) return;
  const doc: Record<string, unknown> = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: METRICS.namespace,
          Dimensions: [['Workflow'], ['Workflow', 'Node']],
          Metrics: entries.map(([k]) => ({ Name: METRICS[k], Unit: k === 'userCodeDuration' ? 'Milliseconds' : 'Count' })),
        },
      ],
    },
    Workflow: workflow,
    Node: node,
  };
  for (const [k, v] of entries) doc[METRICS[k]] = v;
  writeLogLine(doc);
}
