/**
 * The secrets a request carries, and the scrubbing of every text that leaves the core (docs/security.md).
 */
import { StringDecoder } from 'node:string_decoder';
import { keyHint } from './vault';
import { scrubberFor, type Scrubber } from './scrubber';

/**
 * Values no credential can usefully be: a header holding one (`x-auth-mode: null`) is hidden by its name, but
 * scrubbing the word from every answer would break the JSON it appears in.
 */
const NOT_A_SECRET = /^(null|true|false|none|undefined)$/i;

/**
 * What a request carries that must never come back out of the core, the one list both the ledger and the
 * scrubbing of answers use: the key, and the values of credential headers. A value of the form `Bearer sk-…`
 * also gives its credentials alone, since a gateway may quote only those ("invalid token sk-…").
 */
export function requestSecrets(
  key: string | undefined,
  headers: Record<string, string>,
  isSecretName: (name: string) => boolean,
): string[] {
  const values = Object.keys(headers)
    .filter((name) => isSecretName(name) && !NOT_A_SECRET.test(headers[name].trim()))
    .map((name) => headers[name]);
  const found = [key, ...values]
    .filter((s): s is string => !!s && s.trim() !== '')
    .flatMap((s) => {
      const credentials = /^[A-Za-z][\w.-]*\s+(\S{8,})$/.exec(s)?.[1];
      return credentials ? [s, credentials] : [s];
    });
  return [...new Set(found)];
}

/**
 * The user name and password a URL carries (a proxy's, or a gateway's `https://user:pass@…`), as written and
 * decoded, and as the `user:pass` Basic credentials are made of: an error or a page quoting any must not show it.
 */
export function urlSecrets(url: string | undefined): string[] {
  if (!url) return [];
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  if (!u.username && !u.password) return [];
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const user = decode(u.username);
  const password = decode(u.password);
  return [...new Set([u.username, user, u.password, password, `${user}:${password}`])].filter((s) => s !== '');
}

/**
 * A value under a credential's name: all of it hidden, unless it holds the key, which is then shown by its hint
 * (so a ledger tells which key was sent) with the rest still scrubbed of every secret.
 */
export function redact(value: string, key: string | undefined, secrets: readonly string[]): string {
  if (!key || !value.includes(key)) return '[redacted]';
  return value
    .split(key)
    .map((part) => scrub(part, secrets))
    .join(`[redacted ${keyHint(key)}]`);
}

/**
 * Removes every secret a request carries (the key, secret header values, credentials in URLs) from any text
 * that might echo them (error bodies, events, model lists) before it leaves the core, in every form a JSON or
 * HTTP layer can give them (scrubber.ts). Cheap when there is nothing to remove.
 */
export function scrub(text: string, secrets: readonly string[]): string {
  return secrets.length === 0 ? text : scrubberFor(secrets).scrub(text);
}

/** `scrub` through every string of a JSON-like value: what a model list or probe evidence carries out. */
export function scrubDeep<T>(value: T, secrets: readonly string[]): T {
  return secrets.length === 0 ? value : scrubberFor(secrets).deep(value);
}

/**
 * A streamed body's decoder that also watches for the secrets, so events are scrubbed only once one has shown
 * up: one search per secret per network chunk instead of one per event. The text a secret's longest form can
 * take carries over, so a secret split across two chunks is still seen, and seen before the event holding it
 * is dispatched (an event is dispatched only when its blank line, which comes after the secret, has arrived).
 * A chunk with a JSON or URL escape in it is also searched for escaped forms.
 */
