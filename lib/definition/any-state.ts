import type { Choice } from './choice';
import type { Fail } from './fail';
import type { Fold } from './fold';
import type { MapState } from './map';
import type { Parallel } from './parallel';
import type { Pass } from './pass';
import type { Succeed } from './succeed';
import type { Task } from './task';
import type { Wait } from './wait';

/** Every concrete state, discriminated by `kind` (what the compiler switches on). */
export type AnyState = Task | Pass | Wait | Fold | Parallel | MapState | Choice | Succeed | Fail;
