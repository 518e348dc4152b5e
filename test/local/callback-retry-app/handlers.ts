/** Handlers of the callback retry and redrive tests: every attempt of the callback Task hands its token out through its own file. */
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
  /** The input's `order`, as the last call got it. */
  readonly order?: unknown;
}

/** One file per token (`<run>@<digest>.json`): a later execution of the same attempt counts its call in the same file. */
export function request(input: { token: string; order?: unknown }, _lambda: unknown, unum: UnumContext): { requested: true } {
  const file = path.join(process.env.CALLBACK_TOKENS as string, `${unum.runId}@${createHash('sha256').update(input.token).digest('hex').slice(0, 16)}.json`);
  const before = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Handed) : undefined;
  const handed: Handed = { token: input.token, at: before?.at ?? Date.now(), calls: (before?.calls ?? 0) + 1, order: input.order };
  fs.writeFileSync(file, JSON.stringify(handed));
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
  fs.writeFileSync(mine, String(runs));
  const calls = (): number => {
    const file = fs.readdirSync(dir).find((f) => f.startsWith(`${unum.runId}@`));
    return file ? (JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Handed).calls : 0;
  };
  for (let i = 0; i < 400 && calls() < runs; i++) await new Promise((r) => setTimeout(r, 50));
  const e = new Error('the other branch failed');
  e.name = 'States.Runtime';
  throw e;
}

export const ship = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, shipped: true });
