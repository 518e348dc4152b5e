/**
 * The intermediate representation (IR): the contract between the compiler
 * (lib/compiler, which produces it), the construct (lib/construct, which ships
 * one IR per function as `unum-ir.json` beside the bundle) and the runtime
 * (runtime/, which interprets it). This folder is the ONLY place IR shapes are
 * defined. Everything here is plain JSON: no functions, no classes.
 *
 * Semantics are specified in docs/architecture.md ("The IR").
 */
export { IR_VERSION } from './json';
export type { IoSpec, Json, JsonPath, PayloadTemplate } from './json';
export type { ComparisonOperator, ComparisonType, Condition, TypeTest } from './conditions';
export { MAX_WAIT_SECONDS } from './invocations';
export type { BranchInput, CallbackSpec, FanInInvoke, FanInSize, Invoke, ItemLaunch, MapInvoke, MapItems, ParallelInvoke, RunTimeoutEvent, ScalarInvoke, TaskOutcome, TaskResponseAnswer, TaskResponseEvent, WaitSpec } from './invocations';
export { DEFAULT_LAUNCH_WIDTH } from './node';
export type { CatchRule, ChoiceRule, EnclosingJoin, FailInstruction, HandlerSpec, Instruction, JoinSpec, NodeIR, NodeSettings, RetryRule, StateRetry } from './node';
export { ENVELOPE_BOUNDS, ENVELOPE_VERSION, WORKFLOW_ID_PATTERN } from './envelope';
export type { Envelope, EnvelopeHeader, FanInRef, FanOutFrame, FoldState, InputRef, LaunchRange, StartRequest } from './envelope';
export { DEPLOYMENT_ID_PATTERN, ENV, IR_FILE_NAME, LIVE_ALIAS, RECORDER_FILE_NAME, qualifiedName } from './deployment';
export type { RecorderNode, RecorderSpec } from './deployment';
export { METRICS } from './metrics';
