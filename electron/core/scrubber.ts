/**
 * One scrubber for a list of secrets, matching each in every form a JSON or HTTP layer can give it
 * (docs/security.md §4): as written; with any character JSON-escaped (`\uXXXX` in either case of hex, `\/`,
 * `\"`, `\\`); URL-encoded once or twice (`%XX`, `%25XX`, either case, `+` for a space); written as an HTML
 * character reference (`&#115;`, `&#x73;`, a few named ones, with or without `;`, once more escaped as `&amp;#…`);
 * any mix of these, character by character; and base64 (standard and URL-safe) at any of the three byte
 * alignments, so base64 of `user:<secret>` or of `Bearer <secret>` holds a recognisable run too.
 * A secret under 8 characters is matched exactly: only where no letter or digit touches it, so `abc` is
 * scrubbed from `key=abc` but not from `abcdef`.
 */

/** Secrets shorter than this are matched only as whole words (see above). */
export const SHORT_SECRET = 8;

export interface Scrubber {
  /** Every form as typed characters (the secret, its base64 runs): what a plain search can look for. */
  readonly literals: readonly string[];
  /** Longest text one form of a secret can take, escapes included: the carry-over a streaming watch needs. */
  readonly maxFormLength: number;
  /** Cheap: false means the text holds no secret in any form. */
  mayHold(text: string): boolean;
  /** Whether the text has any escape an escaped form would need (a plain search, no pattern). */
  hasEscape(text: string): boolean;
  /** Whether the text holds an escaped form; cheap when it has no escape at all. */
  escapedIn(text: string): boolean;
  scrub(text: string): string;
  /** Where the text holds a secret in any form: [start, end) of each match, in order. */
  find(text: string): [number, number][];
  /** The same through every string of a JSON-like value (keys too); parts without a secret stay as they are. */
  deep<T>(value: T): T;
}

const REDACTED = '[redacted]';

/**
 * The longest one character's escape can be: `&amp;#x0000073;` (a reference of 7 digits, the most CommonMark
 * reads) or four UTF-8 bytes URL-encoded twice (`%25F0…`, 20). A reference padded with more zeros is still
 * scrubbed wherever a whole text is; only a streaming watch's carry-over is sized by this.
 */
const MAX_ESCAPE = 20;

const cache = new Map<string, Scrubber>();

/** The scrubber for these secrets, built once per distinct list. */
export function scrubberFor(secrets: readonly string[]): Scrubber {
  const id = secrets.join('\u0000');
  let s = cache.get(id);
  if (!s) {
    s = buildScrubber(secrets);
    cache.set(id, s);
    // A handful of profiles, each with a key and a few headers: a small bound keeps old keys from piling up.
    if (cache.size > 32) cache.delete(cache.keys().next().value!);
  }
  return s;
}

