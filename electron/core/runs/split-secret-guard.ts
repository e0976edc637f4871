/**
 * A secret split over deltas (docs/security.md §4). Each text delta may hold four characters of a key, so no event
 * and no network chunk holds a recognisable piece, yet the window assembles the whole key from them. The guard
 * reads the text as it grows, block by block, and decides which events may go to the window yet:
 *
 * - an event after which a block's text ends with the start of a secret (at least HOLD_FROM characters of any of
 *   its forms, escapes decoded) is held back, with every event after it, until the text goes another way;
 * - an event that completes a secret has the secret's characters taken out of the held events' text, a
 *   `[redacted]` put in their place, and its payload written again with that text;
 * - otherwise the held events are let go, in order.
 *
 * So the window never receives more than HOLD_FROM − 1 characters of a secret, and the events kept for the run
 * (the Events list, history) are the rewritten ones (EventLog keeps each rewritten payload). The final transcript
 * is scrubbed whole as before (runs/index.ts).
 */
import type { Scrubber } from '../scrubber';

/** Characters of a secret's start that make a delta wait: fewer cannot make an 8-character window of it. */
export const HOLD_FROM = 4;

const REDACTED = '[redacted]';

/** One event as the log will take it. */
export interface GuardedEvent {
  t: number;
  type: string;
  data: string;
  event: string | undefined;
  size: number;
  /** Set when its payload was written again without a secret's characters. */
  rewritten?: boolean;
}

/** A piece of text one event appended to one block, at `start` of that block's text. */
interface Piece {
  block: BlockState;
  start: number;
  text: string;
  /** The piece as the window may see it: `text` with what was redacted taken out. */
  kept: string;
  marked: boolean;
}

interface Held extends GuardedEvent {
  pieces?: Piece[];
}

interface BlockState {
  /** Characters appended so far. */
  length: number;
  /** The last characters appended (at most twice the window), ending at `length`. */
  tail: string;
  /** Text before this offset was already judged to hold a secret and redacted. */
  redactedTo: number;
  /** Offset just past the last escape character (`%`, `&`, `\`) appended, or -1. */
  escapeEnd: number;
}

export class SplitSecretGuard {
  private readonly held: Held[] = [];
  private readonly blocks = new WeakMap<object, BlockState>();
  /** The pieces the event being folded appended (the fold calls `appended` while it takes the event). */
  private pending: Piece[] = [];
  private readonly literals: readonly string[];
  private readonly longest: number;
  private readonly window: number;

  constructor(
    private readonly scrubber: Scrubber,
    private readonly emit: (e: GuardedEvent) => void,
  ) {
    this.literals = scrubber.literals;
    this.longest = Math.max(0, ...this.literals.map((l) => l.length));
    this.window = Math.max(this.longest, scrubber.maxFormLength);
  }

  /** The fold's watch (createFold): a piece of text appended to a block. Only its own tail is kept. */
  readonly appended = (block: object, piece: string): void => {
    if (piece === '') return;
    let state = this.blocks.get(block);
    if (!state) this.blocks.set(block, (state = { length: 0, tail: '', redactedTo: 0, escapeEnd: -1 }));
    this.pending.push({ block: state, start: state.length, text: piece, kept: piece, marked: false });
    state.length += piece.length;
    const tail = state.tail + piece;
    state.tail = tail.length > 2 * this.window ? tail.slice(-this.window) : tail;
    if (this.scrubber.hasEscape(piece)) state.escapeEnd = state.length;
  };

  /** One event, after the fold took it: what it appended came through `appended`. */
  event(e: GuardedEvent): void {
    const pieces = this.pending;
    if (pieces.length === 0) {
      // Nothing waits (nearly always): straight on, without a copy.
      if (this.held.length === 0) this.emit(e);
      else this.held.push(e);
      return;
    }
    let complete = false;
    for (const p of pieces) complete = this.completes(p.block, p.start) || complete;
    // The common case: no secret here, none begun, nothing waiting.
    if (!complete && this.held.length === 0 && !pieces.some((p) => this.endsInSecret(p.block))) {
      pieces.length = 0;
      this.emit(e);
      return;
    }
    this.pending = [];
    this.held.push({ ...e, pieces });
    if (complete) for (const p of pieces) this.redactIn(p.block, p.start);
    if (!pieces.some((p) => this.endsInSecret(p.block))) this.release();
  }

  /** The stream ended: whatever waits goes as it is (its text never became a secret). */
  drain(): void {
    this.release();
  }

  private escaped(state: BlockState): boolean {
    return state.escapeEnd >= 0 && state.length - state.escapeEnd < this.window;
  }

  /** The block's last characters from `from` (block offset) on, as far as its tail reaches back. */
  private recent(state: BlockState, from: number): [number, string] {
    const tailStart = state.length - state.tail.length;
    const at = Math.max(from, tailStart, 0);
    return [at, state.tail.slice(at - tailStart)];
  }

  /** Whether a secret ends in the block's text after `start` (where this event's piece began). */
  private completes(state: BlockState, start: number): boolean {
    if (this.escaped(state)) {
      const [, recent] = this.recent(state, Math.max(state.redactedTo, start - this.window));
      return this.scrubber.mayHold(recent);
    }
    // Searched in place: this runs for every delta, and a slice would be one more string each time.
    const { tail } = state;
    const at = Math.max(0, Math.max(state.redactedTo, start - this.longest) - (state.length - tail.length));
    for (const l of this.literals) if (tail.includes(l, at)) return true;
    return false;
  }

