/** The envelope: the event one function sends the next, and the start request the entry accepts. */
import type { EnclosingJoin } from './node';
import type { Json } from './json';

/**
 * Envelope format version: 2 added `workflow`, 3 `deployment`, 4 the MAC
 * (`Envelope.mac`) and `movedFrom`. A function refuses an envelope of another
 * version, one of another deployment and one without a valid MAC
 * (runtime/entry/envelope.ts, envelope-auth.ts), before anything is read or written.
 */
export const ENVELOPE_VERSION = 4 as const;

/**
 * Bounds every envelope field is checked against before anything is read or
 * written (docs/architecture.md "The envelope"), each from a real limit.
 */
export const ENVELOPE_BOUNDS = {
  /**
   * Branches of one fan-out (frame and fan-in `size`, fold items). A Map's
   * items come from its origin's checkpoint, at most 400 KB of JSON and at
   * least 2 bytes an item, so about 204,000 items; a Parallel has one branch
   * per state in the definition.
   */
  fanOutSize: 2 ** 18,
  /** Nested fan-outs (Map/Parallel inside Map/Parallel); the compiler rejects deeper definitions. */
  depth: 32,
  /**
   * Loop iterations (the envelope's and a frame's). With `fanOutSize`, it
   * keeps every fan-in arrival code `(iteration * size + index) * 1024 + tail`
   * below 2^53 (an exact number); a loop that would go past it fails the run.
   */
  iteration: 2 ** 25 - 1,
} as const;

/** One level of fan-out, pushed by the origin, popped by the branch tail's fanIn. */
export interface FanOutFrame {
  readonly index: number;
  readonly size: number;
  readonly kind: 'map' | 'parallel';
  /** The iteration of the level that fanned out, restored when the frame is popped. */
  readonly iteration: number;
  /** Checkpoint key of the fan-out origin (the state input, which the join may read). */
  readonly origin: string;
  /** The join of this fan-out, written by the nodes inside it (`NodeIR.enclosingJoin`). */
  readonly join?: EnclosingJoin;
  /**
   * A bounded Map's origin node (a `mapItem`'s `state`): the tail that
   * completes an item launches a later one by reference to the origin's
   * checkpoint, and the origin may be any of the nodes a Map is folded into.
   */
  readonly originNode?: string;
  /**
   * Set by a redrive's next attempt of a Parallel/Map state: the iteration of
   * the failed attempt this fan-out replaces. Every step inside reads its
   * checkpoint of that attempt too and reuses a committed value instead of
   * running again (runtime/step/redrive-reuse.ts).
   */
  readonly replaces?: number;
}

/** Where an input value comes from. */
export type InputRef =
  | { readonly value: Json }
  /** Key of the checkpoint item holding the value. */
  | { readonly ref: string }
  /**
   * Map item `index`, too large to travel inline: rebuilt from the origin's
   * checkpoint with this node's `mapItems`. `state` is the selector's
   * `$$.State.Name` (the Map state's name), so the item equals the one sent inline.
   */
  | { readonly mapItem: { readonly origin: string; readonly index: number; readonly state: string } }
  /**
   * To an item processor's start: launch the Map's items `from` .. `to - 1`
   * (or launchers of parts of that range), rebuilt from the origin's
   * checkpoint as a `mapItem` is. The top frame is item `from`'s; `state` is
   * the origin node (the items' `mapItem.state`). Commits nothing.
   */
  | { readonly launch: LaunchRange }
  /** The outputs of all branches of a fan-in, in branch order. */
  | { readonly fanIn: FanInRef }
  /** A branch of this fan-in failed the state; the error is its state failure record (runtime/contract/table/). */
  | { readonly failed: FanInRef };

/** A launcher's range of a Map's items (docs/architecture.md "Launch tree"). */
export interface LaunchRange {
  readonly origin: string;
  readonly from: number;
  readonly to: number;
  readonly state: string;
}

/** A fan-in: its join's invocation name, its size and its origin's checkpoint key. */
export interface FanInRef {
  readonly join: string;
  readonly size: number;
  readonly origin: string;
}

export interface FoldState {
  /** Index of the item this step folds. */
  readonly index: number;
  /** Checkpoint keys of all items, in order (materialised by the first step). */
  readonly items: readonly string[];
}

export interface EnvelopeHeader {
  readonly v: typeof ENVELOPE_VERSION;
  /** The workflow that sent it: a function of another workflow (sharing the table) rejects it. */
  readonly workflow: string;
  /** The deployment of the run (its `NodeIR.deployment`): a function of another deployment refuses it. */
  readonly deployment: string;
  readonly workflowId: string;
  /** The node this envelope is addressed to. */
  readonly node: string;
  readonly iteration: number;
  readonly fanOut: readonly FanOutFrame[];
  /** Exactly one input (a fan-in is one `fanIn` input; a fold step has acc + item refs in `fold`). */
  readonly inputs: readonly InputRef[];
  /** Checkpoint key of the predecessor, sent only to an empty Map's join, which reads the state input from it. */
  readonly parent?: string;
  readonly fold?: FoldState;
  /**
   * Epoch seconds until which the run keeps what it will read again: its run
   * record, the state of the fan-ins of `fanOut` and the items of `fold`.
   * Renewed by the execution that finds it close (docs/architecture.md
   * "Retention"); absent = renew now.
   */
  readonly lease?: number;
  /**
   * The redrive that re-sent this event (the run's redrive count then,
   * docs/architecture.md "Redrive"); absent = none, generation 0. Only the
   * re-sent invocation carries it, not its successors. Not covered by the
   * MAC: the receiver checks it against the parked invocation's mark
   * (runtime/entry/envelope-auth.ts).
   */
  readonly redrive?: number;
  /**
   * Set by a redrive that moved the run to another deployment (with
   * `redrive`): the deployment the envelope was sealed on, which its MAC
   * covers in place of `deployment`. The receiver checks that the run record
   * names its own deployment.
   */
  readonly movedFrom?: string;
}

/** What a non-start invocation receives. */
export interface Envelope {
  readonly unum: EnvelopeHeader;
  /**
   * HMAC-SHA256 of the header under the workflow's envelope key, base64url
   * (runtime/contract/envelope-mac.ts). Absent only while a function builds
   * the envelope: every envelope it sends, schedules or parks is sealed.
   */
  readonly mac?: string;
}

/**
 * An explicit start request to the entry function: exactly these keys. Any
 * other event is the raw input, except an object with an `input`,
 * `workflowId` or `unum` key that is not exactly this: such an event is
 * rejected (docs/architecture.md "The envelope").
 */
export interface StartRequest {
  readonly workflowId?: string;
  readonly input: Json;
  /** The redrive that re-sent this start (as `EnvelopeHeader.redrive`). */
  readonly redrive?: number;
}

/** Allowed workflow ids (run ids): 1-128 characters of this set. */
export const WORKFLOW_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,128}$/;
