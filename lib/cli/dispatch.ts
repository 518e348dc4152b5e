/**
 * The `unum` command line (bin/cli.ts): help, then one module per command
 * group. Conventions, as in git and npm:
 *   unum --help | -h | help          the overview on stdout, exit 0
 *   unum                             the overview on stderr, exit 2 (no command: a bad command line)
 *   unum help <cmd> | <cmd> --help   that command's help on stdout, exit 0
 *   unknown command or option        one line on stderr naming it and where the help is, exit 2
 * A command's module exports `main(argv): Promise<number>` (the exit code).
 */
import { UnumError } from '../../runtime/contract/errors';
import { UsageError } from './argv';
import { asksForHelp, commandHelp, isCommand, overview, usageLine } from './help';

/** Where dispatch writes; injectable for tests. */
export interface DispatchIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/** A command's module; those that print their own usage errors (client commands, compile-asl) take the io too. */
type CommandModule = { main(argv: string[], io?: DispatchIo): Promise<number> };

/* eslint-disable @typescript-eslint/no-require-imports -- commands load lazily; under module node16 a
   dynamic import() stays native ESM and cannot resolve extensionless TypeScript paths */
const clientCommands = (): CommandModule => require('./client');
const MODULES: Readonly<Record<string, () => CommandModule>> = {
  local: () => require('./local'),
  graph: () => require('./graph'),
  cost: () => require('./cost'),
  'compile-asl': () => require('./asl'),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Runs the command line `argv` (without `unum`); resolves to the exit code. */
export async function dispatch(argv: readonly string[], io: DispatchIo = process): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(`${overview()}\n`);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') return help(name === 'help' ? rest : [], io);
  if (!isCommand(name)) {
    io.stderr.write(`${usageLine(undefined, name.startsWith('-') ? `unknown option ${name}` : `unknown command '${name}'`)}\n`);
    return 2;
  }
  if (asksForHelp(rest)) {
    io.stdout.write(`${commandHelp(name)}\n`);
    return 0;
  }
  try {
    // The client commands share one module, which takes the command name too.
    const load = MODULES[name];
    return await (load ? load().main([...rest], io) : clientCommands().main([...argv], io));
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`${usageLine(name, err.message)}\n`);
      return 2;
    }
    if (!(err instanceof UnumError)) throw err;
    io.stderr.write(`unum: ${err.message}\n`);
    return 1;
  }
}

/** `unum help [command]`. */
function help(topic: readonly string[], io: DispatchIo): number {
  const [name] = topic;
  if (name === undefined) {
    io.stdout.write(`${overview()}\n`);
    return 0;
  }
  if (!isCommand(name)) {
    io.stderr.write(`${usageLine(undefined, `unknown command '${name}'`)}\n`);
    return 2;
  }
  io.stdout.write(`${commandHelp(name)}\n`);
  return 0;
}
