/**
 * The argv parser of every `unum` command. Node's `util.parseArgs` splits the
 * command line (`--name value`, `--name=value`, `--` ends the options); this
 * checks the result against the command's options, so a mistyped option is an
 * error naming it rather than an option silently ignored.
 */
import { parseArgs as tokenize } from 'node:util';
import { UnumError } from '../../runtime/contract/errors';

export interface ParsedArgs {
  readonly positional: string[];
  readonly values: Map<string, string>;
  readonly flags: Set<string>;
}

/** A command's options: `values` take a value (`--name v` or `--name=v`), `flags` take none. */
export interface ArgSpec {
  readonly values: readonly string[];
  readonly flags: readonly string[];
}

/** A command line the command does not accept; the message names the option. */
export class UsageError extends UnumError {}

/** Parses argv against `spec`; throws `UsageError` on an unknown option, a value option without its value or a flag given one. */
export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const options = new Map<string, 'string' | 'boolean'>([
    ...spec.values.map((name) => [name, 'string'] as const),
    ...spec.flags.map((name) => [name, 'boolean'] as const),
  ]);
  // Not strict: in strict mode util.parseArgs rejects a value that starts with '-' (`--faults -3`,
  // `--id --x`), while a value option takes the next argument whatever it is. The checks below are
  // the strictness, with messages that name the option.
  const { tokens } = tokenize({
    args: [...argv],
    options: Object.fromEntries([...options].map(([name, type]) => [name, { type }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const out: ParsedArgs = { positional: [], values: new Map(), flags: new Set() };
  for (const token of tokens) {
    if (token.kind === 'positional') out.positional.push(token.value);
    if (token.kind !== 'option') continue;
    const type = options.get(token.name);
    if (!token.rawName.startsWith('--')) {
      // No command has short options: `-x` is a mistake, or an argument that has to go after `--`.
      throw new UsageError(`unknown option ${argv[token.index]} (put an argument that starts with '-' after --)`);
    }
    if (type === undefined) throw new UsageError(`unknown option ${token.rawName}`);
    if (type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`${token.rawName} takes no value`);
      out.flags.add(token.name);
    } else {
      if (token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
      out.values.set(token.name, token.value);
    }
  }
  return out;
}
