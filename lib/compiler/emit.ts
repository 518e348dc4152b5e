import { IR_VERSION, type BranchInput, type CallbackSpec, type CatchRule, type EnclosingJoin, type FanInInvoke, type HandlerSpec, type Instruction, type Invoke, type IoSpec, type ItemLaunch, type JoinSpec, type MapInvoke, type MapItems, type ParallelInvoke, type StateRetry, type NodeIR, type NodeSettings, type RetryRule } from '../../runtime/contract/ir';
import type { AnyState, Choice, Fail, Fold, FunctionState, MapState, Parallel, Pass, State, Task, Wait } from '../definition';
import type { ErrorRulesState } from '../definition/error-rules';
import type { CompiledNode, CompiledWorkflow, FunctionSpec } from './compiled';
import { nodesOnCycles } from './cycles';
import { UnumDefinitionError } from './errors';
import { functionTimeoutSeconds, resolveAsyncSettings, type AsyncSettings } from './function-settings';
import { ROOT_SCOPE, sameScopeEdges, type Graph, type Scope } from './graph';
import { implicitName } from './names';
import { callbackSpec, isCallback } from './validate-callback';
import { catchRule, exportOf, functionSpec, ioSpec, PASS_FUNCTION, retryRule, successorsOf, userHandler, waitSpec, waitTargetsOf } from './node-parts';

/** Workflow-wide settings, with defaults applied (the per-node timeout, and the handoff bound over all nodes, are added when emitting). */
export type WorkflowSettings = Omit<NodeSettings, 'timeoutSeconds' | 'handoffSeconds'>;

/** A node under construction. Instructions are computed later, from a work queue. */
interface NodeBuilder {
  readonly name: string;
  /** The state whose work the node does (`NodeIR.state`); none for an implicit start node. */
  readonly state?: string;
  /** Where the node runs: its fan-out frames are those of the containers around this scope. */
  readonly scope: Scope;
  readonly implicit: boolean;
  readonly handler: HandlerSpec;
  readonly fn: FunctionSpec;
  readonly io?: IoSpec;
  retry?: RetryRule[];
  catch?: CatchRule[];
  join?: JoinSpec;
  mapItems?: MapItems;
  branchInput?: BranchInput;
  callback?: CallbackSpec;
  instructions: Instruction[];
}

/** A join's output processing (the Parallel's / Map's ResultSelector, ResultPath, OutputPath). */
type JoinOutput = Omit<JoinSpec, 'tails' | 'branchTails'>;

/** A fan-in invoke whose `tail` is patched once all tails of its join are known. */
type PendingFanIn = { -readonly [K in keyof FanInInvoke]: FanInInvoke[K] };

const INCR: Instruction = { op: 'incrIteration' };

/** Bound on the Choice instructions inlined into one node (consecutive Choices sharing targets multiply). */
const MAX_INLINED_CHOICES = 1000;

/** State of inlining consecutive Choices into one node: the Choices on the current path and the copies made so far. */
interface Inlining {
  readonly path: Set<State>;
  copies: number;
}

function newInlining(): Inlining {
  return { path: new Set(), copies: 0 };
}

/**
 * Turns a validated graph into one NodeIR per function node. Choice, Succeed
 * and Fail become instructions of their predecessors; implicit pass nodes are
 * added where a function is needed (fan-out origins, joins, entered Choices).
 * Nodes are created on first reference and their instructions computed from a
 * queue, so a 10,000-state chain needs no deep recursion.
 */
export class Emitter {
  private readonly nodes = new Map<string, NodeBuilder>();
  private readonly queue: (() => void)[] = [];
  private readonly entryOf = new Map<State, string>();
  private readonly joinOf = new Map<Parallel | MapState, string>();
  /** The output processing of the containers whose joins are implicit nodes, by join node. */
  private readonly joinOutputs = new Map<string, JoinOutput>();
  /** The Retry rules of the containers that have them, by join node. */
  private readonly joinRetries = new Map<string, StateRetry>();
  private readonly arrivals = new Map<string, { readonly from: string; readonly branch: number; readonly invoke: PendingFanIn }[]>();
  /** Per state: how many same-scope edges lead to it, and from which state (the last one seen). */
  private readonly incoming = new Map<State, { count: number; from: AnyState }>();

