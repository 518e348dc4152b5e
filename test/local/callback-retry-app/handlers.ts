/** Handlers of the callback retry tests: every attempt of the callback Task hands its token out through its own file. */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

interface UnumContext {
  readonly runId: string;
}

/** What the handler recorded of one token: when it was first handed out, and how many calls handed it out. */
export interface Handed {
  readonly token: string;
  readonly at: number;
  readonly calls: number;
}

/** One file per token (`<run>@<digest>.json`): a later execution of the same attempt counts its call in the same file. */
export function request(input: { token: string }, _lambda: unknown, unum: UnumContext): { requested: true } {
  const file = path.join(process.env.CALLBACK_TOKENS as string, `${unum.runId}@${createHash('sha256').update(input.token).digest('hex').slice(0, 16)}.json`);
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Handed) : undefined;
  const handed: Handed = { token: input.token, at: before?.at ?? Date.now(), calls: (before?.calls ?? 0) + 1 };
  fs.writeFileSync(file, JSON.stringify(handed));
  return { requested: true };
}

export const ship = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, shipped: true });
