/** Handlers of the waiting-callback tests: the callback Task hands its token to no one, as when its partner is not wired up yet. */
export const request = (): { requested: true } => ({ requested: true });

export const ship = (input: Record<string, unknown>): Record<string, unknown> => ({ ...input, shipped: true });