  constructor(
    private readonly workflow: string,
    private readonly graph: Graph,
    private readonly settings: WorkflowSettings,
    private readonly asyncDefaults: Partial<AsyncSettings>,
    private readonly stateNames: ReadonlyMap<string, string> = new Map(),
  ) {}

  /** A state's name as the definition's source names it (`$$.State.Name`, run records). */
  private stateName(state: State): string {
    return this.stateNames.get(state.id) ?? state.id;
  }

  emit(warnings: readonly string[]): CompiledWorkflow {
    for (const from of this.graph.order) {
      for (const to of sameScopeEdges(from)) {
        const seen = this.incoming.get(to);
        this.incoming.set(to, { count: (seen?.count ?? 0) + 1, from });
      }
    }
    const first = this.entryNodeFor(this.graph.start);
    this.drain();
    for (const state of this.graph.order) {
      if (state.kind === 'task' || state.kind === 'fold' || state.kind === 'wait' || (state.kind === 'pass' && !this.folds(state))) this.nodeFor(state);
      this.drain();
    }
    const entry = this.startNodeFor(first);
    this.assignTails();
    const handoffSeconds = this.handoffSeconds();
    const nodes: Record<string, CompiledNode> = {};
    for (const b of this.nodes.values()) nodes[b.name] = this.finish(b, b.name === entry, handoffSeconds);
    const loops = nodesOnCycles(new Map(Object.values(nodes).map((n) => [n.ir.node, n.successors]))).size > 0;
    return { workflow: this.workflow, entry, nodes, warnings: [...warnings], loops };
  }

  private drain(): void {
    for (let i = 0; i < this.queue.length; i++) this.queue[i]();
    this.queue.length = 0;
  }

  private add(builder: NodeBuilder, compute: (b: NodeBuilder) => void): string {
    this.nodes.set(builder.name, builder);
    this.queue.push(() => compute(builder));
    return builder.name;
  }

  /** The node of a Task, Pass, Wait or Fold state. */
  private nodeFor(state: Task | Pass | Wait | Fold): string {
    if (this.nodes.has(state.id)) return state.id;
    const scope = this.scope(state);
    if (state.kind === 'wait') {
      // Runs after the wait: every edge into it is a delayed invoke (enterState), so the node itself only applies the io.
      const io = ioSpec(state.props, ['inputPath', 'outputPath']);
      return this.add({ name: state.id, state: this.stateName(state), scope, implicit: false, handler: { kind: 'pass' }, fn: PASS_FUNCTION, ...(io ? { io } : {}), instructions: [] }, (b) => {
        b.instructions = this.flowTo(b.name, state, state.nextState, scope);
      });
    }
    if (state.kind === 'pass') {
      const handler: HandlerSpec = state.props.result !== undefined ? { kind: 'pass', result: state.props.result } : { kind: 'pass' };
      return this.add({ name: state.id, state: this.stateName(state), scope, implicit: false, handler, fn: PASS_FUNCTION, io: ioSpec(state.props), instructions: [] }, (b) => {
        b.instructions = this.flowTo(b.name, state, state.nextState, scope);
      });
    }
    const handler: HandlerSpec = state.kind === 'fold' ? { kind: 'fold', export: exportOf(state), initial: state.props.initial } : userHandler(state);
    const io = state.kind === 'task' ? ioSpec(state.props) : undefined;
    const callback = state.kind === 'task' && isCallback(state) ? { callback: callbackSpec(state) } : {};
    return this.add({ name: state.id, state: this.stateName(state), scope, implicit: false, handler, fn: functionSpec(state), io, ...callback, instructions: [] }, (b) => {
      this.errorRules(b, state);
      b.instructions = this.flowTo(b.name, state, state.nextState, scope);
    });
  }

