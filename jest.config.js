const os = require('os');

/**
 * Three lanes, each a jest project (`npm run test:unit`, `test:int`, `test:fault-lane`; `npm test` runs
 * the unit lane, then the other two):
 * - unit: `*.test.ts` outside test/faults and not `*.int.test.ts`. No Java (test/unit-lane-setup.ts
 *   hides it), no DynamoDB Local, no synthesis: logic and in-memory stores, about a minute.
 * - integration: `*.int.test.ts`. DynamoDB Local (one for the run: test/global-setup.ts), the local
 *   engine, synthesis and bundling, PostgreSQL, the packed package.
 * - faults: test/faults, the fault-injection lane at its quick depth, on the same DynamoDB Local.
 */
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] },
  setupFiles: ['<rootDir>/test/setup-env.js'],
};
const withDynamoDbLocal = {
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
};

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    { ...shared, displayName: 'unit', globalSetup: '<rootDir>/test/unit-lane-setup.ts', roots: ['<rootDir>/test'], testMatch: ['**/*.test.ts'], testPathIgnorePatterns: ['\\.int\\.test\\.ts$', '/test/faults/'] },
    { ...shared, ...withDynamoDbLocal, displayName: 'integration', roots: ['<rootDir>/test'], testMatch: ['**/*.int.test.ts'], testPathIgnorePatterns: ['/test/faults/'] },
    { ...shared, ...withDynamoDbLocal, displayName: 'faults', roots: ['<rootDir>/test/faults'], testMatch: ['**/*.test.ts'] },
  ],
  // A bound against hangs only: tests that start DynamoDB Local, synthesize or bundle take
  // seconds on an idle machine and many times that on a loaded, shared one (test/support/load.ts).
  testTimeout: 10 * 60_000,
  // Two files at once even on 2 cores (jest's default would run one): much of a file's time is
  // waiting on DynamoDB Local, PostgreSQL, child processes and time-scaled delays.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
};
