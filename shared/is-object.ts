/** A plain JSON object: not null, not an array. The one copy every layer uses. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
