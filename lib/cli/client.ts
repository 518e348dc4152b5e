/**
 * `unum start|status|result|wait|inspect|recover|stop|redrive|runs|deployments|task-success|task-failure|task-heartbeat`: the client (lib/client) on
 * the command line. argv starts with the command name (lib/cli/dispatch.ts passes it on); help texts
 * are in lib/cli/help.ts. `status` of a RUNNING run also names the callback Tasks it waits on and the
 * command that answers one.
 *
 * Which workflow: `--entry-function F --table T --workflow W [--task-response-function R] [--run-control-function C]`, or `--outputs file.json`
 * (from `cdk deploy --outputs-file`), or the synthesized app in `--app`
 * (default `cdk.out`); `--stack` / `--workflow` pick one when there are several.
 */
import * as fs from 'node:fs';
import type { Json } from '../../runtime/contract/ir';
import { type ListRunsOptions, type RedriveOptions, UnumClient, UnumClientError, UnumWaitTimeoutError, type RunStatus } from '../client';
import { formatDeployments, formatInspectReport, formatRecoveryReport, formatRunList, formatStatus, formatWaitingTasks } from '../client/format';
import type { WaitingTask } from '../client/waiting';
import { parseArgs, UsageError, type ParsedArgs } from './argv';
import { asksForHelp, commandHelp, usageLine } from './help';
import { answerCommands } from './answer';

/** Exit codes besides 0 (success) and 1 (run failed or error). */
const EXIT = { usage: 2, timeout: 124, interrupted: 130 } as const;

/** Where the command writes; injectable for tests. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  readonly readStdin: () => string;
}

const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr, readStdin: () => fs.readFileSync(0, 'utf8') };

/** The options that choose the workflow (see the module comment): every command takes them. */
export const WORKFLOW_OPTIONS = ['entry-function', 'table', 'outputs', 'stack', 'workflow', 'app', 'task-response-function', 'run-control-function'] as const;

/** Each command's own options, besides the workflow options, `--json` and `--help` / `-h`. */
const COMMANDS = new Map<string, { values: readonly string[]; flags: readonly string[] }>([
  ['start', { values: ['input', 'id', 'timeout'], flags: ['wait'] }],
  ['status', { values: [], flags: [] }],
  ['result', { values: [], flags: [] }],
  ['wait', { values: ['timeout'], flags: [] }],
  ['inspect', { values: [], flags: ['scan', 'no-scan'] }],
  ['recover', { values: ['dead-letter-queue'], flags: [] }],
  ['stop', { values: ['error', 'cause'], flags: [] }],
  ['redrive', { values: ['deployment'], flags: [] }],
  ['runs', { values: ['status', 'since', 'before', 'limit', 'next-token'], flags: [] }],
  ['deployments', { values: [], flags: [] }],
  ['task-success', { values: ['output'], flags: [] }],
  ['task-failure', { values: ['error', 'cause'], flags: [] }],
  ['task-heartbeat', { values: [], flags: [] }],
]);