  /** Redacts each secret that ends after `start` from the held events that carry it. */
  private redactIn(state: BlockState, start: number): void {
    const [from, recent] = this.recent(state, Math.max(state.redactedTo, start - this.window));
    const found = this.scrubber.find(recent);
    for (const [s, e] of found) if (from + e > start) this.redact(state, from + s, from + e);
    for (const [, e] of found) state.redactedTo = Math.max(state.redactedTo, from + e);
  }

  /** Whether the block's text ends with the start of a secret (hold the events from here). */
  private endsInSecret(state: BlockState): boolean {
    if (!this.escaped(state)) return this.startsSecret(state.tail, false, state.length - state.redactedTo);
    const [, tail] = this.recent(state, Math.max(state.redactedTo, state.length - this.window));
    const decoded = decodeEscapes(tail);
    return this.startsSecret(decoded.text, decoded.open, decoded.text.length);
  }

  /** Takes [s, e) of a block's text out of the held pieces that carry it; the first of them says so. */
  private redact(state: BlockState, s: number, e: number): void {
    let marked = false;
    for (const h of this.held)
      for (const p of h.pieces ?? []) {
        if (p.block !== state) continue;
        const pEnd = p.start + p.text.length;
        if (pEnd <= s || p.start >= e) continue;
        const a = Math.max(s, p.start) - p.start;
        const b = Math.min(e, pEnd) - p.start;
        p.kept = rebuild(p.text, p.kept, a, b, marked ? '' : REDACTED);
        p.marked = marked = true;
      }
  }

  /** Whether the text ends with at least HOLD_FROM characters of a secret's start (or one less and an escape begun). */
  private startsSecret(text: string, open: boolean, usable: number): boolean {
    const need = open ? HOLD_FROM - 1 : HOLD_FROM;
    const room = Math.min(usable, text.length);
    if (room < need) return false;
    const last = text.slice(-need);
    for (const l of this.literals) {
      if (!l.includes(last)) continue;
      for (let k = Math.min(l.length - 1, room); k >= need; k--) if (text.endsWith(l.slice(0, k))) return true;
    }
    return false;
  }

  private release(): void {
    const held = this.held.splice(0);
    for (const h of held) {
      let data = h.data;
      let rewritten = false;
      for (const p of h.pieces ?? [])
        if (p.marked) {
          data = rewritePiece(data, p.text, p.kept);
          rewritten = true;
        }
      this.emit(rewritten ? { ...h, data, rewritten } : h);
    }
  }
}

/**
 * A piece's text with [a, b) of its original taken out. `kept` is what earlier redactions left of the
 * original; both are walked together, the original's characters still present in `kept` in order.
 */
function rebuild(original: string, kept: string, a: number, b: number, mark: string): string {
  if (kept === original) return original.slice(0, a) + mark + original.slice(b);
  // An earlier redaction changed this piece: take the characters of [a, b) out where they still stand.
  const cut = original.slice(a, b);
  const at = kept.indexOf(cut);
  return at === -1 ? kept : kept.slice(0, at) + mark + kept.slice(at + cut.length);
}

/** The payload with its piece of text written as `kept`: every string equal to the piece, at any depth. */
export function rewritePiece(data: string, piece: string, kept: string): string {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return data.split(piece).join(kept);
  }
  let found = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v !== piece) return v;
      found = true;
      return kept;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const out = walk(json);
  // A fold that took the text from elsewhere than one string: the piece goes, wherever it appears.
  return found ? JSON.stringify(out) : data.split(JSON.stringify(piece).slice(1, -1)).join(kept);
}

/** The named references the scrubber knows (scrubber.ts), decoded. */
const NAMED: Record<string, string> = {
  sol: '/',
  plus: '+',
  equals: '=',
  lowbar: '_',
  period: '.',
  colon: ':',
  amp: '&',
  quot: '"',
  apos: "'",
  num: '#',
  percnt: '%',
  dollar: '$',
  excl: '!',
  quest: '?',
  commat: '@',
  tilde: '~',
  ast: '*',
  midast: '*',
  Hat: '^',
  verbar: '|',
  vert: '|',
  VerticalLine: '|',
};

/**
 * The text as a window would show it once the escapes a secret may hide behind are decoded (HTML references,
 * `%XX` once or twice, `\uXXXX`, `\/`), and whether it ends inside an escape not yet complete.
 */
export function decodeEscapes(text: string): { text: string; open: boolean } {
  // An escape still arriving (`&#11`, `%2`, `%25`, `\u00`) is left out, and said: it may be the next character.
  const begun = OPEN_ESCAPE.exec(text);
  const whole = begun ? text.slice(0, begun.index) : text;
  const decoded = whole.replace(
    /&(?:amp;)?(?:#(?:[xX]([0-9a-fA-F]{1,6})|(\d{1,7}));?|([a-zA-Z]+);)|%(?:25)?([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\\//g,
    (m, hex?: string, dec?: string, name?: string, pct?: string, uni?: string) => {
      if (name) return NAMED[name] ?? m;
      const code = hex ? parseInt(hex, 16) : dec ? Number(dec) : pct ? parseInt(pct, 16) : uni ? parseInt(uni, 16) : 47;
      return code <= 0x10ffff ? String.fromCodePoint(code) : m;
    },
  );
  return { text: decoded, open: begun !== null };
}

const OPEN_ESCAPE =
  /(?:&(?:amp;?|a|am)?(?:#[xX]?[0-9a-fA-F]*|[a-zA-Z]*)|%(?:2(?:5[0-9a-fA-F]?)?|[0-9a-fA-F])?|\\(?:u[0-9a-fA-F]{0,3})?)$/;
