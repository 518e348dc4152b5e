/**
 * The `unum` command line's conventions (lib/cli/dispatch.ts): the overview
 * and each command's own help on stdout with exit 0, a bad command line one
 * line on stderr with exit 2. Every case here ends before any AWS call,
 * engine or synthesis.
 */
import { answerCommands, shellWord } from '../../lib/cli/answer';
import { dispatch } from '../../lib/cli/dispatch';
import { asksForHelp, COMMAND_NAMES, commandHelp } from '../../lib/cli/help';

async function unum(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io = { stdout: { write: (s: string) => { out += s; } }, stderr: { write: (s: string) => { err += s; } } };
  return { code: await dispatch(argv, io), out, err };
}

const commandsOf = (overview: string): string[] => [...overview.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);

describe('the overview', () => {
  test.each([['--help'], ['-h'], ['help']])('unum %s: on stdout, exit 0, every command listed', async (flag) => {
    const r = await unum(flag);
    expect([r.code, r.err]).toEqual([0, '']);
    expect(r.out).toMatch(/^usage: unum <command> \[options\]\n/);
    expect(commandsOf(r.out)).toEqual(['local', 'start', 'status', 'result', 'wait', 'inspect', 'recover', 'stop', 'redrive', 'runs', 'deployments', 'task-success', 'task-failure', 'task-heartbeat', 'graph', 'cost', 'compile-asl']);
    expect(r.out).toContain("'unum help <command>' or 'unum <command> --help' shows a command's options.");
  });

  test('plain unum: no command is a bad command line: the overview on stderr, exit 2', async () => {
    const r = await unum();
    expect([r.code, r.out]).toEqual([2, '']);
    expect(commandsOf(r.err)).toEqual(COMMAND_NAMES);
  });
});

describe("a command's own help", () => {
  test.each(COMMAND_NAMES.map((name) => [name]))('%s: help <cmd>, <cmd> --help and <cmd> -h print its usage, exit 0', async (name) => {
    const expected = `${commandHelp(name)}\n`;
    expect(expected).toMatch(new RegExp(`^usage: unum ${name}[ \\n]`));
    for (const argv of [['help', name], [name, '--help'], [name, '-h']]) {
      expect(await unum(...argv)).toEqual({ code: 0, out: expected, err: '' });
    }
  });

  test('the help of each command is its own', () => {
    expect(new Set(COMMAND_NAMES.map(commandHelp)).size).toBe(COMMAND_NAMES.length);
  });

  test('--help after other arguments, also of a subcommand, still prints the help', async () => {
    expect(await unum('local', 'run', 'Orders', '--help')).toMatchObject({ code: 0, out: `${commandHelp('local')}\n` });
    expect(await unum('status', 'run-1', '--json', '-h')).toMatchObject({ code: 0, out: `${commandHelp('status')}\n` });
  });

  test('the client commands give the workflow options; the others do not', () => {
    expect(commandHelp('task-success')).toContain('workflow options (which workflow, where):');
    expect(commandHelp('compile-asl')).not.toContain('workflow options (which workflow, where):');
  });

  test('after --, -h and --help are arguments', () => {
    expect(asksForHelp(['tok', '--', '-h'])).toBe(false);
    expect(asksForHelp(['tok', '--help', '--'])).toBe(true);
  });
});

describe('a bad command line: one line naming it and where the help is, exit 2', () => {
  test.each([
    [['bogus'], "unum: unknown command 'bogus' (see 'unum --help')"],
    [['--bogus'], "unum: unknown option --bogus (see 'unum --help')"],
    [['help', 'bogus'], "unum: unknown command 'bogus' (see 'unum --help')"],
    [['status', 'run-1', '--jsno'], "unum: unknown option --jsno (see 'unum status --help')"],
    [['status'], "unum: unum status needs a run id (see 'unum status --help')"],
    [['status', 'run-1', 'run-2'], "unum: unum status takes one argument (a run id), got also 'run-2' (see 'unum status --help')"],
    [['start', 'Orders'], "unum: unum start takes no argument, got also 'Orders' (see 'unum start --help')"],
    [['wait', 'run-1', '--timeout'], "unum: --timeout needs a value (see 'unum wait --help')"],
    [['local'], "unum: unum local needs a command: run <workflow> or start (see 'unum local --help')"],
    [['local', 'go'], "unum: unknown command 'local go' (have: run, start) (see 'unum local --help')"],
    [['local', 'run'], "unum: unum local run needs a workflow name (see 'unum local --help')"],
    [['local', 'start', 'Orders'], "unum: unum local start takes no argument 'Orders' (see 'unum local --help')"],
    [['local', 'run', 'Orders', '--input', 'in.json', '--verbsoe'], "unum: unknown option --verbsoe (see 'unum local --help')"],
    [['graph'], "unum: unum graph needs a workflow name (see 'unum graph --help')"],
    [['graph', 'Orders', '--format', 'png'], "unum: --format must be mermaid, dot, svg, got 'png' (see 'unum graph --help')"],
    [['cost'], "unum: unum cost needs a workflow name (see 'unum cost --help')"],
    [['cost', 'Orders', '--runs'], "unum: --runs needs a value (see 'unum cost --help')"],
    [['compile-asl'], "unum: missing the ASL file (see 'unum compile-asl --help')"],
    [['compile-asl', 'a.json', '--nmae', 'x'], "unum: unknown option --nmae (see 'unum compile-asl --help')"],
  ])('%j', async (argv, line) => {
    expect(await unum(...argv)).toEqual({ code: 2, out: '', err: `${line}\n` });
  });
});

describe('the commands that answer a callback Task', () => {
  test('ready to paste: the token and the workflow options, quoted where the shell needs it', () => {
    expect(answerCommands('u1.abc_-', ['--app', 'my app/cdk.out', '--workflow', 'Orders'])).toEqual([
      "unum task-success u1.abc_- --output <result.json> --app 'my app/cdk.out' --workflow Orders",
      "unum task-failure u1.abc_- --error <Error> --cause <why> --app 'my app/cdk.out' --workflow Orders",
    ]);
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(answerCommands('u1.x', [])[0]).toBe('unum task-success u1.x --output <result.json>');
  });
});