export function secretWatchingDecoder(secrets: readonly string[]): {
  write(chunk: Uint8Array): string;
  end(): string;
  readonly sawSecret: boolean;
} {
  const utf8 = new StringDecoder('utf8');
  const scrubber = scrubberFor(secrets);
  const plan = watchPlanFor(scrubber);
  const { watched, keepLiteral, keep } = plan;
  let saw = false;
  let tail = '';
  let escapeInTail = false;
  const look = (text: string): string => {
    if (watched.length === 0 || saw || text === '') return text;
    // A stream often opens with one short event: tuned on that alone, the search could anchor on a letter
    // every later chunk is full of. Re-tuned on each longer chunk until one is long enough to be typical.
    if (plan.tuning.on < TUNING_SAMPLE && text.length > plan.tuning.on) {
      const sample = text.length > TUNING_SAMPLE ? text.slice(0, TUNING_SAMPLE) : text;
      plan.tuning = { finders: watched.map((s) => finderFor(s, sample)), on: sample.length };
    }
    const { finders } = plan.tuning;
    const seam = tail.slice(Math.max(0, tail.length - keepLiteral)) + text.slice(0, keepLiteral);
    const escape = scrubber.hasEscape(text);
    saw =
      finders.some((found) => found(text)) ||
      watched.some((s) => seam.includes(s)) ||
      ((escape || escapeInTail) && scrubber.escapedIn(tail + text));
    // Whether the carried-over text may hold an escape: this chunk's, or the last one's if this one is shorter.
    escapeInTail = escape || (text.length < keep && escapeInTail);
    tail = detached(text.length >= keep ? text.slice(-keep) : (tail + text).slice(-keep));
    return text;
  };
  return {
    write: (chunk) => look(utf8.write(chunk)),
    end: () => look(utf8.end()),
    get sawSecret() {
      return saw;
    },
  };
}

/**
 * The same text, not pinning the string it was sliced from. A slice of a chunk's text keeps the whole chunk
 * alive, and a stream's state can outlive a young-generation collection: the tail alone then promoted each
 * load request's whole decoded chunk to the old generation (about 12 KB a request, docs/load.md). Prefixing
 * makes V8 copy the slice into a string of its own before slicing again.
 */
function detached(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** What every watch for one list of secrets shares: the forms it looks for, and the searches tuned for them. */
interface WatchPlan {
  watched: readonly string[];
  keepLiteral: number;
  keep: number;
  /** The searches, and the length of the chunk they were tuned on: shared by every stream with these secrets. */
  tuning: { finders: ((text: string) => boolean)[]; on: number };
}

/**
 * One plan per scrubber, which scrubberFor makes once per list of secrets: a changed key is a new list, so a new
 * plan, and its searches look for the new key. Streams of a load run are alike, so the search one stream tuned
 * suits the next: built per stream, it cost a short load request about a tenth of its CPU (docs/load.md).
 */
const watchPlans = new WeakMap<Scrubber, WatchPlan>();

function watchPlanFor(scrubber: Scrubber): WatchPlan {
  let plan = watchPlans.get(scrubber);
  if (plan) return plan;
  // A form that holds another (`Bearer sk-…` and `sk-…`) is never seen without it: watching the shorter one
  // alone halves the scan of every chunk.
  const all = scrubber.literals;
  const watched = all.filter((s, i) => !all.some((t, j) => j !== i && s.includes(t) && (s !== t || j < i)));
  // The seam between two chunks: a literal form split across them needs its length less one of each; an
  // escaped form, its whole escaped length, searched only when an escape is near.
  const keepLiteral = Math.max(0, ...watched.map((s) => s.length - 1));
  plan = { watched, keepLiteral, keep: Math.max(keepLiteral, scrubber.maxFormLength), tuning: { finders: [], on: 0 } };
  watchPlans.set(scrubber, plan);
  return plan;
}

/** Characters of a stream's opening chunks enough to tell which characters are rare in it. */
const TUNING_SAMPLE = 4096;

/**
 * A search for one secret in every chunk of a stream, tuned on its first long chunk. A plain `includes` reads a
 * firehose at about 2 GB/s when the secret is made of letters the JSON around it is full of (the demo key,
 * `demo-key`, against `"content_block_delta"` and `"type"`): about 1 ms of every 2 MB. Looking only where the
 * secret's rarest character in that chunk appears, and comparing the whole secret there, is about 30×
 * faster. A secret with no rare character keeps `includes`.
 */
function finderFor(secret: string, sample: string): (text: string) => boolean {
  let at = 0;
  let fewest = Infinity;
  for (let i = 0; i < secret.length; i++) {
    const c = secret[i];
    if (secret.indexOf(c) !== i) continue;
    let n = 0;
    for (let j = sample.indexOf(c); j !== -1 && n < fewest; j = sample.indexOf(c, j + 1)) n++;
    if (n < fewest) {
      at = i;
      fewest = n;
    }
  }
  if (fewest > sample.length / 64) return (text) => text.includes(secret);
  const anchor = secret[at];
  return (text) => {
    for (let j = text.indexOf(anchor, at); j !== -1; j = text.indexOf(anchor, j + 1))
      if (text.startsWith(secret, j - at)) return true;
    return false;
  };
}
