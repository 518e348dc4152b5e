/** The one argv parser of the `unum` commands, and the commands' use of it: strict everywhere. */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { parseArgs, UsageError } from '../../lib/cli/argv';
import { main as compileAsl } from '../../lib/cli/asl';
import { main as bench } from '../../bench/cli';
import { runClientCommand } from '../support/cli';
import { main as cost } from '../../lib/cli/cost';
import { main as demo } from '../../examples/demo';
import { main as graph } from '../../lib/cli/graph';
import { main as local } from '../../lib/cli/local';

const spec = { values: ['input', 'faults', 'id'], flags: ['json', 'verbose'] };

describe('parseArgs', () => {
  test('values, flags and positionals, in any order', () => {
    const a = parseArgs(['run', '--input', 'in.json', 'Collatz', '--json', '--faults=42'], spec);
    expect(a.positional).toEqual(['run', 'Collatz']);
    expect([...a.values]).toEqual([['input', 'in.json'], ['faults', '42']]);
    expect([...a.flags]).toEqual(['json']);
  });

  test('--name=value keeps everything after the first =, also an empty value', () => {
    expect(parseArgs(['--input=a=b'], spec).values.get('input')).toBe('a=b');
    expect(parseArgs(['--input='], spec).values.get('input')).toBe('');
  });

  test('a value option takes the next argument whatever it is', () => {
    const a = parseArgs(['--input', '-', '--faults', '-3', '--id', '--json'], spec);
    expect(Object.fromEntries(a.values)).toEqual({ input: '-', faults: '-3', id: '--json' });
    expect(a.flags.size).toBe(0);
  });

  test('the last of a repeated option wins; -- ends the options', () => {
    const a = parseArgs(['--id', 'a', '--id', 'b', '--', '--json', '-x'], spec);
    expect(a.values.get('id')).toBe('b');
    expect(a.positional).toEqual(['--json', '-x']);
    expect(a.flags.size).toBe(0);
  });

  test.each([
    [['--bogus'], 'unknown option --bogus'],
    [['--jsn', 'x'], 'unknown option --jsn'],
    [['--bogus=1'], 'unknown option --bogus'],
    [['run', '--input'], '--input needs a value'],
    [['--json=yes'], '--json takes no value'],
    [['-v'], "unknown option -v (put an argument that starts with '-' after --)"],
    [['-abc'], "unknown option -abc (put an argument that starts with '-' after --)"],
    [['--constructor', 'x'], 'unknown option --constructor'],
  ])('%j: %s', (argv, message) => {
    let thrown: unknown;
    try {
      parseArgs(argv, spec);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect((thrown as Error).message).toBe(message);
  });
});

/** Runs a client command without AWS: every case here fails before a call. */
const unum = (argv: string[]) => runClientCommand(argv);

describe('client commands', () => {
  test('an unknown option is a usage error: exit 2, one line naming it and the command\'s help', async () => {
    const r = await unum(['status', 'run-1', '--jsno', '--table', 'T', '--entry-function', 'F']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("unum: unknown option --jsno (see 'unum status --help')\n");
    expect(r.out).toBe('');
  });

  test("an option of another command is unknown: status has no --timeout, start no --scan", async () => {
    expect(await unum(['status', 'run-1', '--timeout', '5'])).toMatchObject({ code: 2, err: "unum: unknown option --timeout (see 'unum status --help')\n" });
    expect(await unum(['start', '--scan'])).toMatchObject({ code: 2, err: "unum: unknown option --scan (see 'unum start --help')\n" });
  });

  test('a missing value and a flag given a value are usage errors', async () => {
    expect(await unum(['wait', 'run-1', '--timeout'])).toMatchObject({ code: 2, err: "unum: --timeout needs a value (see 'unum wait --help')\n" });
    expect(await unum(['inspect', 'run-1', '--json=1'])).toMatchObject({ code: 2, err: "unum: --json takes no value (see 'unum inspect --help')\n" });
  });

  test('--name=value: the value reaches the command', async () => {
    const r = await unum(['start', '--entry-function=wf-Entry']);
    expect([r.code, r.err]).toEqual([1, 'unum: --entry-function, --table and --workflow go together\n']);
  });

  test('every documented option parses (the command then fails on the missing outputs file, exit 1)', async () => {
    const where = ['--outputs', '/nonexistent/cdk-outputs.json', '--stack', 'S', '--workflow', 'W', '--app', 'cdk.out', '--json'];
    for (const argv of [
      ['start', '--input', '-', '--id', 'x', '--wait', '--timeout', '60', ...where],
      ['status', 'x', ...where],
      ['result', 'x', ...where],
      ['wait', 'x', '--timeout', '60', ...where],
      ['inspect', 'x', '--scan', ...where],
      ['inspect', 'x', '--no-scan', ...where],
    ]) {
      const r = await unum(argv);
      expect([argv[0], r.code, r.err]).toEqual([argv[0], 1, expect.stringMatching(/^unum: cannot read outputs file \/nonexistent\/cdk-outputs.json/)]);
    }
  });

  test('--help still prints the usage, exit 0; an unknown command is a usage error', async () => {
    expect(await unum(['wait', '--help'])).toMatchObject({ code: 0, out: expect.stringMatching(/^usage: unum wait <id>/) });
    expect(await unum(['stats', 'x'])).toMatchObject({ code: 2, err: "unum: unknown command 'stats' (see 'unum --help')\n" });
  });
});

describe('graph, cost, compile-asl and the local commands', () => {
  test('an unknown option is rejected before any work, naming it', async () => {
    await expect(local(['run', 'Collatz', '--input', 'in.json', '--verbsoe'])).rejects.toThrow(new UsageError('unknown option --verbsoe'));
    await expect(local(['run', 'Collatz', '--input'])).rejects.toThrow('--input needs a value');
    await expect(demo(['--fault', '3'])).rejects.toThrow('unknown option --fault');
    await expect(bench(['--quik'])).rejects.toThrow('unknown option --quik');
    await expect(graph(['WordCount', '--fromat', 'dot'])).rejects.toThrow('unknown option --fromat');
    await expect(cost(['WordCount', '--run', '3'])).rejects.toThrow('unknown option --run');
    await expect(cost(['WordCount', '--runs'])).rejects.toThrow('--runs needs a value');
  });

  test('local run and cost need --input; local start takes its own options only', async () => {
    await expect(local(['run', 'Collatz'])).rejects.toThrow(new UsageError('--input is required (a JSON file, or - for stdin)'));
    await expect(cost(['WordCount', '--runs', '2'])).rejects.toThrow(new UsageError('--input is required (a JSON file, or - for stdin)'));
    await expect(local(['start', '--input', 'in.json'])).rejects.toThrow(new UsageError('unum local start takes no --input'));
    await expect(local(['run', 'Collatz', '--input', 'in.json', '--port', '4000'])).rejects.toThrow(new UsageError('unum local run takes no --port'));
    await expect(local(['start', '--port', 'http'])).rejects.toThrow(new UsageError("--port takes a port number, got 'http'"));
  });

  test('graph takes its options and the workflow options of inspect', async () => {
    await expect(graph([
      'WordCount', '--format=dot', '--out', 'x.dot', '--run', 'run-1', '--app', '/nonexistent/cdk.out',
      '--entry-function', 'F', '--table', 'T', '--outputs', 'o.json', '--stack', 'S', '--workflow', 'W',
    ])).rejects.toThrow('/nonexistent/cdk.out not found');
  });

  test('cost takes its documented options', async () => {
    await expect(cost([
      'WordCount', '--runs', '0', '--input', 'in.json', '--app', 'cdk.out', '--synth', '--timeout', '5', '--call-latency-ms', '5', '--local-durations', '--json',
    ])).rejects.toThrow("--runs must be a positive integer, got '0'");
  });

  test('compile-asl: usage errors name the option (exit 2); --name=value parses', async () => {
    let err = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => { err += s; return true; } } };
    expect(await compileAsl(['a.json', '--nmae', 'x'], io)).toBe(2);
    expect(err).toBe("unum: unknown option --nmae (see 'unum compile-asl --help')\n");
    err = '';
    expect(await compileAsl(['/nonexistent/a.json', '--name=x', '--out=/nonexistent/out'], io)).toBe(1);
    expect(err).toContain('ENOENT');
  });
});

