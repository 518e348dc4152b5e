/**
 * How deep the exhaustive fault enumerations go. `npm test` runs the quick
 * depth, which shortens the default run on 2 cores; `npm run
 * test:full` (UNUM_TEST_DEPTH=full) runs all of it, as do `npm run
 * test:faults -- --crash-points` and the seeded campaign beyond it.
 */
export const FULL_DEPTH = process.env.UNUM_TEST_DEPTH === 'full';
