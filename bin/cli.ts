/**
 * `unum` command line: lib/cli/dispatch.ts reads the command line; an error
 * no command turned into a message and an exit code is printed here (exit 1).
 */
import { dispatch } from '../lib/cli/dispatch';

dispatch(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    process.stderr.write(`unum: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
