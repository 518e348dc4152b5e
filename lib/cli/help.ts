/**
 * The help texts of the `unum` commands: the overview (`unum --help`) and
 * each command's own (`unum help <command>`, `unum <command> --help`), and the
 * one line a bad command line gets. One place, so the overview's summaries
 * and the commands' usages cannot drift apart.
 */

/** The options that choose the workflow, shared by the client commands (lib/cli/client.ts `clientFor`). */
const WORKFLOW_OPTIONS_HELP = `workflow options (which workflow, where):
  --app DIR [--stack S] [--workflow W]   a synthesized app (default cdk.out): on the local engine when
                                         AWS_ENDPOINT_URL_DYNAMODB is set (as unum local start prints),
                                         else its literal table names
  --outputs FILE [--stack S] [--workflow W]   a deployed stack (cdk deploy --outputs-file FILE)
  --entry-function F --table T --workflow W [--task-response-function R] [--run-control-function C]   explicit`;

interface CommandHelp {
  /** One line for the overview. */
  readonly summary: string;
  /** The usage lines, then what the command does and its options. */
  readonly text: string;
  /** Takes the workflow options. */
  readonly workflowOptions?: boolean;
}

const HELP: Readonly<Record<string, CommandHelp>> = {
  local: {
    summary: 'run a synthesized app on this machine: local run <workflow> | local start',
    text: `usage: unum local run <workflow> --input <file.json|-> [--app <cdk.out | app dir>] [--synth] [--faults <seed>] [--workflow-id <id>] [--verbose]
       unum local start [--app <cdk.out | app dir>] [--synth] [--watch] [--port <N>] [--verbose]

  run     runs one run of the workflow on a local engine (DynamoDB Local + Lambda emulator), prints its
          result (stdout) and per-node timeline (stderr). When the run waits on a callback Task, it says
          which and prints the command that answers its task token from another shell.
          --faults <seed>  runs it again under that seed's fault schedule and checks it against the first
  start   keeps the engine running for the client, the unum commands and your scripts (another shell)
          until Ctrl-C, and prints the variables to export there and each workflow's live deployment.
          A new synth of the app's assembly (cdk synth, here or in another shell) is deployed onto it
          while runs are in flight: each run finishes on the deployment it started on
          --watch  also synthesizes the app again when its sources change (cdk.out, node_modules and
                   dotfiles aside), as cdk watch does; needs a CDK app directory
  --app   a cloud assembly or a CDK app directory (default: the app of this directory, else ./cdk.out);
          an app is synthesized when its sources are newer than its assembly, or with --synth

exit: 0 the run succeeded, 1 it did not, 2 a bad command line, 3 a fault run broke an invariant`,
  },
  start: {
    summary: 'start a run',
    workflowOptions: true,
    text: `usage: unum start [--input file.json|-] [--id ID] [--wait [--timeout S]] [--json] [workflow options]

  starts a run on the deployment the entry's live alias names (input {} without --input) and prints
  its id; with --wait, waits for it and prints its
  final status (exit 1 unless SUCCEEDED, 124 when --timeout runs out, 130 on Ctrl-C)`,
  },
  status: {
    summary: 'status of a run, and the callback Task it waits on',
    workflowOptions: true,
    text: `usage: unum status <id> [--json] [workflow options]

  the run record: status, deployment, times, error; for a RUNNING run, the callback Tasks it waits on (since when,
  task token) and the command that answers one. Exit 0 for RUNNING or SUCCEEDED, else 1`,
  },
  result: {
    summary: 'result of a run',
    workflowOptions: true,
    text: `usage: unum result <id> [--json] [workflow options]

  the result of a SUCCEEDED run (exit 1 with the error for any other)`,
  },
  wait: {
    summary: 'wait for a run to finish',
    workflowOptions: true,
    text: `usage: unum wait <id> [--timeout S] [--json] [workflow options]

  waits for the run's final status and prints it (exit 1 unless SUCCEEDED, 124 on --timeout, 130 on Ctrl-C)`,
  },
  inspect: {
    summary: 'progress of a run from the table',
    workflowOptions: true,
    text: `usage: unum inspect <id> [--scan | --no-scan] [--json] [workflow options]

  the run's history, fan-in progress, failures and the callback Tasks it waits on; --scan also counts
  the table's items (the default when the run has no history)`,
  },
  recover: {
    summary: 'replay the dead letters of a workflow after an outage',
    workflowOptions: true,
    text: `usage: unum recover [--dead-letter-queue URL] [--json] [workflow options]

  replays the failures the failure recorder could not record; exit 1 when a dead letter is kept`,
  },
  stop: {
    summary: 'stop a running run (ABORTED)',
    workflowOptions: true,
    text: `usage: unum stop <id> [--error E] [--cause C] [--json] [workflow options]

  stops a RUNNING run: its record becomes ABORTED. Exit 0 when this stopped it, 1 when the run had
  finished (or been stopped) already: nothing changed`,
  },
  redrive: {
    summary: 'resume a FAILED, ABORTED or TIMED_OUT run from where it ended',
    workflowOptions: true,
    text: `usage: unum redrive <id> [--deployment latest] [--json] [workflow options]

  resumes a FAILED, ABORTED or TIMED_OUT run from the invocations that failed or were in flight, on the deployment it
  started on (its code, even after a later deploy)
  --deployment latest  moves the run to the newest deployment (a fix deployed since), when that has the
                       run's node graph: the same nodes, each leading to the same next nodes; handlers
                       and settings may differ. Otherwise refused, naming what changed (nothing changes).
  Exit 0 redriven, 1 the run cannot be redriven (or moved)`,
  },
  runs: {
    summary: 'list the runs of a workflow, newest first',
    workflowOptions: true,
    text: `usage: unum runs [--status S] [--since ISO] [--before ISO] [--limit N] [--next-token T] [--json] [workflow options]

  one row per run: its status, the deployment it runs on (- for a run of an unum-cdk before
  deployments), its times and error`,
  },
  deployments: {
    summary: 'list the deployments of a workflow and what each keeps deployed',
    workflowOptions: true,
    text: `usage: unum deployments [<workflow>] [--json] [workflow options]

  one row per recorded deployment, newest first: its id (its functions' alias), live (new runs start on
  it), when it was activated, superseded and removed, and how many functions it keeps deployed (a version,
  an alias and a role each) while a run of it can still run or be redriven. <workflow> is --workflow`,
  },
  'task-success': {
    summary: 'complete a callback Task with its result (task token)',
    workflowOptions: true,
    text: `usage: unum task-success <token> --output file.json|- [--json] [workflow options]

  completes the callback Task waiting for <token> with the JSON in the file (- reads stdin); the run goes
  on. unum status <id> and unum local run print a waiting Task's token. Exit 1 when the token is
  invalid or its Task was answered (or timed out) already`,
  },
  'task-failure': {
    summary: 'fail a callback Task (task token)',
    workflowOptions: true,
    text: `usage: unum task-failure <token> [--error E] [--cause C] [--json] [workflow options]

  fails the callback Task waiting for <token> (error default States.TaskFailed): its Catch rules apply`,
  },
  'task-heartbeat': {
    summary: 'send a heartbeat for a callback Task (task token)',
    workflowOptions: true,
    text: `usage: unum task-heartbeat <token> [--json] [workflow options]`,
  },
  graph: {
    summary: 'diagram of a workflow (mermaid | dot | svg)',
    text: `usage: unum graph <workflow> [--format mermaid|dot|svg] [--out file] [--app cdk.out] [--run <id> [workflow options]]

  the workflow's diagram from the synthesized app; --run colours the nodes by how far that run got
  (read with inspect, which takes the workflow options)`,
  },
  cost: {
    summary: 'cost per million runs vs Step Functions',
    text: `usage: unum cost <workflow> --input <file.json|-> [--runs N] [--app <cdk.out | app dir>] [--synth] [--timeout S]
                 [--call-latency-ms 5 | --local-durations] [--task-success <output.json>] [--time-scale 0.0001] [--json]

  runs the workflow N times (default 10) on the local engine, measures every call and prices a million runs
  beside Step Functions Standard and Express
  --task-success  completes every task token a run's callback Tasks hand out with this output, as soon as
                  the Task waits; needed only when a run reaches a callback Task (else it is an error then)
  --time-scale    engine time per real time for Waits, timeouts and heartbeat checks (0.0001: a day takes
                  8.6 s); every schedule a run creates fires before the run is measured, unless it is more
                  than --timeout ahead`,
  },
  'compile-asl': {
    summary: 'compile an Amazon States Language file',
    text: `usage: unum compile-asl <file.json> [--tasks tasks.json] [--name workflow] [--out dir]

  prints the per-node IR of the definition, or with --out writes <dir>/<node>.json per node.
  Exit 0 compiled, 1 rejected, 2 a bad command line`,
  },
};

/** The commands, in the overview's order. */
export const COMMAND_NAMES: readonly string[] = Object.keys(HELP);

export const isCommand = (name: string): boolean => Object.prototype.hasOwnProperty.call(HELP, name);

/** `unum --help`: every command with its summary. */
export function overview(): string {
  const rows = COMMAND_NAMES.map((name) => `  ${name.padEnd(15)} ${HELP[name].summary}`);
  return ['usage: unum <command> [options]', '', 'commands:', ...rows, '', "'unum help <command>' or 'unum <command> --help' shows a command's options."].join('\n');
}

/** `unum <command> --help`. */
export function commandHelp(name: string): string {
  const help = HELP[name];
  return help.workflowOptions ? `${help.text}\n\n${WORKFLOW_OPTIONS_HELP}` : help.text;
}

/** The one line a bad command line gets: the message and where the usage is. */
export function usageLine(command: string | undefined, message: string): string {
  return `unum: ${message} (see 'unum ${command === undefined ? '' : `${command} `}--help')`;
}

/** Whether the arguments ask for help: `--help` or `-h` before any `--`. */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
}
