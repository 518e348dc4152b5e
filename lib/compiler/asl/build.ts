import type { NextableState, State } from '../../definition';
import { choiceReader } from './choice';
import type { BuildContext, StateReader } from './context';
import { failReader } from './fail';
import { checkFields } from './fields';
import { mapReader } from './map';
import { parallelReader } from './parallel';
import { passReader } from './pass';
import { succeedReader } from './succeed';
import { taskReader } from './task';
import type { AslScope } from './types';
import { waitReader } from './wait';

const READERS: Readonly<Record<string, StateReader>> = {
  Task: taskReader,
  Pass: passReader,
  Choice: choiceReader,
  Parallel: parallelReader,
  Map: mapReader,
  Succeed: succeedReader,
  Fail: failReader,
  Wait: waitReader,
};

/**
 * Translates one `{ StartAt, States }` scope: first every state (so that
 * transitions, including loops back to earlier states, have a target), then
 * the transitions in document order. asl-validator has already checked that
 * every `Next` / `Default` / `Catch.Next` names a state of the same scope.
 */
export function buildScope(ctx: BuildContext, scope: AslScope): State {
  const created = new Map<string, State>();
  const entries = Object.entries(scope.States);
  for (const [name, state] of entries) {
    checkFields(ctx.report, name, state);
    created.set(name, READERS[state.Type].create(ctx, name, state));
  }
  const lookup = (name: string): State => created.get(name) as State;
  for (const [name, state] of entries) {
    const dsl = created.get(name) as State;
    if (typeof state.Next === 'string') (dsl as NextableState).next(lookup(state.Next));
    READERS[state.Type].wire?.(ctx, name, state, dsl, lookup);
  }
  return lookup(scope.StartAt);
}
