import { IR_VERSION, type CatchRule, type EnclosingJoin, type FanInInvoke, type HandlerSpec, type Instruction, type Invoke, type IoSpec, type ItemLaunch, type MapItems, type NodeIR, type NodeSettings, type RetryRule } from '../../runtime/ir';
import type { AnyState, Choice, Fold, FunctionState, MapState, Parallel, Pass, State, Task } from '../definition';
import type { CompiledNode, CompiledWorkflow, FunctionSpec } from './compiled';
import { UnumDefinitionError } from './errors';
import { functionTimeoutSeconds, resolveAsyncSettings, type AsyncSettings } from './function-settings';
import { ROOT_SCOPE, sameScopeEdges, type Graph, type Scope } from './graph';
import { implicitName } from './names';
import { catchRule, exportOf, functionSpec, ioSpec, PASS_FUNCTION, retryRule, successorsOf, userHandler } from './node-parts';

/** Workflow-wide settings, with defaults applied (the per-node timeout, and the handoff bound over all nodes, are added when emitting). */
export type WorkflowSettings = Omit<NodeSettings, 'timeoutSeconds' | 'handoffSeconds'>;

/** A node under construction. Instructions are computed later, from a work queue. */
interface NodeBuilder {
  readonly name: string;
  /** Where the node runs: its fan-out frames are those of the containers around this scope. */
  readonly scope: Scope;
  readonly implicit: boolean;
  readonly handler: HandlerSpec;
  readonly fn: FunctionSpec;
  readonly io?: IoSpec;
  retry?: RetryRule[];
  catch?: CatchRule[];
  join?: { tails: string[] };
  mapItems?: MapItems;
  instructions: Instruction[];
}

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
  private readonly joinOf = new Map<State, string>();
  private readonly arrivals = new Map<string, { readonly from: string; readonly invoke: PendingFanIn }[]>();
  /** Per state: how many same-scope edges lead to it, and from which state (the last one seen). */
  private readonly incoming = new Map<State, { count: number; from: AnyState }>();

  constructor(
    private readonly workflow: string,
    private readonly graph: Graph,
    private readonly settings: WorkflowSettings,
    private readonly asyncDefaults: Partial<AsyncSettings>,
  ) {}

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
      if (state.kind === 'task' || state.kind === 'fold' || (state.kind === 'pass' && !this.folds(state))) this.nodeFor(state);
      this.drain();
    }
    const entry = this.startNodeFor(first);
    this.assignTails();
    const handoffSeconds = this.handoffSeconds();
    const nodes: Record<string, CompiledNode> = {};
    for (const b of this.nodes.values()) nodes[b.name] = this.finish(b, b.name === entry, handoffSeconds);
    const folds = [...this.nodes.values()].some((b) => b.handler.kind === 'fold');
    return { workflow: this.workflow, entry, nodes, warnings: [...warnings], loops: this.graph.hasLoop || folds };
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

  /** The node of a Task, Pass or Fold state. */
  private nodeFor(state: Task | Pass | Fold): string {
    if (this.nodes.has(state.id)) return state.id;
    const scope = this.scope(state);
    if (state.kind === 'pass') {
      const handler: HandlerSpec = state.props.result !== undefined ? { kind: 'pass', result: state.props.result } : { kind: 'pass' };
      return this.add({ name: state.id, scope, implicit: false, handler, fn: PASS_FUNCTION, io: ioSpec(state.props), instructions: [] }, (b) => {
        b.instructions = this.flowTo(b.name, state, state.nextState, scope);
      });
    }
    const handler: HandlerSpec = state.kind === 'fold' ? { kind: 'fold', export: exportOf(state), initial: state.props.initial } : userHandler(state);
    const io = state.kind === 'task' ? ioSpec(state.props) : undefined;
    return this.add({ name: state.id, scope, implicit: false, handler, fn: functionSpec(state), io, instructions: [] }, (b) => {
      this.errorRules(b, state);
      b.instructions = this.flowTo(b.name, state, state.nextState, scope);
    });
  }

  private errorRules(b: NodeBuilder, state: FunctionState & AnyState): void {
    if (state.retries.length > 0) b.retry = state.retries.map(retryRule);
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
        name = this.implicit(implicitName.origin(state.id), this.scope(state), ioSpec(state.props, ['inputPath', 'parameters']), (b) => {
          b.instructions = [this.fanOut(state)];
        });
        break;
      default:
        name = this.implicit(implicitName.enter(state.id), this.scope(state), undefined, (b) => {
          b.instructions = this.enterState(b.name, state, this.scope(state), newInlining());
        });
    }
    this.entryOf.set(state, name);
    return name;
  }

  /**
   * The entry function accepts start requests only (the start permission is
   * permission to invoke it), so its node must have no predecessor: a first
   * node that is a loop target is started by an implicit pass node.
   */
  private startNodeFor(first: string): string {
    const invoked = [...this.nodes.values()].some((b) => successorsOf(b.name, b.instructions, b.catch ?? [], b.handler.kind === 'fold').includes(first));
    if (!invoked) return first;
    const start = this.implicit(implicitName.start(this.graph.start.id), ROOT_SCOPE, undefined, (b) => {
      b.instructions = [invoke({ kind: 'scalar', target: first })];
    });
    this.drain();
    return start;
  }

  /** The node that receives a Parallel's / Map's outputs. */
  private joinNodeFor(container: Parallel | MapState): string {
    const known = this.joinOf.get(container);
    if (known) return known;
    const next = container.nextState as AnyState | undefined;
    const io = ioSpec(container.props, ['resultSelector', 'outputPath']);
    let name: string;
    if (next?.kind === 'fold') name = this.nodeFor(next);
    else if ((next?.kind === 'task' || next?.kind === 'pass') && !io && !this.graph.isBackEdge(container, next)) name = this.nodeFor(next);
    else {
      name = this.implicit(implicitName.join(container.id), this.scope(container), io, (b) => {
        b.instructions = this.flowTo(b.name, container, next, this.scope(container));
      });
    }
    this.joinOf.set(container, name);
    return name;
  }

  private implicit(name: string, scope: Scope, io: IoSpec | undefined, compute: (b: NodeBuilder) => void): string {
    return this.add({ name, scope, implicit: true, handler: { kind: 'pass' }, fn: PASS_FUNCTION, io, instructions: [] }, compute);
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
   * `$$.State` keeps its node: the context's state name would be the predecessor's.
   */
  private folds(pass: Pass): boolean {
    const edge = this.incoming.get(pass);
    if (!edge || edge.count !== 1 || pass === this.graph.start || this.graph.isBackEdge(edge.from, pass)) return false;
    const from = edge.from;
    const scope = this.scope(pass);
    if (scope.container && (scope.container.kind === 'map' ? scope.container.processorState : scope.container.branches[scope.branch]) === pass) return false;
    if (JSON.stringify(pass.props.parameters ?? null).includes('$$.State')) return false;
    switch (from.kind) {
      case 'task':
      case 'fold':
      case 'pass':
        return from.nextState === pass;
      case 'parallel':
      case 'map':
        // The join is an implicit node (see joinNodeFor) only when the container has output processing.
        return from.nextState === pass && ioSpec(from.props, ['resultSelector', 'outputPath']) !== undefined;
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
      case 'fold':
        throw this.misplacedFold(target);
      case 'parallel':
      case 'map':
        return [needsOrigin(target) ? invoke({ kind: 'scalar', target: this.entryNodeFor(target) }) : this.fanOut(target)];
      case 'choice':
        return [this.choice(from, target, scope, inlining)];
      case 'succeed':
        return scope.container ? this.endOfScope(from, scope) : [{ op: 'succeed' }];
      case 'fail':
        return [{ op: 'fail', error: target.props.error ?? target.id, ...(target.props.cause !== undefined ? { cause: target.props.cause } : {}) }];
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
    return { op: 'choice', rules, ...otherwise };
  }

  private fanOut(state: Parallel | MapState): Instruction {
    if (state.kind === 'parallel') {
      return invoke({ kind: 'parallel', targets: state.branches.map((b) => this.entryNodeFor(b as State)), join: this.joinNodeFor(state) });
    }
    const { itemsPath, itemSelector, maxConcurrency } = state.props;
    const items: MapItems = { itemsPath: itemsPath ?? '$', ...(itemSelector !== undefined ? { itemSelector } : {}) };
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
    list.push({ from, invoke: pending });
    return [invoke(pending)];
  }

  /** On the tails of a bounded Map: the item processor's start, where a completed item launches the next. */
  private itemLaunch(container: Parallel | MapState): { launch?: ItemLaunch } {
    const maxConcurrency = container.kind === 'map' ? (container.props.maxConcurrency ?? 0) : 0;
    if (container.kind !== 'map' || maxConcurrency === 0) return {};
    return { launch: { target: this.entryNodeFor(container.processorState as State), maxConcurrency } };
  }

  /** Each join lists its possible tails sorted by name; each fan-in records its tail's position. */
  private assignTails(): void {
    for (const join of this.joinOf.values()) {
      const list = this.arrivals.get(join) ?? [];
      const tails = [...new Set(list.map((a) => a.from))].sort();
      const index = new Map(tails.map((t, i) => [t, i]));
      for (const a of list) a.invoke.tail = index.get(a.from) as number;
      (this.nodes.get(join) as NodeBuilder).join = { tails };
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

  /** The join of the container around `scope` (the last fan-out frame of the node's invocations), with its tails. */
  private enclosingJoin(scope: Scope): EnclosingJoin | undefined {
    if (!scope.container) return undefined;
    const node = this.joinOf.get(scope.container) as string;
    return { node, tails: (this.nodes.get(node) as NodeBuilder).join?.tails ?? [] };
  }

  private finish(b: NodeBuilder, entry: boolean, handoffSeconds: number): CompiledNode {
    const enclosingJoin = this.enclosingJoin(b.scope);
    const ir: NodeIR = {
      version: IR_VERSION,
      workflow: this.workflow,
      node: b.name,
      entry,
      handler: b.handler,
      ...(b.io ? { io: b.io } : {}),
      ...(b.join ? { join: b.join } : {}),
      ...(b.mapItems ? { mapItems: b.mapItems } : {}),
      ...(enclosingJoin ? { enclosingJoin } : {}),
      ...(b.retry ? { retry: b.retry } : {}),
      ...(b.catch ? { catch: b.catch } : {}),
      instructions: b.instructions,
      settings: { ...this.settings, timeoutSeconds: b.fn.timeoutSeconds, handoffSeconds },
      functionNames: {},
    };
    return {
      ir,
      fn: b.fn,
      successors: successorsOf(b.name, b.instructions, b.catch ?? [], b.handler.kind === 'fold'),
      async: resolveAsyncSettings(b.fn, this.asyncDefaults),
      implicit: b.implicit,
    };
  }
}

/** Input processing of a Parallel/Map runs in a function of its own, before the fan-out. */
function needsOrigin(state: Parallel | MapState): boolean {
  return state.props.inputPath !== undefined || (state.kind === 'parallel' && state.props.parameters !== undefined);
}

/** What a folded Pass does, as an instruction of its predecessor's node. */
function passInstruction(pass: Pass): Instruction {
  const io = ioSpec(pass.props);
  return { op: 'pass', ...(pass.props.result !== undefined ? { result: pass.props.result } : {}), ...(io ? { io } : {}) };
}

function invoke(inv: Invoke): Instruction {
  return { op: 'invoke', invoke: inv };
}
