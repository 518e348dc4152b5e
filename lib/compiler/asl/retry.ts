import type { RetryProps } from '../../definition';
import type { Json } from '../../../runtime/ir';

type AslRetrier = { readonly [field: string]: Json };

/** ASL `Retry` rules as DSL retry props: same fields, same defaults (interval 1 s, 3 attempts, backoff 2). */
export function retryProps(retry: Json | undefined): RetryProps[] {
  return ((retry ?? []) as AslRetrier[]).map((r) => ({
    errors: r.ErrorEquals as string[],
    ...(r.MaxAttempts !== undefined ? { maxAttempts: r.MaxAttempts as number } : {}),
    ...(r.IntervalSeconds !== undefined ? { intervalSeconds: r.IntervalSeconds as number } : {}),
    ...(r.BackoffRate !== undefined ? { backoffRate: r.BackoffRate as number } : {}),
    ...(r.MaxDelaySeconds !== undefined ? { maxDelaySeconds: r.MaxDelaySeconds as number } : {}),
    ...(r.JitterStrategy !== undefined ? { jitter: r.JitterStrategy as 'FULL' | 'NONE' } : {}),
  }));
}
