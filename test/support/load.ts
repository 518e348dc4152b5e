/**
 * Bounds of the tests that run real components (DynamoDB Local, the local
 * engine, synthesis, bundling), on a machine that may be shared and loaded
 * 20-30x: a bound here only catches a hang, so it sits far above what such a
 * machine needs; no test asserts on elapsed time. Tests of pure code keep
 * jest's default.
 */

/** A test (or hook) that starts DynamoDB Local, synthesizes or bundles: seconds when idle. */
export const COMPONENT_TEST_TIMEOUT_MS = 10 * 60_000;

/** A test that runs workflows on the local engine, possibly hundreds of fault schedules: minutes when idle. */
export const ENGINE_TEST_TIMEOUT_MS = 60 * 60_000;

/** Waiting for one run of an example workflow: a second or two when idle. */
export const RUN_WAIT_MS = 10 * 60_000;
