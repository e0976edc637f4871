/**
 * `{{name}}` variables in a request (docs/collections.md). They are resolved at send time on the parsed request,
 * never on its JSON text: a value lands inside a JSON string, so a quote or a brace in it cannot change the
 * request's structure (JSON-safe), and a value put into a URL is percent-encoded (URL-safe).
 */

/** A name: letters, digits, `_`, `-` and `.`, starting with a letter or `_`; spaces inside the braces are allowed. */
const VARIABLE = /\{\{\s*([A-Za-z_][\w.-]{0,63})\s*\}\}/g;

export type Variables = Readonly<Record<string, string>>;

/** Every variable a string uses, in order of first use. */
export function variablesIn(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(VARIABLE)) names.add(m[1]);
  return [...names];
}

function eachString(value: unknown, visit: (s: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const v of value) eachString(v, visit);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      visit(k);
      eachString(v, visit);
    }
  }
}

/** Every variable used anywhere in a value: strings, object keys, nested arrays. */
export function variablesUsed(value: unknown): string[] {
  const names = new Set<string>();
  eachString(value, (s) => variablesIn(s).forEach((n) => names.add(n)));
  return [...names];
}

/** Later scopes win: e.g. [profile variables, collection variables]. */
export function mergeScopes(...scopes: (Variables | undefined)[]): Variables {
  return Object.assign({}, ...scopes.filter(Boolean)) as Variables;
}

/** Variables a value uses that no scope defines: Send is held until each has a value. */
export function unknownVariables(value: unknown, vars: Variables): string[] {
  return variablesUsed(value).filter((n) => !Object.hasOwn(vars, n));
}

function substitute(text: string, vars: Variables, encode: (s: string) => string): string {
  return text.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(vars, name) ? encode(vars[name]) : whole));
}

/** The value with every known variable replaced inside its strings (keys too); unknown ones stay as written. */
export function resolveValue<T>(value: T, vars: Variables): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return substitute(v, vars, (s) => s);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [substitute(k, vars, (s) => s), walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** A URL or path with its variables percent-encoded, so a value cannot add a path segment or a query. */
export function resolveUrl(url: string, vars: Variables): string {
  return substitute(url, vars, encodeURIComponent);
}

/** Headers resolved; a value with a line break is refused by the caller's header check, not here. */
export function resolveHeaders(headers: Readonly<Record<string, string>>, vars: Variables): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, substitute(v, vars, (s) => s)]));
}

/** What a request in `folder` sees on `profileId`: the profile's variables, then each folder's down the path. */
export function scopeFor(
  state: {
    folders: readonly { path: readonly string[]; variables: Variables }[];
    profileVariables: Readonly<Record<string, Variables>>;
  },
  profileId: string | undefined,
  folder: readonly string[] = [],
): Record<string, string> {
  const scopes = [profileId ? state.profileVariables[profileId] : undefined];
  for (let n = 1; n <= folder.length; n++) {
    const at = folder.slice(0, n).join('\u0000');
    scopes.push(state.folders.find((f) => f.path.join('\u0000') === at)?.variables);
  }
  return Object.assign({}, ...scopes.filter(Boolean)) as Record<string, string>;
}
