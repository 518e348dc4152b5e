import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS } from '../../runtime/contract/ir';

/** Dimension the runtime puts on every EMF metric (see docs/architecture.md, Observability). */
export const WORKFLOW_DIMENSION = 'Workflow';

/** A metric the runtime emits for this workflow (namespace `Unum`, dimension `Workflow`). */
export function workflowMetric(workflow: string, metricName: string, props: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS.namespace,
    metricName,
    statistic: cloudwatch.Stats.SUM,
    period: Duration.minutes(5),
    ...props,
    dimensionsMap: { [WORKFLOW_DIMENSION]: workflow, ...props.dimensionsMap },
  });
}
