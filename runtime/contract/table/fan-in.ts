/** Fan-in records: the shards `fanin#<join>#<level>#<shard>` that count arrivals, and a state's failure `sfail#<join>`. */
import { boundedError } from '../errors';
import { ABSENT, type Item, N, PRESENT, type PutRequest, S, type UpdateRequest, newItem, put, str, ttlExtension, ttlOf, update } from './encoding';
import { stateFailureKey } from './keys';

/** The most arrivals one shard counts: a fan-in of N branches has ceil(N / 128) shards at its first level. */
export const SHARD_WIDTH = 128;

/** A fan-in shard: the arrival codes recorded so far (`a`, a number set), how many it expects (`n`), its TTL. */
export interface FanInShard {
  readonly arrivals: readonly number[];
  readonly expected: number;
  readonly ttl?: number;
}

/** Who claims a fan-in's renewal (an invocation's checkpoint key), and before when the root must expire for it to be due. */
export interface RenewalClaim {
  readonly by: string;
  readonly due: number;
}

/**
 * Renewing a shard's TTL to `:t`. With a claim, the renewal of the whole
 * fan-in is claimed on its root shard: due when the root expires before
 * `:due`, or claimed before by the same invocation (`rb`: a retry finishes what it began).
 */
export function shardRenewal(key: string, ttl: number, claim?: RenewalClaim): UpdateRequest {
  if (!claim) return ttlExtension(key, ttl);
  // A root no arrival has reached yet is created by the claim: the fan-in is renewed all the same.
  return update(key, 'SET #ttl = :t, rb = :by', { ':t': N(ttl), ':due': N(claim.due), ':by': S(claim.by) }, `${ABSENT} OR #ttl < :due OR rb = :by`);
}

/**
 * Recording an arrival: an upsert that creates the shard with the first
 * arrival (nobody creates shards up front) and keeps the TTL of an existing
 * shard (a renewal may have raised it). Adding to a set is idempotent, so a
 * retried or duplicate arrival never counts twice.
 */
export const shardArrival = (key: string, code: number, expected: number, ttl: number): UpdateRequest =>
  update(key, 'ADD a :x SET n = :n, #ttl = if_not_exists(#ttl, :t)', { ':x': { NS: [String(code)] }, ':n': N(expected), ':t': N(ttl) });

/** True for a recorded UpdateExpression that records an arrival (`shardArrival`). */
export const isShardArrival = (updateExpression: unknown): boolean => typeof updateExpression === 'string' && updateExpression.startsWith('ADD a ');

/** `text` with the join names in shard keys replaced by `<join>`, so that texts of different runs compare. */
export const maskShardJoins = (text: string): string => text.replace(/fanin#[A-Za-z0-9_-]+#/g, 'fanin#<join>#');

export const decodeShard = (item: Item): FanInShard => ({ arrivals: (item.a?.NS ?? []).map(Number), expected: Number(item.n?.N ?? 0), ttl: ttlOf(item) });

/**
 * Why one attempt of a Parallel/Map state failed: the first branch error
 * recorded (`e`, `ca`, bounded like every stored error), the invocation that
 * failed (`b`: its later executions owe the join's notice), and, once its
 * join decided to retry, the retries used per Retry rule so far (`r`, JSON).
 */
export interface StateFailure {
  readonly error: string;
  readonly cause: string;
  readonly by?: string;
  readonly retries?: readonly number[];
}

/** The first failing branch's put wins: the state fails once, with its error. */
export function stateFailurePut(join: string, failure: { error: string; cause: string; by: string }, ttl: number): PutRequest {
  const { error, cause } = boundedError({ error: failure.error, cause: failure.cause });
  return put({ ...newItem(stateFailureKey(join), ttl), e: S(error), ca: S(cause), b: S(failure.by) }, ABSENT);
}

/** The join records the retries used when it decides to retry (a value it computes the same way every time). */
export const stateRetries = (join: string, retries: readonly number[]): UpdateRequest =>
  update(stateFailureKey(join), 'SET r = :r', { ':r': S(JSON.stringify(retries)) }, PRESENT);

export function decodeStateFailure(item: Item | undefined): StateFailure | undefined {
  if (!item) return undefined;
  const retries = str(item, 'r');
  const by = str(item, 'b');
  return {
    error: str(item, 'e') ?? 'Error',
    cause: str(item, 'ca') ?? '',
    ...(by === undefined ? {} : { by }),
    ...(retries === undefined ? {} : { retries: JSON.parse(retries) as number[] }),
  };
}
