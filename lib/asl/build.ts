import { State, type NextableState } from '../definition';
import { choiceReader } from './choice';
import type { BuildContext, StateReader, Translation } from './context';
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
  const created = new Map<string, Translation>();
  const entries = Object.entries(scope.States);
  for (const [name, state] of entries) {
    checkFields(ctx.report, name, state);
    const made = READERS[state.Type].create(ctx, name, state);
    created.set(name, made instanceof State ? { entry: made, exit: made } : made);
  }
  const lookup = (name: string): State => (created.get(name) as Translation).entry;
  for (const [name, state] of entries) {
    const translation = created.get(name) as Translation;
    // asl-validator allows Next only on states that have one (Task, Pass, Parallel, Map, Wait).
    if (typeof state.Next === 'string') (translation.exit as NextableState).next(lookup(state.Next));
    READERS[state.Type].wire?.(ctx, name, state, translation, lookup);
  }
  return lookup(scope.StartAt);
}
