/** How the runtime starts a successor invocation (asynchronously: the caller never waits for it). */
import type { Envelope } from '../contract/ir';

export interface Invoker {
  /** Queue one asynchronous invocation of `functionName` with `event`. */
  invoke(functionName: string, event: Envelope): Promise<void>;
}
