/** A field of untrusted JSON as text, as `String()` reads it, or `fallback` when it is missing (null/undefined). */
export function jsonText(value: unknown, fallback = ''): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an object reads as [object Object], as before
  return value == null ? fallback : String(value);
}
