/** A small argv parser for the local CLI commands: `--name value`, `--flag`, positionals. */
export interface ParsedArgs {
  readonly positional: string[];
  readonly values: Map<string, string>;
  readonly flags: Set<string>;
}

export function parseArgs(argv: readonly string[], spec: { values: readonly string[]; flags: readonly string[] }): ParsedArgs {
  const out: ParsedArgs = { positional: [], values: new Map(), flags: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      out.positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (spec.flags.includes(name)) out.flags.add(name);
    else if (spec.values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      out.values.set(name, value);
    } else throw new Error(`unknown option --${name}`);
  }
  return out;
}
