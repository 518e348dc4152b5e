/**
 * `unum graph <workflow> [--format mermaid|dot|svg] [--out file] [--app cdk.out] [--run <id>]`
 *
 * The diagram of a synthesized workflow, drawn from the IR that deploys
 * (fan-outs, maps, fan-ins, choices, loops, catches). `--run <id>` colours the
 * nodes by how far that run got, read with `inspect` (the workflow options of
 * `unum inspect` choose the table: `--entry-function/--table`, `--outputs`, or `--app`).
 */
import * as fs from 'node:fs';
import { UnumClientError } from '../client';
import { readCloudAssembly } from '../local/assembly';
import { renderSvg } from '../graph/graphviz';
import { toDot, toMermaid, workflowGraph, type NodeRunState } from '../graph/mermaid';
import { nodeStatesOfRun } from '../graph/run-state';
import { clientFor, parseArgs } from './client';

const USAGE = 'usage: unum graph <workflow> [--format mermaid|dot|svg] [--out file] [--app cdk.out] [--run <id> [workflow options of unum inspect]]';
const FORMATS = ['mermaid', 'dot', 'svg'] as const;
type Format = (typeof FORMATS)[number];

export async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, new Set(['help']));
  const workflow = args.positional[0] ?? (args.options.get('workflow') as string | undefined);
  const format = (args.options.get('format') ?? 'mermaid') as Format;
  if (args.options.has('help') || !workflow || !FORMATS.includes(format)) {
    process.stderr.write(`${USAGE}\n`);
    return args.options.has('help') ? 0 : 2;
  }
  const appDir = (args.options.get('app') as string | undefined) ?? 'cdk.out';
  if (!fs.existsSync(appDir)) throw new UnumClientError(`${appDir} not found: synthesize the app first (npx cdk synth) or pass --app`);
  const workflows = readCloudAssembly(appDir).workflows;
  const found = workflows.get(workflow);
  if (!found) {
    const known = [...workflows.keys()].join(', ');
    throw new UnumClientError(`no workflow '${workflow}' in ${appDir} (have: ${known || 'none'})`);
  }
  const irs = Object.values(found.nodes).flatMap((fn) => (fn.ir ? [fn.ir] : []));
  const runId = args.options.get('run');
  let states: Map<string, NodeRunState> | undefined;
  if (typeof runId === 'string') {
    args.options.set('workflow', workflow);
    states = nodeStatesOfRun(await clientFor(args).inspect(runId));
  }
  const graph = workflowGraph(irs);
  const out = args.options.get('out');
  if (format === 'svg') {
    const file = typeof out === 'string' ? out : `${workflow}.svg`;
    if (!renderSvg(toDot(graph, workflow, states), file)) {
      throw new UnumClientError('SVG needs Graphviz `dot` on the PATH (e.g. apt-get install graphviz); --format mermaid or dot needs nothing');
    }
    process.stdout.write(`${file}\n`);
    return 0;
  }
  const text = `${format === 'dot' ? toDot(graph, workflow, states) : toMermaid(graph, states)}\n`;
  if (typeof out === 'string') fs.writeFileSync(out, text);
  else process.stdout.write(text);
  return 0;
}
