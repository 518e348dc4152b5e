import type { State } from '../definition';
import type { Reporter } from './errors';
import type { NodeNames } from './names';
import type { TaskCatalog } from './task-catalog';
import type { AslScope, AslState } from './types';

/** What every state reader needs while the document is translated. */
export interface BuildContext {
  readonly report: Reporter;
  readonly names: NodeNames;
  readonly tasks: TaskCatalog;
  /** Translates a nested scope (Parallel branch, Map item processor); returns its start state. */
  buildScope(scope: AslScope): State;
}

/** Looks up the translated state of an ASL state name of the same scope. */
export type StateLookup = (name: string) => State;

/**
 * The translation of one ASL state: usually a single DSL state; a Choice or
 * Succeed with InputPath/OutputPath is a short chain, entered at `entry` and
 * continued (`Next`, Choice rules) from `exit`.
 */
export interface Translation {
  readonly entry: State;
  readonly exit: State;
}

/** How one ASL state type is translated: `create` makes the DSL state(s), `wire` adds its transitions once all states of the scope exist. */
export interface StateReader {
  create(ctx: BuildContext, name: string, state: AslState): State | Translation;
  wire?(ctx: BuildContext, name: string, state: AslState, created: Translation, lookup: StateLookup): void;
}
