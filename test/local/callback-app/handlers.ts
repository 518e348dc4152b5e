/** Handlers of the callback tests: the callback Task hands its token out through a file the test reads. */
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomically } from '../../support/atomic-file';

interface UnumContext {
  readonly runId: string;
  readonly taskToken?: string;
}

/** Writes what a partner would receive: the token from the payload (`$$.Task.Token`) and from the unum context. */
export function request(input: { token?: string }, _lambda: unknown, unum: UnumContext): { requested: true } {
  const dir = process.env.CALLBACK_TOKENS as string;
  const file = path.join(dir, `${unum.runId}.json`);
  // At least once: a later execution of the same invocation hands out the same token, so keep the first file.
  if (!fs.existsSync(file)) writeFileAtomically(file, JSON.stringify({ payloadToken: input.token, contextToken: unum.taskToken, input }));
  return { requested: true };
}

/** A Map item's request: one file per item, named by the run and the item's id. */
export function requestItem(input: { token: string; id: string }, _lambda: unknown, unum: UnumContext): { requested: true } {
  writeFileAtomically(path.join(process.env.CALLBACK_TOKENS as string, `${unum.runId}-${input.id}.json`), JSON.stringify({ payloadToken: input.token, input }));
  return { requested: true };
}

export const ship = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, shipped: true });