  private errorRules(b: NodeBuilder, state: FunctionState & AnyState): void {
    if (state.retries.length > 0) b.retry = state.retries.map(retryRule);
    this.catchRules(b, state);
  }

  /** A state's Catch rules on node `b` (its own node, or a Parallel's / Map's join). */
  private catchRules(b: NodeBuilder, state: ErrorRulesState & AnyState): void {
    if (state.catches.length === 0) return;
    b.catch = state.catches.map((c, i) => {
      const handler = c.handler as State;
      if (this.graph.isBackEdge(state, handler)) {
        throw new UnumDefinitionError(this.workflow, state.id, `catch[${i}].handler`, `the catch handler '${handler.id}' leads back to an earlier state; route the loop through a Choice so that each iteration is a new invocation`);
      }
      return catchRule(c.props.errors, this.entryNodeFor(handler), c.props.resultPath);
    });
  }

  /** The node that starts running `state` when it is invoked directly (workflow start, branch start, catch handler). */
  private entryNodeFor(raw: State): string {
    const known = this.entryOf.get(raw);
    if (known) return known;
    const state = raw as AnyState;
    let name: string;
    switch (state.kind) {
      case 'task':
      case 'pass':
        name = this.nodeFor(state);
        break;
      case 'fold':
        throw this.misplacedFold(state);
      case 'parallel':
      case 'map':
        name = this.implicit(implicitName.origin(state.id), state, undefined, (b) => {
          b.instructions = [this.fanOut(state)];
        });
        break;
      default:
        name = this.implicit(implicitName.enter(state.id), state, undefined, (b) => {
          b.instructions = this.enterState(b.name, state, this.scope(state), newInlining());
        });
    }
    this.entryOf.set(state, name);
    return name;
  }

  /**
   * The entry function accepts start requests only (the start permission is
   * permission to invoke it), so its node must have no predecessor: a first
   * node that is a loop target, or a callback Task, is started by an implicit pass node.
   */
  private startNodeFor(first: string): string {
    const invoked = [...this.nodes.values()].some((b) => nodeSuccessors(b).includes(first));
    // A callback Task's function also takes responses to its tokens, which a start permission must not reach.
    if (!invoked && !this.nodes.get(first)?.callback) return first;
    const start = this.add({ name: implicitName.start(this.graph.start.id), scope: ROOT_SCOPE, implicit: true, handler: { kind: 'pass' }, fn: PASS_FUNCTION, instructions: [] }, (b) => {
      b.instructions = [invoke({ kind: 'scalar', target: first })];
    });
    this.drain();
    return start;
  }

  /**
   * The node that receives a Parallel's / Map's outputs. With output
   * processing it is an implicit node, whose join spec carries it: a join
   * that is the next state's node may also be reached by other edges, with
   * inputs that are not the branch outputs.
   */
  private joinNodeFor(container: Parallel | MapState): string {
    const known = this.joinOf.get(container);
    if (known) return known;
    const next = container.nextState as AnyState | undefined;
    const output = joinOutput(container);
    const rules = hasErrorRules(container);
    let name: string;
    if (next?.kind === 'fold') name = this.nodeFor(next);
    else if ((next?.kind === 'task' || next?.kind === 'pass') && !output && !rules && !this.graph.isBackEdge(container, next)) name = this.nodeFor(next);
    else {
      name = this.implicit(implicitName.join(container.id), container, undefined, (b) => {
        b.instructions = this.flowTo(b.name, container, next, this.scope(container));
        // The state's rules are its join's: the join decides what a failed attempt leads to.
        this.catchRules(b, container);
        // Also without Retry rules: a redrive runs an uncaught failure's state again from this fan-out.
        if (rules) this.joinRetries.set(b.name, { rules: container.retries.map(retryRule), fanOut: (this.fanOut(container) as { invoke: ParallelInvoke | MapInvoke }).invoke });
      });
      if (output) this.joinOutputs.set(name, output);
    }
    this.joinOf.set(container, name);
    return name;
  }