function readJsonFile(file: string, what: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UnumClientError(`cannot read ${what} ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The client for the workflow the options name (see the module comment). */
export function clientFor(options: ReadonlyMap<string, string>): UnumClient {
  const entryFunction = options.get('entry-function');
  const table = options.get('table');
  const workflow = options.get('workflow');
  if (entryFunction || table) {
    if (!entryFunction || !table || !workflow) throw new UnumClientError('--entry-function, --table and --workflow go together');
    const taskResponseFunction = options.get('task-response-function');
    const runControlFunction = options.get('run-control-function');
    return UnumClient.forWorkflow({ entryFunction, table, workflow, ...(taskResponseFunction ? { taskResponseFunction } : {}), ...(runControlFunction ? { runControlFunction } : {}) });
  }
  const stack = options.get('stack');
  const outputsFile = options.get('outputs');
  if (outputsFile) {
    // `cdk deploy --outputs-file` writes { <stack>: { <key>: <value> } }.
    const all = readJsonFile(outputsFile, 'outputs file') as Record<string, Record<string, string>>;
    const stacks = stack ? [stack] : Object.keys(all);
    if (stacks.length !== 1 || !all[stacks[0]]) throw new UnumClientError(`name one stack of ${outputsFile} with --stack (have: ${Object.keys(all).join(', ')})`);
    return UnumClient.fromStackOutputs(all[stacks[0]], workflow);
  }
  // Against the local engine (its endpoints in the environment), the client finds the engine's names itself.
  return UnumClient.fromCloudAssembly(options.get('app') ?? 'cdk.out', workflow, stack ? { stack } : {});
}

function readInput(args: ParsedArgs, io: CliIo, option = 'input'): Json {
  const file = args.values.get(option);
  if (file === undefined) return {};
  const text = file === '-' ? io.readStdin() : fs.readFileSync(file, 'utf8');
  try {
    return JSON.parse(text) as Json;
  } catch (err) {
    throw new UnumClientError(`input ${file === '-' ? '(stdin)' : file} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function timeoutMs(args: ParsedArgs): number | undefined {
  const s = args.values.get('timeout');
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!(n > 0)) throw new UnumClientError(`--timeout must be a positive number of seconds, got '${s}'`);
  return n * 1000;
}

/** Waits with a progress line on stderr, and ^C aborting the wait (not the run). */
async function waitWithProgress(client: UnumClient, id: string, args: ParsedArgs, io: CliIo): Promise<RunStatus> {
  const ctl = new AbortController();
  const onSigint = (): void => ctl.abort(new InterruptedError(`stopped waiting for run ${id} (it goes on running)`));
  const timeout = timeoutMs(args);
  process.once('SIGINT', onSigint);
  let last = '';
  try {
    return await client.wait(id, {
      signal: ctl.signal,
      ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
      onProgress: (s, elapsed) => {
        const line = `${id}  ${s.status}  ${(elapsed / 1000).toFixed(1)} s`;
        // A terminal gets one line rewritten in place; a log gets a line per status change.
        if (io.stderr.isTTY) io.stderr.write(`\r${line}\x1b[K`);
        else if (s.status !== last) io.stderr.write(`${line}\n`);
        last = s.status;
      },
    });
  } finally {
    process.removeListener('SIGINT', onSigint);
    if (io.stderr.isTTY && last) io.stderr.write('\n');
  }
}

function printStatus(s: RunStatus, args: ParsedArgs, io: CliIo, waiting: readonly WaitingTask[] = []): number {
  if (args.flags.has('json')) {
    io.stdout.write(`${JSON.stringify(waiting.length ? { ...s, waiting } : s)}\n`);
  } else {
    const answers = waiting.length ? `\n${answerCommands(waiting[0].taskToken, workflowArgs(args)).map((line, i) => `${i === 0 ? 'answer' : ''}`.padEnd(10) + line).join('\n')}` : '';
    io.stdout.write(`${formatStatus(s)}${waiting.length ? `\n${formatWaitingTasks(waiting)}${answers}` : ''}\n`);
  }
  return s.status === 'SUCCEEDED' || s.status === 'RUNNING' ? 0 : 1;
}

/** The workflow options of this command line, to repeat in a command it suggests. */
function workflowArgs(args: ParsedArgs): string[] {
  return WORKFLOW_OPTIONS.flatMap((name) => (args.values.has(name) ? [`--${name}`, args.values.get(name) as string] : []));
}

function requireId(args: ParsedArgs, command: string, what = 'a run id'): string {
  const id = args.positional[0];
  if (!id) throw new UsageError(`unum ${command} needs ${what}`);
  return id;
}

class InterruptedError extends UnumClientError {}

/** `unum runs` options as `listRuns` takes them (it checks the values). */
function listOptions(args: ParsedArgs): ListRunsOptions {
  const v = (name: string): string | undefined => args.values.get(name);
  const limit = v('limit');
  if (limit !== undefined && !/^[1-9]\d*$/.test(limit)) throw new UsageError(`--limit must be a positive integer, got '${limit}'`);
  const status = v('status');
  return {
    ...(status !== undefined ? { status: status.toUpperCase() as ListRunsOptions['status'] } : {}),
    ...(v('since') !== undefined ? { startedAfter: v('since') } : {}),
    ...(v('before') !== undefined ? { startedBefore: v('before') } : {}),
    ...(limit !== undefined ? { limit: Number(limit) } : {}),
    ...(v('next-token') !== undefined ? { nextToken: v('next-token') } : {}),
  };
}

/** `unum redrive --deployment latest`: onto the newest deployment; without it the run stays on its own. */
function redriveOptions(args: ParsedArgs): RedriveOptions {
  const deployment = args.values.get('deployment');
  if (deployment === undefined) return {};
  if (deployment !== 'latest') throw new UsageError(`--deployment takes 'latest' (without it the run resumes on its own deployment), got '${deployment}'`);
  return { deployment };
}

/** The workflow options with `unum deployments <workflow>`'s argument as `--workflow`. */
function withWorkflowArgument(args: ParsedArgs): ReadonlyMap<string, string> {
  const named = args.positional[0];
  if (named === undefined) return args.values;
  const option = args.values.get('workflow');
  if (option !== undefined && option !== named) throw new UsageError(`the workflow is named twice: '${named}' and --workflow '${option}'`);
  return new Map([...args.values, ['workflow', named]]);
}

/** The one argument each command takes, checked before the workflow options are read: the usage error comes first. */
const ARGUMENT = new Map<string, string>([
  ...['status', 'result', 'wait', 'inspect', 'stop', 'redrive'].map((c) => [c, 'a run id'] as const),
  ...['task-success', 'task-failure', 'task-heartbeat'].map((c) => [c, 'a task token'] as const),
]);

/** Commands whose one argument may be left out. */
const OPTIONAL_ARGUMENT = new Map<string, string>([['deployments', 'a workflow name, as --workflow']]);

function checkArguments(name: string, args: ParsedArgs): void {
  const optional = OPTIONAL_ARGUMENT.get(name);
  if (optional !== undefined) {
    if (args.positional[1] !== undefined) throw new UsageError(`unum ${name} takes at most one argument (${optional}), got also '${args.positional[1]}'`);
    return;
  }
  const what = ARGUMENT.get(name);
  if (what !== undefined) requireId(args, name, what);
  const extra = args.positional[what === undefined ? 0 : 1];
  if (extra !== undefined) throw new UsageError(`unum ${name} takes ${what === undefined ? 'no argument' : `one argument (${what})`}, got also '${extra}'`);
}

async function command(name: string, args: ParsedArgs, io: CliIo): Promise<number> {
  checkArguments(name, args);
  const json = args.flags.has('json');
  switch (name) {
    case 'start': {
      const client = clientFor(args.values);
      const workflowId = args.values.get('id');
      const id = await client.start(readInput(args, io), workflowId ? { workflowId } : {});
      if (!args.flags.has('wait')) {
        io.stdout.write(json ? `${JSON.stringify({ workflowId: id })}\n` : `started ${id}\n`);
        return 0;
      }
      if (!json) io.stderr.write(`started ${id}\n`);
      return printStatus(await waitWithProgress(client, id, args, io), args, io);
    }
    case 'status': {
      const client = clientFor(args.values);
      const s = await client.status(requireId(args, name));
      return printStatus(s, args, io, s.status === 'RUNNING' ? await client.waitingTasks(s.workflowId) : []);
    }
    case 'result': {
      const result = await clientFor(args.values).result(requireId(args, name));
      io.stdout.write(`${json ? JSON.stringify(result) : JSON.stringify(result, null, 2)}\n`);
      return 0;
    }
    case 'wait':
      return printStatus(await waitWithProgress(clientFor(args.values), requireId(args, name), args, io), args, io);
    case 'inspect': {
      const scan = args.flags.has('scan') ? true : args.flags.has('no-scan') ? false : undefined;
      const report = await clientFor(args.values).inspect(requireId(args, name), scan === undefined ? {} : { scan });
      io.stdout.write(`${json ? JSON.stringify(report) : formatInspectReport(report)}\n`);
      return 0;
    }
    case 'recover': {
      const queue = args.values.get('dead-letter-queue');
      const report = await clientFor(args.values).recover(queue ? { deadLetterQueue: queue } : {});
      io.stdout.write(`${json ? JSON.stringify(report) : formatRecoveryReport(report)}\n`);
      // A kept dead letter still needs someone: not a success.
      return report.kept === 0 ? 0 : 1;
    }
    case 'stop': {
      const error = args.values.get('error');
      const cause = args.values.get('cause');
      const { stopped, ...s } = await clientFor(args.values).stop(requireId(args, name), { ...(error === undefined ? {} : { error }), ...(cause === undefined ? {} : { cause }) });
      if (!stopped) io.stderr.write(`unum: run ${s.workflowId} had finished already (${s.status}): nothing was stopped\n`);
      printStatus(s, args, io);
      return stopped ? 0 : 1;
    }
    case 'redrive': {
      const r = await clientFor(args.values).redrive(requireId(args, name), redriveOptions(args));
      const where = r.deployment === undefined ? '' : r.movedFrom === undefined ? ` on deployment ${r.deployment}` : ` on deployment ${r.deployment} (moved from ${r.movedFrom})`;
      io.stdout.write(json ? `${JSON.stringify(r)}\n` : `redrove ${r.workflowId} (redrive ${r.redriveCount}): ${r.resumed} invocation${r.resumed === 1 ? '' : 's'} resumed${where}\n`);
      return 0;
    }
    case 'deployments': {
      const deployments = await clientFor(withWorkflowArgument(args)).listDeployments();
      io.stdout.write(`${json ? JSON.stringify(deployments) : formatDeployments(deployments)}\n`);
      return 0;
    }
    case 'runs': {
      const list = await clientFor(args.values).listRuns(listOptions(args));
      io.stdout.write(`${json ? JSON.stringify(list) : formatRunList(list)}\n`);
      return 0;
    }
    case 'task-success': {
      const token = requireId(args, name, 'a task token');
      if (!args.values.has('output')) throw new UsageError('unum task-success needs --output file.json (or - for stdin): the task\'s result');
      await clientFor(args.values).sendTaskSuccess(token, readInput(args, io, 'output'));
      io.stdout.write(json ? `${JSON.stringify({ task: 'completed' })}\n` : 'task completed\n');
      return 0;
    }
    case 'task-failure': {
      const token = requireId(args, name, 'a task token');
      await clientFor(args.values).sendTaskFailure(token, args.values.get('error') ?? 'States.TaskFailed', args.values.get('cause') ?? '');
      io.stdout.write(json ? `${JSON.stringify({ task: 'failed' })}\n` : 'task failed\n');
      return 0;
    }
    case 'task-heartbeat':
      await clientFor(args.values).sendTaskHeartbeat(requireId(args, name, 'a task token'));
      io.stdout.write(json ? `${JSON.stringify({ task: 'heartbeat' })}\n` : 'heartbeat sent\n');
      return 0;
    default:
      throw new UsageError(`unknown command '${name}'`);
  }
}

/** Runs one client command; resolves to the exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  try {
    const own = COMMANDS.get(name ?? '');
    if (!own) throw new UsageError(`unknown command '${name ?? ''}'`);
    if (asksForHelp(rest)) {
      io.stdout.write(`${commandHelp(name as string)}\n`);
      return 0;
    }
    const args = parseArgs(rest, { values: [...WORKFLOW_OPTIONS, ...own.values], flags: ['json', ...own.flags] });
    return await command(name ?? '', args, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`${usageLine(COMMANDS.has(name ?? '') ? name : undefined, err.message)}\n`);
      return EXIT.usage;
    }
    if (!(err instanceof UnumClientError)) throw err;
    io.stderr.write(`unum: ${err.message}\n`);
    if (err instanceof UnumWaitTimeoutError) return EXIT.timeout;
    return err instanceof InterruptedError ? EXIT.interrupted : 1;
  }
}

/** The command of `argv`, writing to `out` (stdout and stderr; default the process's). */
export function main(argv: string[], out?: Pick<CliIo, 'stdout' | 'stderr'>): Promise<number> {
  return run(argv, out ? { ...processIo, stdout: out.stdout, stderr: out.stderr } : processIo);
}
