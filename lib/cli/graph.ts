/**
 * `unum graph <workflow> [--format mermaid|dot|svg] [--out file] [--app cdk.out] [--run <id>]`
 *
 * The diagram of a synthesized workflow, drawn from the IR that deploys
 * (fan-outs, maps, fan-ins, choices, loops, catches). `--run <id>` colours the
 * nodes by how far that run got, read with `inspect` (the workflow options of
 * `unum inspect` choose the table: `--entry-function/--table`, `--outputs`, or `--app`).
 */
import * as fs from 'node:fs';
import { noWorkflowError, readAssembly } from '../assembly';
import { UnumClientError } from '../client';
import { renderSvg } from '../graph/graphviz';
import { toDot, toMermaid, workflowGraph, type NodeRunState } from '../graph/mermaid';
import { nodeStatesOfRun } from '../graph/run-state';
import { parseArgs, UsageError } from './argv';
import { clientFor, WORKFLOW_OPTIONS } from './client';

const FORMATS = ['mermaid', 'dot', 'svg'] as const;
type Format = (typeof FORMATS)[number];

export async function main(argv: string[]): Promise<number> {
  // --app is both the synthesized app drawn and, with --run, one of the workflow options.
  const args = parseArgs(argv, { values: ['format', 'out', 'run', ...WORKFLOW_OPTIONS], flags: [] });
  const workflow = args.positional[0] ?? args.values.get('workflow');
  const format = (args.values.get('format') ?? 'mermaid') as Format;
  if (!workflow) throw new UsageError('unum graph needs a workflow name');
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be ${FORMATS.join(', ')}, got '${format}'`);
  const appDir = args.values.get('app') ?? 'cdk.out';
  if (!fs.existsSync(appDir)) throw new UnumClientError(`${appDir} not found: synthesize the app first (npx cdk synth) or pass --app`);
  const app = readAssembly(appDir);
  const found = app.workflows.get(workflow);
  if (!found) throw new UnumClientError(noWorkflowError(app, workflow));
  const irs = Object.values(found.nodes).map((fn) => fn.ir);
  const runId = args.values.get('run');
  let states: Map<string, NodeRunState> | undefined;
  if (runId !== undefined) {
    states = nodeStatesOfRun(await clientFor(new Map([...args.values, ['workflow', workflow]])).inspect(runId));
  }
  const graph = workflowGraph(irs);
  const out = args.values.get('out');
  if (format === 'svg') {
    const file = out ?? `${workflow}.svg`;
    if (!renderSvg(toDot(graph, workflow, states), file)) {
      throw new UnumClientError('SVG needs Graphviz `dot` on the PATH (e.g. apt-get install graphviz); --format mermaid or dot needs nothing');
    }
    process.stdout.write(`${file}\n`);
    return 0;
  }
  const text = `${format === 'dot' ? toDot(graph, workflow, states) : toMermaid(graph, states)}\n`;
  if (out !== undefined) fs.writeFileSync(out, text);
  else process.stdout.write(text);
  return 0;
}
