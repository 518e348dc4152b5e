/**
 * `unum` command line: dispatches to one module per command group.
 * Each module exports `main(argv): Promise<number>` (the exit code).
 */
import { UsageError } from '../lib/cli/argv';

type CommandModule = { main(argv: string[]): Promise<number> };
/* eslint-disable @typescript-eslint/no-require-imports -- commands load lazily; under module node16 a
   dynamic import() stays native ESM and cannot resolve extensionless TypeScript paths */

const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  local: { summary: 'run a synthesized app on this machine: local run <workflow> | local start', load: () => require('../lib/cli/local') },
  start: { summary: 'start a run', load: () => require('../lib/cli/client') },
  status: { summary: 'status of a run', load: () => require('../lib/cli/client') },
  result: { summary: 'result of a run', load: () => require('../lib/cli/client') },
  wait: { summary: 'wait for a run to finish', load: () => require('../lib/cli/client') },
  inspect: { summary: 'progress of a run from the table', load: () => require('../lib/cli/client') },
  recover: { summary: 'replay the dead letters of a workflow after an outage', load: () => require('../lib/cli/client') },
  stop: { summary: 'stop a running run (ABORTED)', load: () => require('../lib/cli/client') },
  redrive: { summary: 'resume a FAILED run from where it failed', load: () => require('../lib/cli/client') },
  runs: { summary: 'list the runs of a workflow, newest first', load: () => require('../lib/cli/client') },
  'task-success': { summary: 'complete a callback Task with its result (task token)', load: () => require('../lib/cli/client') },
  'task-failure': { summary: 'fail a callback Task (task token)', load: () => require('../lib/cli/client') },
  'task-heartbeat': { summary: 'send a heartbeat for a callback Task (task token)', load: () => require('../lib/cli/client') },
  graph: { summary: 'diagram of a workflow (mermaid | dot | svg)', load: () => require('../lib/cli/graph') },
  cost: { summary: 'cost per million runs vs Step Functions', load: () => require('../lib/cli/cost') },
  'compile-asl': { summary: 'compile an Amazon States Language file', load: () => require('../lib/cli/asl') },
};
/* eslint-enable @typescript-eslint/no-require-imports */

function usage(): string {
  const rows = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`);
  return ['usage: unum <command> [options]', '', ...rows].join('\n');
}

async function dispatch(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : commands[name];
  if (!command) {
    process.stderr.write(`${name ? `unknown command '${name}'\n` : ''}${usage()}\n`);
    return name === undefined || name === '--help' ? 0 : 2;
  }
  const mod = await command.load();
  // Client commands share one module: pass the command name on.
  return mod.main(['start', 'status', 'result', 'wait', 'inspect', 'recover', 'stop', 'redrive', 'runs', 'task-success', 'task-failure', 'task-heartbeat'].includes(name) ? argv : rest);
}

dispatch(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    process.stderr.write(`unum: ${err instanceof Error ? err.message : String(err)}\n`);
    // A bad command line exits 2 in every command, as in the client commands.
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