  /** A pass node the compiler adds to do part of `state`'s work (its input or output processing, its fan-out, its Choice). */
  private implicit(name: string, state: State, io: IoSpec | undefined, compute: (b: NodeBuilder) => void): string {
    const node: NodeBuilder = { name, state: this.stateName(state), scope: this.scope(state), implicit: true, handler: { kind: 'pass' }, fn: PASS_FUNCTION, instructions: [] };
    return this.add(io ? { ...node, io } : node, compute);
  }

  /**
   * Instructions that take the flow from node `from` (at state `fromState`) to `target`; undefined target = end of scope.
   * Passes that fold into `from` become leading `pass` instructions (a loop, not recursion: chains may be long).
   */
  private flowTo(from: string, fromState: State, target: State | undefined, scope: Scope, inlining: Inlining = newInlining()): Instruction[] {
    const passes: Instruction[] = [];
    let source = fromState;
    let next = target as AnyState | undefined;
    while (next?.kind === 'pass' && this.folds(next)) {
      passes.push(passInstruction(next));
      source = next;
      next = next.nextState as AnyState | undefined;
    }
    if (next === undefined) return [...passes, ...this.endOfScope(from, scope)];
    const rest = this.enterState(from, next, scope, inlining);
    return [...passes, ...(this.graph.isBackEdge(source, next) ? [INCR, ...rest] : rest)];
  }

  /**
   * A Pass runs as `pass` instructions of its predecessor's node, with no function of its own,
   * when it is reached only by the `next` edge of one function state (a Task, Fold or Pass, or
   * a Parallel/Map whose join is an implicit node) and that edge is not a loop back edge. So it
   * is not the start, a branch or item-processor start, a catch handler, a Choice target, a
   * join itself or a loop target, and its instructions always lead its node's list (before any
   * choice), where the runtime applies them before the checkpoint. A Pass whose Parameters read
   * `$$.State` (or whose JSONata outputs read `$states.context`) keeps its node: the context's
   * state name would be the predecessor's.
   */
  private folds(pass: Pass): boolean {
    const edge = this.incoming.get(pass);
    if (!edge || edge.count !== 1 || pass === this.graph.start || this.graph.isBackEdge(edge.from, pass)) return false;
    const from = edge.from;
    const scope = this.scope(pass);
    if (scope.container && (scope.container.kind === 'map' ? scope.container.processorState : scope.container.branches[scope.branch]) === pass) return false;
    if (JSON.stringify(pass.props.parameters ?? null).includes('$$.State') || JSON.stringify(pass.props.outputs ?? null).includes('$states.context')) return false;
    switch (from.kind) {
      case 'task':
      case 'fold':
      case 'pass':
      case 'wait':
        return from.nextState === pass;
      case 'parallel':
      case 'map':
        // The join is an implicit node (see joinNodeFor) only when the container has output processing or error rules.
        return from.nextState === pass && (joinOutput(from) !== undefined || hasErrorRules(from));
      default:
        return false;
    }
  }

  private enterState(from: string, target: AnyState, scope: Scope, inlining: Inlining): Instruction[] {
    switch (target.kind) {
      case 'task':
      case 'pass':
        // A Pass that folds never gets here: flowTo inlines it.
        return [invoke({ kind: 'scalar', target: this.nodeFor(target) })];
      case 'wait':
        return [invoke({ kind: 'scalar', target: this.nodeFor(target), wait: waitSpec(target, this.stateName(target)) })];
      case 'fold':
        throw this.misplacedFold(target);
      case 'parallel':
      case 'map':
        return [this.fanOut(target)];
      case 'choice':
        return [this.choice(from, target, scope, inlining)];
      case 'succeed':
        return scope.container ? this.endOfScope(from, scope) : [{ op: 'succeed' }];
      case 'fail':
        return [failInstruction(target, this.stateName(target))];
    }
  }

