import type { RetryProps } from '../definition';
import type { Json } from '../../runtime/ir';
import type { Reporter } from './errors';
import { checkKeys } from './fields';

type AslRetrier = { readonly [field: string]: Json };

const RETRIER_FIELDS = ['ErrorEquals', 'IntervalSeconds', 'MaxAttempts', 'BackoffRate', 'MaxDelaySeconds', 'JitterStrategy', 'Comment'];

/** ASL `Retry` rules as DSL retry props: same fields, same defaults (interval 1 s, 3 attempts, backoff 2). */
export function retryProps(report: Reporter, name: string, retry: Json | undefined): RetryProps[] {
  return ((retry ?? []) as AslRetrier[]).map((r, i) => {
    checkKeys(report, name, `Retry[${i}]`, r, RETRIER_FIELDS);
    return {
      errors: r.ErrorEquals as string[],
      ...(r.MaxAttempts !== undefined ? { maxAttempts: r.MaxAttempts as number } : {}),
      ...(r.IntervalSeconds !== undefined ? { intervalSeconds: r.IntervalSeconds as number } : {}),
      ...(r.BackoffRate !== undefined ? { backoffRate: r.BackoffRate as number } : {}),
      ...(r.MaxDelaySeconds !== undefined ? { maxDelaySeconds: r.MaxDelaySeconds as number } : {}),
      ...(r.JitterStrategy !== undefined ? { jitter: r.JitterStrategy as 'FULL' | 'NONE' } : {}),
    };
  });
}
