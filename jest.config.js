const os = require('os');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }] },
  setupFiles: ['<rootDir>/test/setup-env.js'],
  // One DynamoDB Local for the run's integration tests (test/support/test-dynamodb.ts).
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  // A bound against hangs only: tests that start DynamoDB Local, synthesize or bundle take
  // seconds on an idle machine and many times that on a loaded, shared one (test/support/load.ts).
  testTimeout: 10 * 60_000,
  // Two files at once even on 2 cores (jest's default would run one): much of a file's time is
  // waiting on DynamoDB Local, PostgreSQL, child processes and time-scaled delays.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
};
