/** The base of the errors of reading runs; the client exports it (`unum-cdk/client`), and its other errors extend it. */
import { UnumError } from '../../runtime/contract/errors';

/** Base class of every error the client throws on purpose (not SDK or network errors). */
export class UnumClientError extends UnumError {}