describe('the unum entry point', () => {
  test('its usage lists the commands an installed package has: no demo, no bench', () => {
    const r = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'unum.js')], { encoding: 'utf8' });
    // No command: the overview on stderr, and exit 2 as for any bad command line (unum --help exits 0).
    expect(r.status).toBe(2);
    const commands = [...r.stderr.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);
    expect(commands).toEqual(['local', 'start', 'status', 'result', 'wait', 'inspect', 'recover', 'stop', 'redrive', 'runs', 'deployments', 'task-success', 'task-failure', 'task-heartbeat', 'graph', 'cost', 'compile-asl']);
  });

  test('--help, -h and help: the overview on stdout, exit 0; a command\'s --help: its own help, exit 0', () => {
    const unum = path.join(__dirname, '..', '..', 'bin', 'unum.js');
    for (const flag of ['--help', '-h', 'help']) {
      const r = spawnSync(process.execPath, [unum, flag], { encoding: 'utf8' });
      expect({ status: r.status, stdout: r.stdout.split('\n')[0], stderr: r.stderr }).toEqual({ status: 0, stdout: 'usage: unum <command> [options]', stderr: '' });
    }
    const r = spawnSync(process.execPath, [unum, 'compile-asl', '--help'], { encoding: 'utf8' });
    expect({ status: r.status, stdout: r.stdout.split('\n')[0] }).toEqual({ status: 0, stdout: 'usage: unum compile-asl <file.json> [--tasks tasks.json] [--name workflow] [--out dir]' });
  });

  test('a bad command line exits 2 in a command that throws its usage error (local, graph)', () => {
    const unum = path.join(__dirname, '..', '..', 'bin', 'unum.js');
    for (const argv of [['local', 'run', 'X', '--verbos'], ['graph', 'WordCount', '--jsn']]) {
      const r = spawnSync(process.execPath, [unum, ...argv], { encoding: 'utf8' });
      expect({ status: r.status, stderr: r.stderr.trim() }).toEqual({ status: 2, stderr: `unum: unknown option ${argv[argv.length - 1]} (see 'unum ${argv[0]} --help')` });
    }
  });
});
