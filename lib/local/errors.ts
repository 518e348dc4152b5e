import { UnumError } from '../../runtime/contract/errors';

/** The local engine cannot do what was asked: no such workflow, no cloud assembly, DynamoDB Local or Java missing, a synth that failed. */
export class UnumLocalError extends UnumError {}
