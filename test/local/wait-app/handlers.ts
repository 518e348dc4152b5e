/** Handlers of the Wait app: they only stamp what they saw, so the tests can tell what each state received. */
export const before = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, before: true });

export const after = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, after: true });

/** The wait times of the path-based Waits: `s` seconds, then until `at` (60 s ahead). */
export const prepare = (input: { s: number }): Record<string, unknown> => ({ s: input.s, at: new Date(Date.now() + 60_000).toISOString(), keep: { n: 1 } });

export const double = (n: number): number => n * 2;
