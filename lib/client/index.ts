export * from './client';
export * from './errors';
export * from './history';
export * from './inspect';
export type { DeadLetterOutcome, RecoveredDeadLetter, RecoverOptions, RecoveryReport } from './recover';
export * from './types';
export * from './stack';
export * from './format';