  private choice(from: string, choice: Choice, scope: Scope, inlining: Inlining): Instruction {
    if (inlining.path.has(choice)) {
      throw new UnumDefinitionError(this.workflow, choice.id, 'when', 'the Choice is in a loop made only of Choice states; a loop needs a function (e.g. a Pass) so that each iteration is a new invocation');
    }
    // Choices that share targets are copied into every path that reaches them: bound the copies.
    inlining.copies += 1;
    if (inlining.copies > MAX_INLINED_CHOICES) {
      throw new UnumDefinitionError(this.workflow, from, 'next', `the Choice states after this node expand to more than ${MAX_INLINED_CHOICES} choice instructions; put a Pass between consecutive Choices`);
    }
    inlining.path.add(choice);
    const rules = choice.arms.map((arm) => ({ when: arm.condition.ir, then: this.flowTo(from, choice, arm.next, scope, inlining) }));
    const otherwise = choice.otherwiseState ? { otherwise: this.flowTo(from, choice, choice.otherwiseState, scope, inlining) } : {};
    inlining.path.delete(choice);
    return { op: 'choice', state: this.stateName(choice), rules, ...otherwise };
  }

  private fanOut(state: Parallel | MapState): Instruction {
    if (state.kind === 'parallel') {
      const targets = state.branches.map((b) => this.entryNodeFor(b as State));
      const { inputPath, parameters, queryLanguage, arguments: args } = state.props;
      const jsonata = queryLanguage === 'JSONata';
      if (jsonata ? args === undefined : inputPath === undefined && parameters === undefined) return invoke({ kind: 'parallel', targets, join: this.joinNodeFor(state) });
      const input: BranchInput = jsonata
        ? { state: state.id, queryLanguage, arguments: args }
        : { state: state.id, ...(inputPath !== undefined ? { inputPath } : {}), ...(parameters !== undefined ? { parameters } : {}) };
      // Each branch's start rebuilds an input too large to travel inline from the origin's checkpoint.
      for (const target of targets) (this.nodes.get(target) as NodeBuilder).branchInput = input;
      return invoke({ kind: 'parallel', targets, join: this.joinNodeFor(state), input });
    }
    const { inputPath, itemsPath, itemSelector, maxConcurrency, queryLanguage, items: jsonataItems } = state.props;
    const items: MapItems = queryLanguage === 'JSONata'
      ? { itemsPath: '$', queryLanguage, state: this.stateName(state), ...(jsonataItems !== undefined ? { items: jsonataItems } : {}), ...(itemSelector !== undefined ? { itemSelector } : {}) }
      : {
          ...(inputPath !== undefined ? { inputPath } : {}),
          itemsPath: itemsPath ?? '$',
          ...(itemSelector !== undefined ? { itemSelector, state: this.stateName(state) } : {}),
        };
    const target = this.entryNodeFor(state.processorState as State);
    // The item processor's start rebuilds items that are too large to travel inline.
    (this.nodes.get(target) as NodeBuilder).mapItems = items;
    return invoke({ kind: 'map', target, join: this.joinNodeFor(state), ...items, maxConcurrency: maxConcurrency ?? 0 });
  }

  /** The end of the workflow (succeed) or of a branch (fan-in to the container's join, tail patched later). */
  private endOfScope(from: string, scope: Scope): Instruction[] {
    const container = scope.container;
    if (!container) return [{ op: 'succeed' }];
    const join = this.joinNodeFor(container);
    const pending: PendingFanIn = { kind: 'fanIn', target: join, size: container.kind === 'parallel' ? container.branches.length : 'frame', tail: -1, ...this.itemLaunch(container) };
    let list = this.arrivals.get(join);
    if (!list) this.arrivals.set(join, (list = []));
    list.push({ from, branch: scope.branch, invoke: pending });
    return [invoke(pending)];
  }