function buildScrubber(secrets: readonly string[]): Scrubber {
  const forms = [...new Set(secrets.filter((s) => s !== '').flatMap((s) => [s, ...base64Runs(s)]))].sort(
    (a, b) => b.length - a.length,
  );
  if (forms.length === 0) return NOTHING;
  const literals = forms.map((f) => (f.includes(' ') ? [f, f.replaceAll(' ', '+')] : [f])).flat();
  const pattern = new RegExp(forms.map(formPattern).join('|'), 'g');
  const oddChars = forms.some((f) => /["\\]/.test(f));
  // One search for a backslash first: most chunks of a stream have none, and then two searches in all.
  const escaped = (text: string) =>
    text.includes('%') ||
    text.includes('&') ||
    (text.includes('\\') && (oddChars || text.includes('\\u') || text.includes('\\/')));
  const mayHold = (text: string) => literals.some((l) => text.includes(l)) || (escaped(text) && test(pattern, text));
  const scrub = (text: string) => (mayHold(text) ? text.replace(pattern, REDACTED) : text);
  return {
    literals,
    maxFormLength: Math.max(...forms.map((f) => f.length * MAX_ESCAPE)),
    mayHold,
    hasEscape: escaped,
    escapedIn: (text) => escaped(text) && test(pattern, text),
    scrub,
    find: (text) => {
      if (!mayHold(text)) return [];
      const out: [number, number][] = [];
      for (const m of text.matchAll(pattern)) out.push([m.index, m.index + m[0].length]);
      return out;
    },
    deep: (value) => deepScrub(value, scrub),
  };
}

const NOTHING: Scrubber = {
  literals: [],
  maxFormLength: 0,
  mayHold: () => false,
  hasEscape: () => false,
  escapedIn: () => false,
  scrub: (t) => t,
  find: () => [],
  deep: (v) => v,
};

function test(pattern: RegExp, text: string): boolean {
  pattern.lastIndex = 0;
  const found = pattern.test(text);
  pattern.lastIndex = 0;
  return found;
}

function deepScrub<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v: unknown, i) => {
      const c = deepScrub(v, scrub);
      if (c !== v) (out ??= [...value])[i] = c;
    });
    return (out ?? value) as T;
  }
  if (typeof value !== 'object' || value === null || !isPlain(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const ck = scrub(k);
    const cv = deepScrub(v, scrub);
    if (ck === k && cv === v) continue;
    const copy = (out ??= { ...(value as Record<string, unknown>) });
    if (ck !== k) delete copy[k];
    copy[ck] = cv;
  }
  return (out ?? value) as T;
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The base64 runs a secret's bytes make at each alignment, and their URL-safe spellings: preceded by 0, 1 or 2
 * other bytes, the secret's own quanta encode to the same characters whatever surrounds them.
 */
export function base64Runs(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const out: string[] = [];
  for (const k of [0, 1, 2]) {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    const run = enc.slice(k === 0 ? 0 : 4, Math.floor((k + bytes.length) / 3) * 4);
    if (run.length < SHORT_SECRET) continue;
    out.push(run);
    const urlSafe = run.replaceAll('+', '-').replaceAll('/', '_');
    if (urlSafe !== run) out.push(urlSafe);
  }
  return out;
}

/** One form as a pattern: each character as itself or any escape of it; a short form only as a whole word. */
function formPattern(form: string): string {
  const body = [...form].map(charPattern).join('');
  return form.length < SHORT_SECRET ? `(?<![A-Za-z0-9])${body}(?![A-Za-z0-9])` : body;
}

function charPattern(c: string): string {
  const alts = [c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')];
  // JSON: \uXXXX per UTF-16 unit (a surrogate pair is two), and the short escapes.
  let json = '';
  for (let i = 0; i < c.length; i++) json += `\\\\u${hex(c.charCodeAt(i), 4)}`;
  alts.push(json);
  if (c === '/') alts.push('\\\\\\/');
  if (c === '"') alts.push('\\\\"');
  if (c === '\\') alts.push('\\\\\\\\');
  // URL-encoding: %XX per UTF-8 byte; a form posted as HTML does spaces as '+'.
  const bytes = [...Buffer.from(c)];
  alts.push(bytes.map((b) => `%${hex(b, 2)}`).join(''));
  // Twice, as a value URL-encoded into a URL that is URL-encoded again (`%252F`).
  alts.push(bytes.map((b) => `%25${hex(b, 2)}`).join(''));
  if (c === ' ') alts.push('\\+');
  // HTML character references, decimal or hex, any leading zeros, `;` optional as HTML parsers read them.
  const cp = c.codePointAt(0)!;
  alts.push(`&(?:amp;)?#(?:0*${cp}|[xX]0*${hex(cp, 1)});?`);
  const named = NAMED_ENTITIES[c];
  if (named) alts.push(`&(?:amp;)?${named};`);
  return `(?:${alts.join('|')})`;
}

/** The named references HTML has for characters a key or token is made of (letters and digits have none). */
const NAMED_ENTITIES: Record<string, string> = {
  '/': 'sol',
  '+': 'plus',
  '=': 'equals',
  _: 'lowbar',
  '.': 'period',
  ':': 'colon',
  '&': 'amp',
  '"': 'quot',
  "'": 'apos',
  '#': 'num',
  '%': 'percnt',
  $: 'dollar',
  '!': 'excl',
  '?': 'quest',
  '@': 'commat',
  '~': 'tilde',
  '*': '(?:ast|midast)',
  '^': 'Hat',
  '|': '(?:verbar|vert|VerticalLine)',
};

/** `n` hex digits of `code`, each letter matching either case. */
function hex(code: number, n: number): string {
  return [...code.toString(16).padStart(n, '0')]
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join('');
}
