/** Handlers of the callback retry and redrive tests: every call of the callback Task's handler hands its token out through its own file. */
import { createHash, randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomically } from '../../support/atomic-file';

interface UnumContext {
  readonly runId: string;
}

/** One call of the handler: the token it handed out, when, and the input's `order`. */
export interface Call {
  readonly token: string;
  readonly at: number;
  readonly order?: unknown;
}

/** The directory's files of run `id`'s calls: `<run>@<token digest>@<call>.json`. */
export const callFiles = (dir: string, id: string): string[] => fs.readdirSync(dir).filter((f) => f.startsWith(`${id}@`));

/**
 * One file per call, written whole: duplicate executions of one attempt
 * call the handler concurrently, and a shared file read, changed and
 * written back would lose their calls or be read half-written.
 */
export function request(input: { token: string; order?: unknown }, _lambda: unknown, unum: UnumContext): { requested: true } {
  const digest = createHash('sha256').update(input.token).digest('hex').slice(0, 16);
  const call: Call = { token: input.token, at: Date.now(), order: input.order };
  writeFileAtomically(path.join(process.env.CALLBACK_TOKENS as string, `${unum.runId}@${digest}@${randomUUID()}.json`), JSON.stringify(call));
  return { requested: true };
}

/**
 * Fails the run once the callback Task beside it handed out its token as
 * often as this ran (waiting up to 20 s): named States.Runtime, a terminal
 * error, so that the run fails at once, without Lambda's retries.
 */
export async function boom(_input: unknown, _lambda: unknown, unum: UnumContext): Promise<never> {
  const dir = process.env.CALLBACK_TOKENS as string;
  const mine = path.join(dir, `${unum.runId}.boom`);
  const runs = (fs.existsSync(mine) ? Number(fs.readFileSync(mine, 'utf8')) : 0) + 1;
  writeFileAtomically(mine, String(runs));
  for (let i = 0; i < 400 && callFiles(dir, unum.runId).length < runs; i++) await new Promise((r) => setTimeout(r, 50));
  const e = new Error('the other branch failed');
  e.name = 'States.Runtime';
  throw e;
}

export const ship = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, shipped: true });