  /** On the tails of a bounded Map: the item processor's start, where a completed item launches the next. */
  private itemLaunch(container: Parallel | MapState): { launch?: ItemLaunch } {
    const maxConcurrency = container.kind === 'map' ? (container.props.maxConcurrency ?? 0) : 0;
    if (container.kind !== 'map' || maxConcurrency === 0) return {};
    return { launch: { target: this.entryNodeFor(container.processorState as State), maxConcurrency } };
  }

  /**
   * Each join lists its possible tails sorted by name; each fan-in records its
   * tail's position. A Parallel's join also learns each branch's tail when the
   * branch has only one, so it can read the branch outputs with its shards.
   */
  private assignTails(): void {
    for (const [container, join] of this.joinOf) {
      const list = this.arrivals.get(join) ?? [];
      const tails = [...new Set(list.map((a) => a.from))].sort();
      const index = new Map(tails.map((t, i) => [t, i]));
      for (const a of list) a.invoke.tail = index.get(a.from) as number;
      const retry = this.joinRetries.get(join);
      const branchTails = container.kind === 'parallel' ? { branchTails: container.branches.map((_, branch) => soleTail(list, branch, index)) } : {};
      (this.nodes.get(join) as NodeBuilder).join = { tails, ...branchTails, ...this.joinOutputs.get(join), ...(retry ? { retry } : {}) };
    }
  }

  /** Validation already rejects a Fold anywhere but right after its Map/Parallel; this keeps the switch total. */
  private misplacedFold(fold: Fold): UnumDefinitionError {
    return new UnumDefinitionError(this.workflow, fold.id, 'next', 'a Fold must directly follow a Map or Parallel');
  }

  private scope(state: State): Scope {
    return this.graph.scopeOf.get(state) as Scope;
  }

  /**
   * The longest time from an execution's start to the start of one it
   * invokes: the longest function timeout (the invoker may send last) plus the longest
   * maximum event age (the invoked event may wait that long, retries included).
   */
  private handoffSeconds(): number {
    let timeout = 0;
    let eventAge = 0;
    for (const b of this.nodes.values()) {
      timeout = Math.max(timeout, functionTimeoutSeconds(b.fn.timeoutSeconds));
      eventAge = Math.max(eventAge, resolveAsyncSettings(b.fn, this.asyncDefaults).maxEventAgeSeconds);
    }
    return timeout + eventAge;
  }

  /** Whether a container around `scope` has Retry or Catch rules: then an unhandled error fails the innermost one. */
  private stateErrors(scope: Scope): boolean {
    for (let c = scope.container; c; c = this.scope(c).container) if (hasErrorRules(c)) return true;
    return false;
  }

  /** The join of the container around `scope` (the last fan-out frame of the node's invocations), with its tails. */
  private enclosingJoin(scope: Scope): EnclosingJoin | undefined {
    if (!scope.container) return undefined;
    const node = this.joinOf.get(scope.container) as string;
    return { node, tails: (this.nodes.get(node) as NodeBuilder).join?.tails ?? [] };
  }

