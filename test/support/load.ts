/**
 * Bounds of the tests that run real components, on a machine that may be
 * shared and loaded 20-30x: a bound only catches a hang, so it sits far above
 * what such a machine needs, and no test asserts on elapsed time. A test that
 * starts DynamoDB Local, synthesizes or bundles (seconds when idle) keeps
 * jest's default, 10 minutes (jest.config.js).
 */

/** A test that runs workflows on the local engine, possibly hundreds of fault schedules: minutes when idle. */
export const ENGINE_TEST_TIMEOUT_MS = 60 * 60_000;

/** Waiting for one run of an example workflow: a second or two when idle. */
export const RUN_WAIT_MS = 10 * 60_000;
