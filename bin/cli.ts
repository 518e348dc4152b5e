/**
 * `unum` command line: dispatches to one module per command group.
 * Each module exports `main(argv): Promise<number>` (the exit code).
 */
type CommandModule = { main(argv: string[]): Promise<number> };

const commands: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  demo: { summary: 'synthesize the example app and run every example on the local engine', load: () => import('../lib/cli/demo') },
  local: { summary: 'local run <workflow> --input file.json [--faults seed]', load: () => import('../lib/cli/local') },
  start: { summary: 'start a run', load: () => import('../lib/cli/client') },
  status: { summary: 'status of a run', load: () => import('../lib/cli/client') },
  result: { summary: 'result of a run', load: () => import('../lib/cli/client') },
  wait: { summary: 'wait for a run to finish', load: () => import('../lib/cli/client') },
  inspect: { summary: 'progress of a run from the table', load: () => import('../lib/cli/client') },
  graph: { summary: 'diagram of a workflow (mermaid | dot | svg)', load: () => import('../lib/cli/graph') },
  cost: { summary: 'cost per million runs vs Step Functions', load: () => import('../lib/cli/cost') },
  'compile-asl': { summary: 'compile an Amazon States Language file', load: () => import('../lib/cli/asl') },
  bench: { summary: 'run the benchmarks and write BENCHMARKS.md', load: () => import('../lib/cli/bench') },
};

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
  return mod.main(['start', 'status', 'result', 'wait', 'inspect'].includes(name) ? argv : rest);
}

dispatch(process.argv.slice(2)).then(
  (code) => { process.exitCode = code; },
  (err: unknown) => {
    process.stderr.write(`unum: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
