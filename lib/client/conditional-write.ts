/**
 * The client's conditional writes (stop, redrive) race the runtime's: a
 * refused condition means another party got there first, which the caller
 * then reads from the table instead of failing.
 */
export const conditionFailed = (e: unknown): boolean => (e as { name?: unknown } | undefined)?.name === 'ConditionalCheckFailedException';

/** The write's result, or undefined where DynamoDB refused it because its condition failed. */
export function unlessConditionFailed<T>(write: Promise<T>): Promise<T | undefined> {
  return write.catch((e: unknown) => (conditionFailed(e) ? undefined : Promise.reject(e)));
}
