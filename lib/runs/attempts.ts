/** How a transition's attempts read in the client's and the local engine's reports. */
/** The handler's attempts in one execution and the errors retried: `3: GatewayBusy x2`. */
export function attemptsText(attempts: number | undefined, retried: readonly string[] = []): string {
  if (attempts === undefined || attempts < 2) return '';
  const counts = new Map<string, number>();
  for (const e of retried) counts.set(e, (counts.get(e) ?? 0) + 1);
  return `${attempts}: ${[...counts].map(([e, n]) => (n > 1 ? `${e} x${n}` : e)).join(', ')}`;
}
