/** Runs a client command (`unum start|status|...|runs`) in-process, capturing what it writes. */
import { run, type CliIo } from '../../lib/cli/client';

export async function runClientCommand(argv: string[], stdin = '{}'): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (s: string) => { out += s; return true; } } as CliIo['stdout'],
    stderr: { write: (s: string) => { err += s; return true; } } as CliIo['stderr'],
    readStdin: () => stdin,
  };
  return { code: await run(argv, io), out, err };
}
