/** The JSON object of an emulated service's request body: `{}` for an empty, malformed or non-object body, which each API then refuses field by field. */
export function requestObject(body: string): Record<string, unknown> {
  try {
    const v = JSON.parse(body || '{}') as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
