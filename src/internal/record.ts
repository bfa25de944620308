/** True for a plain JSON object (`{...}`): not null, not an array. The one check every layer uses on untrusted JSON. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
