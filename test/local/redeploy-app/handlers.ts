/** Handlers of the redeploy tests: each says which version of the app ran it. */
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomically } from '../../support/atomic-file';

interface UnumContext {
  readonly runId: string;
}

/** The callback Task: hands its token out through a file named by the run, as a partner would receive it. */
export function request(input: { token: string }, _lambda: unknown, unum: UnumContext): { requested: true } {
  const file = path.join(process.env.CALLBACK_TOKENS as string, `${unum.runId}.json`);
  if (!fs.existsSync(file)) writeFileAtomically(file, JSON.stringify({ token: input.token }));
  return { requested: true };
}

export const computeV1 = (): { computed: string } => ({ computed: 'v1' });
export const computeV2 = (): { computed: string } => ({ computed: 'v2' });
export const extra = (): { extra: true } => ({ extra: true });

type Steps = { readonly steps?: readonly string[] };
export const stepV1 = (input: Steps): Steps => ({ steps: [...(input.steps ?? []), 'v1'] });
export const stepV2 = (input: Steps): Steps => ({ steps: [...(input.steps ?? []), 'v2'] });

export function brokenV1(): never {
  const err = new Error('B is broken in version 1');
  err.name = 'Broken';
  throw err;
}
export const fixedV2 = (input: Steps): Steps & { fixed: string } => ({ ...input, fixed: 'v2' });
