/**
 * The documentation's snippets (docs/snippets) import the package by name, as an app does:
 * 'unum-cdk', 'unum-cdk/local', ... Under jest those names resolve to nothing (jest has no
 * package self-reference, and dist/ may not be built), so importing this module first maps each
 * public entry to its source, the files package.json "exports" builds them from.
 */
jest.mock('unum-cdk', () => jest.requireActual('../../lib'), { virtual: true });
jest.mock('unum-cdk/client', () => jest.requireActual('../../lib/client'), { virtual: true });
jest.mock('unum-cdk/local', () => jest.requireActual('../../lib/local'), { virtual: true });
jest.mock('unum-cdk/testing', () => jest.requireActual('../../lib/testing'), { virtual: true });
jest.mock('unum-cdk/effects', () => jest.requireActual('../../runtime/effects'), { virtual: true });
jest.mock('unum-cdk/effects/postgres', () => jest.requireActual('../../runtime/effects/postgres'), { virtual: true });

export {};