  private finish(b: NodeBuilder, entry: boolean, handoffSeconds: number): CompiledNode {
    const enclosingJoin = this.enclosingJoin(b.scope);
    const stateErrors = this.stateErrors(b.scope);
    // A node that can fail its state invokes the state's join with the failure (a function name, an invoke permission).
    const successors = nodeSuccessors(b);
    if (stateErrors && enclosingJoin && !successors.includes(enclosingJoin.node)) successors.push(enclosingJoin.node);
    const ir: NodeIR = {
      version: IR_VERSION,
      workflow: this.workflow,
      node: b.name,
      // Only where it differs: the IR of a node named as its state stays as it was.
      ...(b.state !== undefined && b.state !== b.name ? { state: b.state } : {}),
      entry,
      handler: b.handler,
      ...(b.io ? { io: b.io } : {}),
      ...(b.join ? { join: b.join } : {}),
      ...(b.mapItems ? { mapItems: b.mapItems } : {}),
      ...(b.branchInput ? { branchInput: b.branchInput } : {}),
      ...(enclosingJoin ? { enclosingJoin } : {}),
      ...(stateErrors ? { stateErrors: true as const } : {}),
      ...(b.retry ? { retry: b.retry } : {}),
      ...(b.catch ? { catch: b.catch } : {}),
      ...(b.callback ? { callback: b.callback } : {}),
      instructions: b.instructions,
      settings: { ...this.settings, timeoutSeconds: b.fn.timeoutSeconds, handoffSeconds },
      deployment: '',
      functionNames: {},
    };
    return {
      ir,
      fn: b.fn,
      successors,
      waitTargets: waitTargetsOf(b.instructions),
      async: resolveAsyncSettings(b.fn, this.asyncDefaults),
      implicit: b.implicit,
    };
  }
}

/** Has the Parallel/Map Retry or Catch rules (applied by its join)? */
function hasErrorRules(state: Parallel | MapState): boolean {
  return state.retries.length > 0 || state.catches.length > 0;
}

/**
 * Every node `b` may invoke: its instructions' targets, catch handlers, itself (a fold, an item
 * processor's start, whose launchers launch further launchers, and a callback Task with Retry rules,
 * which invokes its next attempt), a retried state's fan-out.
 */
function nodeSuccessors(b: NodeBuilder): string[] {
  const retry = b.join?.retry;
  const instructions = retry ? [...b.instructions, invoke(retry.fanOut)] : b.instructions;
  const retriesTask = b.callback !== undefined && (b.retry?.length ?? 0) > 0;
  return successorsOf(b.name, instructions, b.catch ?? [], b.handler.kind === 'fold' || b.mapItems !== undefined || retriesTask);
}

/** A Parallel's / Map's output processing, which its join applies; undefined when there is none (ResultPath `$` is none). */
function joinOutput(state: Parallel | MapState): JoinOutput | undefined {
  const { resultSelector, resultPath, outputPath, queryLanguage, outputs } = state.props;
  if (queryLanguage === 'JSONata') return outputs === undefined ? undefined : { queryLanguage, outputs };
  const out: JoinOutput = {
    ...(resultSelector !== undefined ? { resultSelector } : {}),
    ...(resultPath !== undefined && resultPath !== '$' ? { resultPath } : {}),
    ...(outputPath !== undefined ? { outputPath } : {}),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

/** What a Fail state does, as an instruction of its predecessor's node: without `error` or `errorPath`, the error is the state's name. */
function failInstruction(fail: Fail, state: string): Instruction {
  const { error, errorPath, cause, causePath, queryLanguage } = fail.props;
  return {
    op: 'fail',
    state,
    ...(queryLanguage === 'JSONata' ? { queryLanguage } : {}),
    ...(errorPath !== undefined ? { errorPath } : { error: error ?? state }),
    ...(causePath !== undefined ? { causePath } : cause !== undefined ? { cause } : {}),
  };
}

/** What a folded Pass does, as an instruction of its predecessor's node. */
function passInstruction(pass: Pass): Instruction {
  const io = ioSpec(pass.props);
  return { op: 'pass', ...(pass.props.result !== undefined ? { result: pass.props.result } : {}), ...(io ? { io } : {}) };
}

function invoke(inv: Invoke): Instruction {
  return { op: 'invoke', invoke: inv };
}

/** The position of the one tail branch `branch` can end at, or -1 when it has several (a Choice, a Fail, a catch). */
function soleTail(arrivals: readonly { readonly from: string; readonly branch: number }[], branch: number, index: ReadonlyMap<string, number>): number {
  const from = new Set(arrivals.filter((a) => a.branch === branch).map((a) => a.from));
  return from.size === 1 ? (index.get([...from][0]) as number) : -1;
}
