import type { RetryProps } from '../definition';
import type { ErrorRulesState } from '../definition/error-rules';
import type { BuildContext, StateLookup } from './context';
import type { Json } from '../../runtime/contract/ir';
import type { Reporter } from './errors';
import { checkKeys } from './fields';

type AslRetrier = { readonly [field: string]: Json };
type AslCatcher = { readonly ErrorEquals: string[]; readonly Next: string; readonly ResultPath?: string | null };

const RETRIER_FIELDS = ['ErrorEquals', 'IntervalSeconds', 'MaxAttempts', 'BackoffRate', 'MaxDelaySeconds', 'JitterStrategy', 'Comment'];

/** Adds a state's ASL `Retry` rules (Task, Parallel, Map). */
export function addRetries(ctx: BuildContext, name: string, retry: Json | undefined, state: ErrorRulesState): void {
  for (const props of retryProps(ctx.report, name, retry)) state.addRetry(props);
}

/** Adds a state's ASL `Catch` rules (Task, Parallel, Map); their targets exist once the whole scope is created. */
export function addCatches(ctx: BuildContext, name: string, catchers: Json | undefined, state: ErrorRulesState, lookup: StateLookup): void {
  for (const [i, c] of ((catchers ?? []) as Json[] as AslCatcher[]).entries()) {
    checkKeys(ctx.report, name, `Catch[${i}]`, c, ['ErrorEquals', 'Next', 'ResultPath', 'Comment']);
    state.addCatch(lookup(c.Next), { errors: c.ErrorEquals, ...(c.ResultPath !== undefined ? { resultPath: c.ResultPath } : {}) });
  }
}

/** ASL `Retry` rules as DSL retry props: same fields, same defaults (interval 1 s, 3 attempts, backoff 2). */
function retryProps(report: Reporter, name: string, retry: Json | undefined): RetryProps[] {
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
