/** The metrics the runtime emits (CloudWatch Embedded Metric Format). */

export const METRICS = {
  namespace: 'Unum',
  transitions: 'Transitions',
  duplicates: 'DuplicateExecutions',
  fanInCompletions: 'FanInCompletions',
  failures: 'Failures',
  userCodeDuration: 'UserCodeDuration',
  rejectedEvents: 'RejectedEvents',
} as const;
