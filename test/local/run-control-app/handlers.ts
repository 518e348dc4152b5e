/** Handlers of the run-control tests: the callback Task hands its token out through a file the test reads. */
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomically } from '../../support/atomic-file';

export const prepare = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, prepared: true });
export const ship = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, shipped: true });

/** Writes the task token where the test (the approver) finds it, by run id. */
export function request(input: { token: string }, _lambda: unknown, unum: { readonly runId: string }): { requested: true } {
  const file = path.join(process.env.CALLBACK_TOKENS as string, `${unum.runId}.json`);
  if (!fs.existsSync(file)) writeFileAtomically(file, JSON.stringify({ token: input.token }));
  return { requested: true };
}
